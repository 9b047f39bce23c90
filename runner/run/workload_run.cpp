// Warmup, sweep, steady-state rounds and measurement windows of one workload.
#include "runner/run/workload_run.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/units.hpp"
#include "runner/analysis/knee.hpp"
#include "runner/analysis/metric.hpp"
#include "runner/io/engine.hpp"
#include "runner/io/measurement_window.hpp"
#include "runner/run/phase_sequence.hpp"
#include "runner/run/step_observer.hpp"

namespace diskvet::runner {

std::string describe(const Workload& w) {
  std::string d = fmt::format("{} {} QD{} x{}", to_string(w.rw), format_bytes(w.bs_bytes), w.iodepth, w.numjobs);
  if (reads(w.rw) && writes(w.rw)) d += fmt::format(" {}% read", w.rwmixread_pct);
  if (w.engine == BackendKind::io_uring_cmd) d += ", NVMe passthrough";
  if (w.hipri) d += ", polled";
  return d;
}

Result<Measurement> run_step(const WorkloadContext& c, const Workload& asked, Phase phase, const std::string& detail,
                             std::function<bool(const IntervalSample&)> until) {
  Workload w = asked;
  if (c.seeds) w.seed = c.seeds->next();
  auto valid = validate(w, c.target.info().size_bytes, c.target.info().logical_block_size);
  if (!valid) return valid.error();
  c.events.on_phase(PhaseEvent{c.device, phase, c.test.id, static_cast<int>(c.index), detail});
  StepObserver obs(StepContext{&c.events, c.device, phase, c.test.id, static_cast<int>(c.index), detail}, c.stop, std::move(until));
  RunControl control = obs.control();
  control.verify = c.verify;
  control.sampler_clock = c.sampler_clock;
  auto m = run_workload(*valid, c.target, control);
  if (m && obs.interrupted()) m->interrupted = true;
  if (m && c.watchdog) c.watchdog->add(c.test.id, *m, c.target.info().logical_block_size);
  if (m && c.bytes_sent) *c.bytes_sent += m->write_bytes_issued;
  if (m && c.passthrough_bytes_sent && valid->engine == BackendKind::io_uring_cmd) *c.passthrough_bytes_sent += m->write_bytes_issued;
  if (m && m->abandoned) m->interrupted = true;  // nothing more runs on this device
  return m;
}

RoundRecord round_record(const Measurement& m, bool track_latency) {
  RoundRecord rr;
  rr.iops = m.total_iops();
  rr.lat_mean_us = measure(m, MetricScope::total, MetricKind::lat_mean_us).value_or(0);
  rr.tracked = track_latency ? rr.lat_mean_us : rr.iops;
  rr.randseed = m.workload.seed;
  return rr;
}

bool stopped(const WorkloadContext& c) { return (c.stop && c.stop->load()) || (c.watchdog && c.watchdog->abandoned); }

void finish(WorkloadRecord& rec, Result<Measurement> m) {
  if (!m) {
    rec.error = m.error().message();
    return;
  }
  rec.result = std::move(*m);
  rec.workload = rec.result.workload;
  rec.ran = true;
  rec.little = little_check(rec.result);
}

namespace {

// Cache warmup: 1 s intervals until the last `window` intervals are steady by the slope criterion.
WarmupRecord warmup(const WorkloadContext& c, Workload w) {
  const suites::WarmupSpec& spec = c.suite.warmup;
  WarmupRecord rec;
  w.runtime_s = spec.max_s;
  w.ramp_s = 0;
  w.interval_s = spec.interval_s;
  SteadyCriteria crit;
  crit.window_rounds = spec.window;
  crit.max_slope_pct = spec.max_slope_pct;
  crit.check_excursion = false;
  bool settled = false;
  std::vector<double> iops;
  auto until = [&](const IntervalSample& s) {
    if (s.dur_s < 0.9 * spec.interval_s) return false;
    iops.push_back(s.total_iops());
    if (iops.size() < spec.window) return false;
    settled = assess_window(std::span(iops).last(spec.window), crit).steady;
    return settled;
  };
  auto m = run_step(c, w, Phase::warmup, fmt::format("warming caches: {} until IOPS are steady (at most {})", describe(w), format_duration(spec.max_s)), until);
  rec.performed = true;
  rec.settled = settled;
  rec.iops = iops;
  if (m) rec.elapsed_s = m->elapsed_s;
  return rec;
}

// Workload-dependent preconditioning: rounds of the stimulus until steady state (SNIA PTS 3.3).
// The last window_rounds rounds are kept: when the rounds end, `window` (if given) gets the
// measurement window joined, i.e. the rounds that met the criteria, or, when steady state was not
// attained, the last window examined (PTS: the verdict then says so). False when the workload ends
// here (stopped, a step failed, or I/O errors, already recorded).
bool steady_state_rounds(const WorkloadContext& c, const Workload& w, WorkloadRecord& rec, Measurement* window) {
  const auto& ss = c.suite.steady_state;
  rec.steady_required = ss.required;
  rec.steady_criteria = ss.criteria;
  Workload round = w;
  round.runtime_s = c.duration_s ? std::min(ss.round_s, *c.duration_s) : ss.round_s;
  std::vector<double> tracked;
  RoundWindow kept(ss.criteria.window_rounds);
  for (size_t r = 0; r < ss.criteria.max_rounds && !stopped(c); ++r) {
    round.ramp_s = r == 0 ? w.ramp_s : 0;
    auto m = run_step(c, round, Phase::steady_state, fmt::format("round {} of at most {}: {}", r + 1, ss.criteria.max_rounds, describe(round)));
    if (!m) {
      rec.error = m.error().message();
      return false;
    }
    const RoundRecord rr = round_record(*m, c.test.track_latency);
    rec.rounds.push_back(rr);
    tracked.push_back(rr.tracked);
    if (m->io_errors) {
      finish(rec, std::move(m));
      return false;
    }
    kept.push(std::move(*m));
    rec.steady_state = detect_steady_state(tracked, ss.criteria);
    if (rec.steady_state->attained) break;
  }
  if (stopped(c)) return false;
  if (window) {
    // The window always ends with the last round run: the first steady window ends the rounds, and
    // without one the detector's last window is the last window_rounds rounds.
    *window = kept.merged_last(rec.steady_state && rec.steady_state->window ? rec.steady_state->window->rounds : kept.size());
    rec.result_is_window = true;
  }
  return true;
}

}  // namespace

Workload resolve_workload(const Workload& base, Region region, const suites::TestSpec& test, uint64_t rate_cap_iops,
                          std::optional<double> duration_s, const FastPath* fast_path, const TargetInfo* info) {
  Workload w = fast_path && info ? apply_fast_path(base, *fast_path, *info) : base;
  w.offset_bytes = region.offset_bytes;
  w.size_bytes = region.size_bytes;
  if (test.passes > 0) {
    // A full pass is as long as the region is big: bytes end it, not time (--duration included).
    w.io_limit_bytes = static_cast<uint64_t>(test.passes * static_cast<double>(region.size_bytes));
    w.runtime_s = 30 * 86400.0;
  } else if (duration_s) {
    w.runtime_s = *duration_s;
  }
  if (rate_cap_iops) cap_total_iops(w, rate_cap_iops);
  return w;
}

std::string io_path(const TargetInfo& info, const Workload& w) {
  return w.engine == BackendKind::io_uring_cmd && !info.passthrough_path.empty() ? info.passthrough_path : info.path;
}

Workload resolve_workload(const WorkloadContext& c, const Workload& base) {
  return resolve_workload(base, c.region, c.test, c.rate_cap_iops, c.duration_s, c.fast_path, &c.target.info());
}

namespace {

// One workload on diskvet's engine: the executor of its phases (phase_sequence.hpp), recording each
// in the workload's record.
class EngineWorkload final : public WorkloadPhaseExecutor {
 public:
  EngineWorkload(const WorkloadContext& c, const Workload& w, WorkloadRecord& rec) : c_(c), w_(w), rec_(rec) {}

