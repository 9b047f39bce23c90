// The ramp's series and the burst step as report JSON (see ramp_json.hpp).
#include "runner/report/ramp_json.hpp"

#include <fmt/format.h>

#include "runner/run/burst_finding.hpp"

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

  const std::optional<BurstFinding> f = find_burst(r);
  json::object b;
  if (f && f->step) {
    const BurstStep& step = *f->step;
    b = {{"found", true},
         {"before_iops", step.before_iops},
         {"after_iops", step.after_iops},
         {"before_mb_s", step.before_mb_s},
         {"after_mb_s", step.after_mb_s},
         {"step_s", step.step_s},
         {"burst_s", step.burst_s},
         {"explained", step.explained},
         {"in_ramp", f->in_ramp}};
    b["summary"] = describe(step) + (f->in_ramp ? "; judged on the baseline"
                                                : "; the step fell inside the measured window: the result mixes burst and baseline, "
                                                  "so its limits are not judged (INCONCLUSIVE)");
  } else {
    b = {{"found", false}, {"summary", fmt::format("no burst-then-baseline step in {}", f ? f->series : "the ramp")}};
  }
  b["series"] = f ? f->series : "the ramp";
  o["burst"] = std::move(b);
}

}  // namespace diskvet::runner
