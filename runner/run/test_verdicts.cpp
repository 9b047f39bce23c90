// Metric -> workload -> measured value -> verdict.
#include "runner/run/test_verdicts.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "runner/run/burst_finding.hpp"

namespace diskvet::runner {

namespace {

bool covers(const Workload& w, MetricScope s) {
  if (s == MetricScope::read) return reads(w.rw);
  if (s == MetricScope::write) return writes(w.rw);
  return true;
}

Validity validity_of(const WorkloadRecord& r, MetricScope scope, const TrustFacts& t) {
  std::vector<std::string> why;
  if (r.steady_required && !(r.steady_state && r.steady_state->attained))
    why.push_back(r.steady_state && r.steady_state->window
                      ? fmt::format("steady state not attained in {} rounds (last window: excursion {:.1f}%, slope change {:.1f}% of the mean; "
                                    "the suite allows {:.0f}% and {:.0f}%)",
                                    r.steady_state->rounds_used, r.steady_state->window->excursion_pct, r.steady_state->window->slope_change_pct,
                                    r.steady_criteria.max_excursion_pct, r.steady_criteria.max_slope_pct)
                      : fmt::format("steady state not attained ({} rounds, fewer than a window)", r.rounds.size()));
  if (t.precondition_missing) why.push_back(t.precondition_detail);
  if (t.region_unwritten && scope != MetricScope::write && reads(r.workload.rw)) why.push_back(t.unwritten_detail);
  if (r.result.interrupted) why.push_back("the measurement was interrupted");
  // A burst spent inside the measured window: the numbers are part burst, part baseline, and
  // neither is what a limit on the volume's baseline asks about.
  if (auto b = find_burst(r); b && b->step && !b->in_ramp)
    why.push_back(fmt::format("a burst-then-baseline step at {:.0f} s fell inside the measured window ({}): the result mixes burst and "
                              "baseline; a longer ramp spends the burst before the measurement",
                              b->step->step_s, describe(*b->step)));
  if (why.empty()) return {};
  std::string s;
  for (const auto& w : why) s += (s.empty() ? "" : "; ") + w;
  return Validity{false, s};
}

// Why a workload that ran has no number: what its jobs issued and completed tells a device that held
// its I/O across the whole window from a job that never got going (a host starved of CPU).
std::string no_io_reason(const WorkloadRecord& r, MetricScope scope) {
  const Measurement& m = r.result;
  std::string why = fmt::format("the {} workload measured no {} I/O", to_string(r.workload.rw), to_string(scope));
  if (m.io_errors) return why + fmt::format(": {} I/O error(s)", m.io_errors);
  if (m.ios_issued == 0)
    return why + fmt::format(": its jobs issued none in the {:g} s of ramp and window (they never ran: a host starved of CPU?)",
                             r.workload.ramp_s + r.workload.runtime_s);
  return why + fmt::format(": {} I/O(s) issued (ramp included), none completed inside the {:g} s window", m.ios_issued, m.elapsed_s);
}

}  // namespace

std::vector<MetricVerdict> judge_test(const TestRecord& test, const suites::TestLimits* limits, const TrustFacts& trust) {
  std::vector<MetricVerdict> out;
  if (!limits) return out;
  for (const auto& ml : limits->limits) {
    std::vector<MetricScope> scopes;
    if (ml.metric.scope == MetricScope::each) {
      for (auto s : {MetricScope::read, MetricScope::write})
        for (const auto& r : test.workloads)
          if (covers(r.workload, s)) {
            scopes.push_back(s);
            break;
          }
      if (scopes.empty()) scopes.push_back(MetricScope::total);
    } else {
      scopes.push_back(ml.metric.scope);
    }
    for (auto scope : scopes) {
      std::string name = metric_name(scope, ml.metric.kind);
      const WorkloadRecord* rec = nullptr;
      for (const auto& r : test.workloads)
        if (covers(r.workload, scope) && r.skipped.empty()) {
          rec = &r;
          break;
        }
      if (!rec) {
        out.push_back(not_evaluated(test.id, name, ml.limit, fmt::format("this test has no {} workload", to_string(scope))));
        continue;
      }
      if (!rec->ran) {
        out.push_back(not_evaluated(test.id, name, ml.limit, rec->error.empty() ? "the workload did not run" : "the workload did not run: " + rec->error));
        continue;
      }
      out.push_back(judge(test.id, name, ml.limit, measure(rec->result, scope, ml.metric.kind), validity_of(*rec, scope, trust),
                          no_io_reason(*rec, scope)));
      // Where the number comes from (a datasheet, a cloud provider's table, a host cap that bound it).
      if (!ml.source.empty()) out.back().reason += " [limit: " + ml.source + "]";
    }
  }
  return out;
}

Rollup rollup_test(const TestRecord& test, const suites::TestLimits* limits, std::string_view no_limits_reason) {
  Rollup r = rollup_test(test.verdicts);
  if (!limits) {
    bool self_judged = !test.workloads.empty();
    for (const auto& w : test.workloads) self_judged = self_judged && w.workload.verify;
    if (self_judged) {
      r.status = VerdictStatus::pass;
    } else {
      r.status = std::max(r.status, VerdictStatus::not_judged);
      r.reasons.push_back(fmt::format("{}: not judged: {}", test.id, no_limits_reason));
    }
  }
  // What a workload of this test found wrong with the device fails the test too, not only the
  // device: a verify test that read back bad data, or any test whose I/O failed, never shows PASS.
  uint64_t io_errors = 0, bad_blocks = 0, bad_reads = 0;
  for (const auto& w : test.workloads) {
    io_errors += w.result.io_errors;
    bad_blocks += w.result.verify.bad_blocks;
    bad_reads += w.result.verify.mismatches;
  }
  if (io_errors) {
    r.status = std::max(r.status, VerdictStatus::fail);
    r.reasons.push_back(fmt::format("{}: {} I/O error{}", test.id, io_errors, io_errors == 1 ? "" : "s"));
  }
  if (bad_reads) {
    r.status = std::max(r.status, VerdictStatus::fail);
    r.reasons.push_back(fmt::format("{}: {} bad block{} found by {} read{}", test.id, bad_blocks, bad_blocks == 1 ? "" : "s", bad_reads,
                                    bad_reads == 1 ? "" : "s"));
  }
  if (test.workloads.empty()) {
    r.status = VerdictStatus::error;
    r.reasons.push_back(fmt::format("{}: did not run", test.id));
  }
  for (const auto& w : test.workloads) {
    if (w.ran || !w.skipped.empty()) continue;  // a skipped cell says why in the report; it is no error
    r.status = VerdictStatus::error;
    r.reasons.push_back(fmt::format("{}: the {} workload {}", test.id, to_string(w.workload.rw),
                                    w.error.empty() ? "did not run" : "could not run: " + w.error));
  }
  return r;
}

}  // namespace diskvet::runner
