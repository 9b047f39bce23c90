// A workload's burst step, found once for the report and the verdicts (see burst_finding.hpp).
#include "runner/run/burst_finding.hpp"

#include <vector>

namespace diskvet::runner {

std::optional<BurstFinding> find_burst(const WorkloadRecord& r) {
  const Measurement& m = r.result;
  if (!r.ran || m.ramp_intervals.empty()) return std::nullopt;
  // The ramp, then the measured window right after it (not when the result is a steady-state
  // window of later rounds: those did not follow the ramp).
  std::vector<double> t, dur, iops, bw;
  auto add = [&](const IntervalSample& s, double offset_s) {
    t.push_back(offset_s + s.t_s);
    dur.push_back(s.dur_s);
    iops.push_back(s.total_iops());
    bw.push_back(s.bw_bytes_per_s(Direction::read) + s.bw_bytes_per_s(Direction::write));
  };
  for (const auto& s : m.ramp_intervals) add(s, 0);
  const bool with_window = r.rounds.empty() && !r.result_is_window;
  if (with_window)
    for (const auto& s : m.intervals.samples()) add(s, r.workload.ramp_s);
  BurstFinding f;
  f.series = with_window ? "the ramp and the measured window" : "the ramp";
  f.step = find_burst_step(t, dur, iops, bw);
  f.in_ramp = f.step && f.step->step_s <= r.workload.ramp_s + 1e-9;
  return f;
}

}  // namespace diskvet::runner
