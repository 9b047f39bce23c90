// The matrix rounds: PTS-E 1.1 section 7 (IOPS test) runs, per round, each R/W mix x block size
// for one minute; rounds repeat until the 4 KiB 0/100 IOPS meet the steady-state criteria (PTS
// 2.1), and the report gives every cell averaged over the measurement window.
#include "runner/run/matrix_run.hpp"

#include <fmt/format.h>

#include "common/units.hpp"
#include "runner/analysis/metric.hpp"
#include "runner/io/measurement_window.hpp"

namespace diskvet::runner {

namespace {

// Each cell's workload as it will run: one round's length under steady state (the suite's round, or
// the run's --duration if shorter), no ramp (PTS runs the cells back to back); a block size the
// device's logical block does not divide is skipped, with why.
std::vector<WorkloadRecord> plan_cells(const WorkloadContext& c, const MatrixRecord& mx) {
  const auto& ss = c.suite.steady_state;
  std::vector<WorkloadRecord> recs(c.test.workloads.size());
  const uint32_t lbs = c.target.info().logical_block_size;
  for (size_t i = 0; i < recs.size(); ++i) {
    WorkloadContext ci = c;
    ci.index = i;
    WorkloadRecord& r = recs[i];
    r.workload = resolve_workload(ci, c.test.workloads[i]);
    if (ss.enabled) r.workload.runtime_s = c.duration_s ? std::min(ss.round_s, *c.duration_s) : ss.round_s;
    r.workload.ramp_s = 0;
    r.target_path = io_path(c.target.info(), r.workload);
    r.steady_required = mx.steady_required;
    r.steady_criteria = ss.criteria;
    if (r.workload.bs_bytes % lbs)
      r.skipped = fmt::format("{}-byte blocks need a logical block size that divides them; this device's is {} bytes", r.workload.bs_bytes, lbs);
  }
  return recs;
}

// One round: every cell that can run, in order. False when a cell failed to run or met I/O errors
// (the report names them; the cells keep the rounds they ran).
bool run_round(const WorkloadContext& c, std::vector<WorkloadRecord>& recs, std::vector<RoundWindow>& windows, size_t round, size_t max_rounds) {
  const bool steady = c.suite.steady_state.enabled;
  const size_t n = recs.size();
  for (size_t i = 0; i < n && !stopped(c); ++i) {
    WorkloadRecord& r = recs[i];
    if (!r.skipped.empty()) continue;
    WorkloadContext ci = c;
    ci.index = i;
    auto m = run_step(ci, r.workload, steady ? Phase::steady_state : Phase::measure,
                      fmt::format("round {} of at most {}, cell {} of {}: {}", round + 1, max_rounds, i + 1, n, describe(r.workload)));
    if (!m) {
      r.error = m.error().message();
      return false;
    }
    r.rounds.push_back(round_record(*m, false));  // a matrix tracks its cells' IOPS
    const bool failed = m->io_errors > 0 || m->abandoned;
    windows[i].push(std::move(*m));
    if (failed) return false;
  }
  return true;
}

// Each cell's measurement window: the rounds that met the criteria (or the last window examined).
// A cell that ran in a round the matrix did not finish has that round as its last (it holds the
// errors, or the interruption, that the verdicts must see).
void finish_cells(const WorkloadContext& c, const MatrixRecord& mx, std::vector<WorkloadRecord>& recs, std::vector<RoundWindow>& windows,
                  size_t window_rounds) {
  const size_t window = mx.steady_state && mx.steady_state->window ? mx.steady_state->window->rounds : window_rounds;
  for (size_t i = 0; i < recs.size(); ++i) {
    WorkloadRecord& r = recs[i];
    if (!r.skipped.empty() || !r.error.empty()) continue;
    if (windows[i].size() == 0) {
      r.error = stopped(c) ? "interrupted before this cell ran" : "the matrix stopped before this cell ran";
      continue;
    }
    finish(r, windows[i].merged_last(window));
    if (stopped(c)) r.result.interrupted = true;
    r.result_is_window = c.suite.steady_state.enabled;
    r.steady_state = mx.steady_state;
  }
}

}  // namespace

std::vector<WorkloadRecord> run_matrix_test(const WorkloadContext& c, MatrixRecord& mx) {
  const suites::MatrixSpec& spec = *c.test.matrix;
  const auto& ss = c.suite.steady_state;
  mx.rwmixread_pcts = spec.rwmixread_pcts;
  mx.bs_bytes = spec.bs_bytes;
  mx.tracked = spec.tracked;
  mx.steady_required = ss.enabled && ss.required;
  mx.criteria = ss.criteria;
  // Without steady state the matrix runs once, each cell for its own runtime.
  const size_t max_rounds = ss.enabled ? ss.criteria.max_rounds : 1;
  const size_t window_rounds = ss.enabled ? ss.criteria.window_rounds : 1;
  mx.criteria.max_rounds = max_rounds;

  std::vector<WorkloadRecord> recs = plan_cells(c, mx);
  mx.round_s = recs.empty() ? 0 : recs.front().workload.runtime_s;
  if (!recs[spec.tracked].skipped.empty()) {
    for (auto& r : recs)
      if (r.skipped.empty()) r.error = "the tracked cell cannot run on this device: " + recs[spec.tracked].skipped;
    return recs;
  }
  std::vector<RoundWindow> windows(recs.size(), RoundWindow(window_rounds));
  for (size_t round = 0; round < max_rounds && !stopped(c); ++round) {
    if (!run_round(c, recs, windows, round, max_rounds) || stopped(c)) break;
    ++mx.rounds_run;
    mx.tracked_iops.push_back(recs[spec.tracked].rounds.back().iops);
    if (!ss.enabled) break;
    mx.steady_state = detect_steady_state(mx.tracked_iops, ss.criteria);
    if (mx.steady_state->attained) break;
  }
  finish_cells(c, mx, recs, windows, window_rounds);
  return recs;
}

}  // namespace diskvet::runner
