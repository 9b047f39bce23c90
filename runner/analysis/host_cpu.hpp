// The host's CPU use over a stretch of the run, from /proc/stat: shown beside each device's own
// job CPU, so a shelf run in parallel says whether the host, not the drives, was the limit, and so
// the kernel's share (system time, hard and soft interrupts: submission, completion, wake-ups) that
// the job threads' own CPU time does not hold is visible too.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace diskvet::runner {

// The aggregate "cpu" line of /proc/stat, in clock ticks (USER_HZ), all CPUs summed.
struct CpuTimes {
  uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  uint64_t busy_ticks() const { return user + nice + system + irq + softirq + steal; }
  uint64_t total_ticks() const { return busy_ticks() + idle + iowait; }
};

// Parses the text of /proc/stat; nullopt when its first line is not an aggregate cpu line.
std::optional<CpuTimes> parse_proc_stat(std::string_view text);
// Reads /proc/stat (or the file given, for tests); nullopt when it cannot be read.
std::optional<CpuTimes> read_host_cpu(const std::string& path = "/proc/stat");

// Busy share of all CPUs between two readings, 0..100.
double busy_pct(const CpuTimes& before, const CpuTimes& after);

// What every CPU of the host did between two readings: shares of all CPUs' time (0..100) and CPU
// seconds. system, irq and softirq hold the kernel's work for the tested I/Os, whichever thread or
// CPU it ran on, and everything else the host did meanwhile.
struct HostCpuShare {
  double busy_pct = 0;
  double user_pct = 0;     // user + nice
  double system_pct = 0;
  double irq_pct = 0;
  double softirq_pct = 0;
  double iowait_pct = 0;
  double steal_pct = 0;
  double user_s = 0, system_s = 0, irq_s = 0, softirq_s = 0;
};
HostCpuShare host_cpu_share(const CpuTimes& before, const CpuTimes& after, long ticks_per_s);

}  // namespace diskvet::runner