  bool stopped() const override { return runner::stopped(c_); }

  void warm_up() override { rec_.warmup = warmup(c_, w_); }

  bool sweep_rounds() override {
    Workload track = w_;
    track.iodepth = c_.test.sweep->steps.back().iodepth;
    track.numjobs = c_.test.sweep->steps.back().numjobs;
    if (c_.rate_cap_iops) cap_total_iops(track, c_.rate_cap_iops);
    rec_.rounds_workload = describe(track);
    return steady_state_rounds(c_, track, rec_, nullptr);
  }

  // The max-iops sweep: outstanding I/O grows step by step until IOPS stop rising (the knee).
  void sweep() override {
    std::vector<Measurement> kept;
    for (const auto& step : c_.test.sweep->steps) {
      if (stopped()) break;
      Workload s = w_;
      s.iodepth = step.iodepth;
      s.numjobs = step.numjobs;
      if (c_.rate_cap_iops) cap_total_iops(s, c_.rate_cap_iops);
      auto m = run_step(c_, s, Phase::measure,
                        fmt::format("sweep step {} of at most {}: {}", rec_.sweep.size() + 1, c_.test.sweep->steps.size(), describe(s)));
      if (!m) {
        rec_.error = m.error().message();
        break;
      }
      SweepPoint p;
      p.iodepth = step.iodepth;
      p.numjobs = step.numjobs;
      p.outstanding = step.iodepth * step.numjobs;
      p.iops = m->total_iops();
      p.lat_mean_us = runner::measure(*m, MetricScope::total, MetricKind::lat_mean_us).value_or(0);
      p.lat_p99_us = runner::measure(*m, MetricScope::total, MetricKind::lat_p99_us).value_or(0);
      rec_.sweep.push_back(p);
      kept.push_back(std::move(*m));
      if (kept.back().io_errors || kept.back().interrupted) break;
      if (sweep_should_stop(rec_.sweep, c_.test.sweep->min_gain_pct)) break;
    }
    if (kept.empty()) return;
    rec_.knee = knee_index(rec_.sweep);
    const uint64_t sweep_errors = std::ranges::max(kept, {}, &Measurement::io_errors).io_errors;
    const bool sweep_interrupted = kept.back().interrupted;
    finish(rec_, std::move(kept[*rec_.knee]));
    // Errors anywhere in the sweep count, not only at the knee.
    rec_.result.io_errors = std::max(rec_.result.io_errors, sweep_errors);
    rec_.result.interrupted = rec_.result.interrupted || sweep_interrupted;
  }

  // SNIA PTS reports the measurement window itself: the verdicts read its rounds, averaged.
  void steady_rounds() override {
    Measurement window;
    if (steady_state_rounds(c_, w_, rec_, &window)) finish(rec_, std::move(window));
  }

  void measure() override {
    finish(rec_, run_step(c_, w_, Phase::measure, fmt::format("measuring {} for {}", describe(w_), format_duration(w_.runtime_s))));
  }

 private:
  const WorkloadContext& c_;
  const Workload w_;
  WorkloadRecord& rec_;
};

}  // namespace

WorkloadRecord run_test_workload(const WorkloadContext& c) {
  WorkloadRecord rec;
  const Workload w = resolve_workload(c, c.test.workloads.at(c.index));
  rec.workload = w;
  rec.target_path = io_path(c.target.info(), w);
  EngineWorkload x(c, w, rec);
  run_workload_phases(c.suite, c.test, w, x);
  return rec;
}

}  // namespace diskvet::runner
