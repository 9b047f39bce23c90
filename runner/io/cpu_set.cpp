// Parsing, printing and applying CPU sets for job threads.
// The list parser is ours, not a library's (checked for issue 14, libnuma 2.0.16, hwloc 2.9):
// - libnuma's numa_parse_cpustring() refuses any CPU outside the calling process's affinity as
//   libnuma read it when it loaded (under `taskset -c 1`, "0-1" fails), and _all() any CPU this
//   machine lacks, so a suite's cpus_allowed would parse on one host and not on another; it also
//   takes strtoul's octal and hex ("010" is CPU 8), leading blanks, "+" (relative), "!" (inverted)
//   and "all", writes its own warnings to stderr and returns NULL without saying which part was
//   bad. We check the syntax here and leave the CPUs' existence to pin_current_thread().
// - hwloc's hwloc_bitmap_list_sscanf() skips empty parts ("1,,2"), reads "3-" as every CPU from 3
//   on, has no upper bound, and a libhwloc dependency for twenty lines is a poor trade.
#include "runner/io/cpu_set.hpp"

#include <pthread.h>
#include <sched.h>

#include <fmt/format.h>

#include <bitset>
#include <charconv>
#include <optional>

namespace diskvet::runner {

namespace {

constexpr uint32_t kMaxCpu = CPU_SETSIZE - 1;

std::optional<uint32_t> parse_cpu(std::string_view s) {
  uint32_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty() || v > kMaxCpu) return std::nullopt;
  return v;
}

}  // namespace

Result<CpuSet> CpuSet::parse(std::string_view text) {
  // Marks, not a list of every CPU of every range: "0-1023," repeated a megabyte long would have
  // listed 10^8 CPUs before removing the duplicates. Memory stays one mark per possible CPU.
  std::bitset<kMaxCpu + 1> marked;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    std::string_view part = text.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    size_t dash = part.find('-');
    auto first = parse_cpu(part.substr(0, dash));
    auto last = dash == std::string_view::npos ? first : parse_cpu(part.substr(dash + 1));
    if (!first || !last || *last < *first)
      return usage_error("--cpus-allowed", fmt::format("'{}' is not a CPU or a range of CPUs (0..{})", part, kMaxCpu),
                         "e.g. 0-3,6");
    for (uint32_t c = *first; c <= *last; ++c) marked.set(c);
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  CpuSet set;
  for (uint32_t c = 0; c <= kMaxCpu; ++c)
    if (marked.test(c)) set.cpus.push_back(c);
  return set;
}

CpuSet CpuSet::allowed_now() {
  CpuSet set;
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) != 0) return set;
  for (uint32_t c = 0; c <= kMaxCpu; ++c)
    if (CPU_ISSET(c, &mask)) set.cpus.push_back(c);
  return set;
}

std::string CpuSet::to_string() const {
  std::string out;
  for (size_t i = 0; i < cpus.size();) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += j == i ? fmt::format("{}", cpus[i]) : fmt::format("{}-{}", cpus[i], cpus[j]);
    i = j + 1;
  }
  return out;
}

CpuSet CpuSet::for_job(uint32_t index, CpuPolicy policy) const {
  if (policy == CpuPolicy::shared || cpus.empty()) return *this;
  return CpuSet{{cpus[index % cpus.size()]}};
}

std::string_view to_string(CpuPolicy p) { return p == CpuPolicy::split ? "split" : "shared"; }

int pin_current_thread(const CpuSet& set) {
  if (set.empty()) return 0;
  cpu_set_t mask;
  CPU_ZERO(&mask);
  for (uint32_t c : set.cpus) CPU_SET(c, &mask);
  return -pthread_setaffinity_np(pthread_self(), sizeof mask, &mask);
}

}  // namespace diskvet::runner
