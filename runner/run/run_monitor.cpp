// Health polling and slowdown detection around a device's workloads.
#include "runner/run/run_monitor.hpp"

#include <fmt/format.h>

#include "runner/io/clock.hpp"

namespace diskvet::runner {

RunMonitor::RunMonitor(const suites::MonitorSpec& spec, const RunHooks& hooks, const devices::Device& device, const suites::Profile* profile)
    : spec_(spec), profile_(profile), start_ns_(now_ns()) {
  if (spec.health_poll && hooks.read_health) poller_ = std::make_unique<HealthPoller>(hooks.read_health, device, spec.health_interval_s);
}

void RunMonitor::workload_starting() { workload_start_ns_ = now_ns(); }

void RunMonitor::workload_done(const std::string& test_id, const WorkloadRecord& r) {
  if (!spec_.slowdowns || !r.ran) return;
  const auto& samples = r.result.intervals.samples();
  std::vector<double> t, dur, iops;
  // Interval times count from the end of the ramp; put them on the device's clock.
  double offset_s = static_cast<double>(workload_start_ns_ - start_ns_) / 1e9 + r.workload.ramp_s;
  for (const auto& s : samples) {
    t.push_back(s.t_s + offset_s);
    dur.push_back(s.dur_s);
    iops.push_back(s.total_iops());
  }
  for (auto& e : detect_slowdowns(t, dur, iops, spec_.slowdown)) slowdowns_.push_back({test_id, writes(r.workload.rw), e});
}

void RunMonitor::finish(DeviceResult& res) {
  if (poller_) res.health_series = poller_->finish();
  std::vector<HealthPoint> points;
  for (const auto& s : res.health_series)
    points.push_back({s.t_s, s.health.temperature_c, s.health.thermal_transitions, s.health.warning_temp_c});
  const bool judge_slowdown = profile_ && profile_->burnin.max_slowdown_pct;
  const double limit = judge_slowdown ? *profile_->burnin.max_slowdown_pct : 100;
  std::optional<double> max_temp = profile_ ? profile_->burnin.max_temp_c : std::nullopt;
  for (auto& p : slowdowns_) {
    explain_slowdown(p.event, points, p.writes);
    const SlowdownEvent& e = p.event;
    if (judge_slowdown && e.max_drop_pct > limit)
      res.facts.run_problems.push_back(fmt::format("{}: IOPS fell {:.0f}% below the rolling median for {:.0f} s from {:.0f} s ({}), over the "
                                                   "profile's max_slowdown_pct {:.0f}",
                                                   p.test_id, e.max_drop_pct, e.duration_s(), e.start_s, e.cause, limit));
    res.slowdowns.push_back({p.test_id, e});
  }
  for (auto& line : judge_health_series(res.health_before, res.health_series, max_temp)) res.facts.run_problems.push_back(std::move(line));
}

}  // namespace diskvet::runner
