// Knee detection and Little's-law check: pure functions of what was measured.
#include "runner/knee.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace diskvet::runner {

bool sweep_should_stop(std::vector<SweepPoint>& points, double min_gain_pct) {
  if (points.size() < 2) return false;
  SweepPoint& last = points.back();
  const SweepPoint& prev = points[points.size() - 2];
  last.gain_pct = prev.iops > 0 ? (last.iops - prev.iops) / prev.iops * 100 : 100;
  return last.gain_pct < min_gain_pct;
}

size_t knee_index(const std::vector<SweepPoint>& points) {
  size_t best = 0;
  for (size_t i = 1; i < points.size(); ++i)
    if (points[i].iops > points[best].iops) best = i;
  return best;
}

LittleCheck little_check(const Measurement& m) {
  LittleCheck c;
  const Workload& w = m.workload;
  c.configured_outstanding = static_cast<double>((w.engine == BackendKind::psync ? 1 : w.iodepth) * w.numjobs);
  c.measured_outstanding = m.mean_outstanding();
  c.applies = w.rate_iops == 0 && w.engine != BackendKind::null;
  if (m.elapsed_s > 0) c.job_cpu_busy_pct = (m.usr_cpu_s + m.sys_cpu_s) / (m.elapsed_s * w.numjobs) * 100;
  c.queue_kept_full = !c.applies || c.measured_outstanding >= 0.8 * c.configured_outstanding;
  // A job thread busy all the time is the tool, not the device, setting the pace.
  c.runner_bound = c.job_cpu_busy_pct >= 90 || !c.queue_kept_full;
  if (!c.applies) c.note = "rate-capped: the queue is not meant to be full";
  else if (c.runner_bound)
    c.note = fmt::format("the runner may be the bottleneck: {:.1f} of {:.0f} I/Os outstanding on average, job threads {:.0f}% busy",
                         c.measured_outstanding, c.configured_outstanding, c.job_cpu_busy_pct);
  else
    c.note = fmt::format("IOPS x mean latency = {:.2f} outstanding of {:.0f} configured: the device set the pace", c.measured_outstanding,
                         c.configured_outstanding);
  return c;
}

}  // namespace diskvet::runner
