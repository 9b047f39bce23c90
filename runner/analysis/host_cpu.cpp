// /proc/stat's aggregate cpu line: user nice system idle iowait irq softirq steal [guest guest_nice].
#include "runner/analysis/host_cpu.hpp"

#include <fstream>
#include <sstream>

namespace diskvet::runner {

std::optional<CpuTimes> parse_proc_stat(std::string_view text) {
  std::istringstream in{std::string(text.substr(0, text.find('\n')))};
  std::string label;
  CpuTimes t;
  if (!(in >> label >> t.user >> t.nice >> t.system >> t.idle >> t.iowait >> t.irq >> t.softirq) || label != "cpu") return std::nullopt;
  if (!(in >> t.steal)) t.steal = 0;  // kernels before 2.6.11 have no steal column
  return t;
}

std::optional<CpuTimes> read_host_cpu(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  return parse_proc_stat(line);
}

double busy_pct(const CpuTimes& before, const CpuTimes& after) {
  const uint64_t total = after.total_ticks() - before.total_ticks();
  return total ? 100.0 * static_cast<double>(after.busy_ticks() - before.busy_ticks()) / static_cast<double>(total) : 0;
}

HostCpuShare host_cpu_share(const CpuTimes& before, const CpuTimes& after, long ticks_per_s) {
  HostCpuShare s;
  const double total = static_cast<double>(after.total_ticks() - before.total_ticks());
  const double hz = ticks_per_s > 0 ? static_cast<double>(ticks_per_s) : 100.0;
  auto pct = [&](uint64_t a, uint64_t b) { return total > 0 ? 100.0 * static_cast<double>(b - a) / total : 0.0; };
  auto sec = [&](uint64_t a, uint64_t b) { return static_cast<double>(b - a) / hz; };
  s.busy_pct = busy_pct(before, after);
  s.user_pct = pct(before.user + before.nice, after.user + after.nice);
  s.system_pct = pct(before.system, after.system);
  s.irq_pct = pct(before.irq, after.irq);
  s.softirq_pct = pct(before.softirq, after.softirq);
  s.iowait_pct = pct(before.iowait, after.iowait);
  s.steal_pct = pct(before.steal, after.steal);
  s.user_s = sec(before.user + before.nice, after.user + after.nice);
  s.system_s = sec(before.system, after.system);
  s.irq_s = sec(before.irq, after.irq);
  s.softirq_s = sec(before.softirq, after.softirq);
  return s;
}

}  // namespace diskvet::runner
