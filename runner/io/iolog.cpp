// fio's iolog v3 text of a diskvet run.
#include "runner/io/iolog.hpp"

#include <fmt/format.h>

namespace diskvet::runner {

std::string render_iolog(const IoLog& log, std::string_view filename) {
  std::string out;
  for (const auto& job : log.jobs) {
    auto us = [&](uint64_t t_ns) { return t_ns > log.start_ns ? (t_ns - log.start_ns) / 1000 : 0; };
    out += fmt::format("fio version 3 iolog\n0 {} add\n0 {} open\n", filename, filename);
    uint64_t last_us = 0;
    for (const auto& r : job.records()) {
      last_us = us(r.t_ns);
      out += fmt::format("{} {} {} {} {}\n", last_us, filename, to_string(r.dir), r.offset_bytes, log.bs_bytes);
    }
    out += fmt::format("{} {} close\n", last_us, filename);
  }
  return out;
}

}  // namespace diskvet::runner
