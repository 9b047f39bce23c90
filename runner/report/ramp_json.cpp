// The ramp's series and the burst step as report JSON (see ramp_json.hpp).
#include "runner/report/ramp_json.hpp"

#include <fmt/format.h>

#include <vector>

#include "runner/analysis/burst.hpp"

namespace diskvet::runner {

namespace json = boost::json;

void add_ramp_and_burst(json::object& o, const WorkloadRecord& r) {
  const Measurement& m = r.result;
  if (!r.ran || m.ramp_intervals.empty()) return;
  json::array ramp;
  for (const auto& s : m.ramp_intervals) {
    json::object x{{"t_s", s.t_s}, {"dur_s", s.dur_s}};
    for (auto d : {Direction::read, Direction::write})
      x[to_string(d)] = json::object{{"iops", s.iops(d)}, {"bw_bytes", s.bw_bytes_per_s(d)}};
    ramp.push_back(std::move(x));
  }
  o["ramp"] = json::object{{"bucket_s", m.ramp_bucket_s}, {"intervals", std::move(ramp)}};

  // The series on one time axis from the workload's start: the ramp, then the measured window
  // right after it (not when the result is a steady-state window of later rounds).
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
  const char* over = with_window ? "the ramp and the measured window" : "the ramp";
  json::object b;
  if (auto step = find_burst_step(t, dur, iops, bw)) {
    const bool in_ramp = step->step_s <= r.workload.ramp_s + 1e-9;
    b = {{"found", true},
         {"before_iops", step->before_iops},
         {"after_iops", step->after_iops},
         {"before_mb_s", step->before_mb_s},
         {"after_mb_s", step->after_mb_s},
         {"step_s", step->step_s},
         {"burst_s", step->burst_s},
         {"explained", step->explained},
         {"in_ramp", in_ramp}};
    b["summary"] = describe(*step) + (in_ramp ? "; judged on the baseline"
                                              : "; the step fell inside the measured window: the result mixes burst and baseline");
  } else {
    b = {{"found", false}, {"summary", fmt::format("no burst-then-baseline step in {}", over)}};
  }
  b["series"] = over;
  o["burst"] = std::move(b);
}

}  // namespace diskvet::runner
