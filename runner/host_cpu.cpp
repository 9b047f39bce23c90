// /proc/stat's aggregate cpu line: user nice system idle iowait irq softirq steal.
#include "runner/host_cpu.hpp"

#include <fstream>
#include <string>

namespace diskvet::runner {

std::optional<CpuTimes> read_host_cpu() {
  std::ifstream in("/proc/stat");
  std::string label;
  uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  if (!(in >> label >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal) || label != "cpu") return std::nullopt;
  CpuTimes t;
  t.busy_ticks = user + nice + system + irq + softirq + steal;
  t.total_ticks = t.busy_ticks + idle + iowait;
  return t;
}

double busy_pct(const CpuTimes& before, const CpuTimes& after) {
  uint64_t total = after.total_ticks - before.total_ticks;
  return total ? 100.0 * static_cast<double>(after.busy_ticks - before.busy_ticks) / static_cast<double>(total) : 0;
}

}  // namespace diskvet::runner
