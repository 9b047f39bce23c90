// Knee detection and Little's-law check: pure functions of what was measured.
#include "runner/analysis/knee.hpp"

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
  c.littles_outstanding = m.mean_outstanding();
  c.sampled_inflight = m.mean_inflight();
  // What the device held, counted: IOPS x latency under-counts a window in which I/Os hung and had
  // not completed (or completed after it), and would blame the runner for the device's stall.
  c.measured_outstanding = c.sampled_inflight.value_or(c.littles_outstanding);
  c.applies = !w.rate_capped() && w.engine != BackendKind::null;
  c.polling = w.spin_us > 0;
  if (m.elapsed_s > 0) c.job_cpu_busy_pct = (m.usr_cpu_s + m.sys_cpu_s) / (m.elapsed_s * w.numjobs) * 100;
  c.queue_kept_full = !c.applies || c.measured_outstanding >= 0.8 * c.configured_outstanding;
  // A job thread busy all the time is the tool, not the device, setting the pace; unless it polls
  // its completions, which keeps it busy by design while the device sets the pace.
  const bool cpu_bound = c.job_cpu_busy_pct >= 90 && !c.polling;
  c.runner_bound = c.applies && (cpu_bound || !c.queue_kept_full);
  const std::string held = c.sampled_inflight ? fmt::format("{:.1f} of {:.0f} I/Os in flight on average (sampled; IOPS x mean latency: {:.2f})",
                                                            c.measured_outstanding, c.configured_outstanding, c.littles_outstanding)
                                              : fmt::format("{:.2f} of {:.0f} I/Os outstanding (IOPS x mean latency)", c.measured_outstanding,
                                                            c.configured_outstanding);
  if (!c.applies) c.note = "rate-capped: the queue is not meant to be full";
  else if (c.runner_bound) c.note = fmt::format("the runner may be the bottleneck: {}, job threads {:.0f}% busy", held, c.job_cpu_busy_pct);
  else
    c.note = fmt::format("{}: the device set the pace{}", held,
                         c.polling && c.job_cpu_busy_pct >= 90 ? fmt::format(" (job threads {:.0f}% busy polling completions, by design)", c.job_cpu_busy_pct) : "");
  return c;
}

}  // namespace diskvet::runner
