// The host's CPU use over a stretch of the run, from /proc/stat: shown beside each device's own
// job CPU, so a shelf run in parallel says whether the host, not the drives, was the limit.
#pragma once

#include <cstdint>
#include <optional>

namespace diskvet::runner {

struct CpuTimes {
  uint64_t busy_ticks = 0;
  uint64_t total_ticks = 0;
};

// The "cpu" line of /proc/stat; nullopt when it cannot be read.
std::optional<CpuTimes> read_host_cpu();

// Busy share of all CPUs between two readings, 0..100.
double busy_pct(const CpuTimes& before, const CpuTimes& after);

}  // namespace diskvet::runner
