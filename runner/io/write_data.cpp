// Descriptions of write data patterns for reports.
#include "runner/io/write_data.hpp"

#include <fmt/format.h>

namespace diskvet::runner {

std::string describe(const DataPattern& p) {
  if (p.compress_pct >= 100) return "zeros (buffer_compress_percentage=100): every write identical";
  std::string d = p.dedupe_pct ? fmt::format("{}% of writes repeat an earlier write (dedupe_percentage), the rest unique", p.dedupe_pct)
                               : std::string("unique per write");
  if (p.compress_pct) d += fmt::format("; {}% of each 512 bytes zeros (buffer_compress_percentage), the rest random", p.compress_pct);
  else d += "; random, incompressible";
  return d;
}

}  // namespace diskvet::runner
