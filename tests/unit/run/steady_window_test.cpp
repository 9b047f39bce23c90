// SNIA PTS on the null engine: the verdicts read the steady-state measurement window itself, the
// max-IOPS sweep runs once the device is in steady state, and the snia-iops matrix (PTS-E IOPS test)
// runs its cells in rounds and reports its table.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "runner/report/report_html.hpp"
#include "runner/report/report_json.hpp"
#include "runner/report/report_text.hpp"
#include "runner/run/suite_run.hpp"
#include "suites/suite.hpp"

using namespace diskvet;
using namespace diskvet::runner;

namespace {

class PhaseLog final : public RunEvents {
 public:
  void on_phase(const PhaseEvent& e) override { phases.push_back(e); }
  std::vector<PhaseEvent> phases;
};

RunResult run_null(const suites::Suite& suite, PhaseLog& log, uint32_t lbs = 512) {
  RunPlan plan;
  plan.suite = suite;
  plan.options.measurement_only = true;
  devices::Device dev;
  dev.path = "null";
  dev.size_bytes = 64u << 20;
  dev.logical_block_size = lbs;
  plan.devices.push_back(DevicePlan{dev, Target::null(64u << 20, lbs), std::nullopt, "", 0});
  return run_suite(plan, RunHooks{}, log);
}

suites::Suite parse(const char* text) {
  auto s = suites::parse_suite(text, "test.json");
  EXPECT_TRUE(s.ok()) << s.error().message();
  return s.ok() ? *s : suites::Suite{};
}

// Rounds of 0.1 s; a workload's own runtime (0.4 s) would be a window measured after them.
const char* kRounds = R"({
  "name": "rounds",
  "probe": {"enabled": false}, "precondition": {"enabled": false},
  "steady_state": {"enabled": true, "required": false, "round": "0.1s", "window_rounds": 5, "max_rounds": 7},
  "defaults": {"runtime": "0.4s", "ramp": "0s", "engine": "null", "interval": "0.05s"},
  "tests": [{"id": "t", "workloads": [{"rw": "randread", "iodepth": 4}]}]
})";

const char* kSweep = R"({
  "name": "sweep",
  "probe": {"enabled": false}, "precondition": {"enabled": false},
  "steady_state": {"enabled": true, "required": false, "round": "0.1s", "window_rounds": 5, "max_rounds": 5},
  "defaults": {"runtime": "0.1s", "ramp": "0s", "engine": "null", "interval": "0.05s"},
  "tests": [{"id": "max-iops", "sweep": {"min_gain_pct": 0, "steps": [{"iodepth": 1}, {"iodepth": 4}, {"iodepth": 8, "numjobs": 2}]},
             "workloads": [{"rw": "randwrite"}]}]
})";

}  // namespace

TEST(SteadyStateWindow, TheResultIsTheMeasurementWindowsRoundsAveragedAndNoNewWindow) {
  PhaseLog log;
  RunResult r = run_null(parse(kRounds), log);
  ASSERT_EQ(r.devices.size(), 1u);
  const WorkloadRecord& w = r.devices[0].tests.at(0).workloads.at(0);
  ASSERT_TRUE(w.ran) << w.error;
  ASSERT_TRUE(w.steady_state && w.steady_state->window);
  const WindowAssessment& win = *w.steady_state->window;
  EXPECT_EQ(win.rounds, 5u);
  EXPECT_EQ(win.first_round + win.rounds, w.rounds.size()) << "the window is the last rounds run";
  for (const auto& e : log.phases) EXPECT_NE(e.phase, Phase::measure) << "nothing measured after the rounds: " << e.detail;
  // Five rounds of at least 0.1 s each, not one 0.4 s window (no upper bound: a busy machine
  // stretches rounds, and the phase log above already shows nothing ran after them).
  EXPECT_GT(w.result.elapsed_s, 0.45);
  // The window's rounds joined: their I/Os over their time, so within the rounds' range whatever
  // each round's length (equal lengths give their plain average, which PTS reports).
  double lo = 1e300, hi = 0;
  for (size_t i = win.first_round; i < w.rounds.size(); ++i) lo = std::min(lo, w.rounds[i].iops), hi = std::max(hi, w.rounds[i].iops);
  EXPECT_GE(w.result.total_iops(), lo * (1 - 1e-6));
  EXPECT_LE(w.result.total_iops(), hi * (1 + 1e-6));
  EXPECT_TRUE(w.result_is_window);

  auto doc = report_json(r, probe_host());
  const auto& ss = doc.at("devices").as_array()[0].at("tests").as_array()[0].at("workloads").as_array()[0].at("steady_state");
  const auto& mw = ss.at("measurement_window");
  EXPECT_EQ(mw.at("last_round").to_number<double>(), static_cast<double>(w.rounds.size()));
  EXPECT_EQ(mw.at("rounds").to_number<double>(), 5);
  EXPECT_NEAR(mw.at("range_pct").to_number<double>(), win.excursion_pct, 1e-9);
  EXPECT_NEAR(mw.at("slope_pct").to_number<double>(), win.slope_change_pct, 1e-9);
  std::string text = render_report_text(doc);
  EXPECT_NE(text.find(fmt::format("measured: rounds {}-{} averaged", win.first_round + 1, w.rounds.size())), std::string::npos) << text;
}

TEST(SteadyStateWindow, TheMaxIopsSweepRunsOnceTheDeviceIsInSteadyState) {
  PhaseLog log;
  RunResult r = run_null(parse(kSweep), log);
  const WorkloadRecord& w = r.devices.at(0).tests.at(0).workloads.at(0);
  ASSERT_TRUE(w.ran) << w.error;
  EXPECT_GE(w.rounds.size(), 5u);
  EXPECT_GE(w.sweep.size(), 2u);
  // Every round before the first sweep point.
  size_t last_round = 0, first_sweep = log.phases.size();
  for (size_t i = 0; i < log.phases.size(); ++i) {
    if (log.phases[i].test_id != "max-iops") continue;
    if (log.phases[i].phase == Phase::steady_state) last_round = i;
    if (log.phases[i].phase == Phase::measure) first_sweep = std::min(first_sweep, i);
  }
  ASSERT_LT(first_sweep, log.phases.size());
  EXPECT_LT(last_round, first_sweep);
  // The rounds ran the sweep's heaviest point; the verdict reads the knee's sweep point.
  EXPECT_NE(w.rounds_workload.find("QD8 x2"), std::string::npos) << w.rounds_workload;
  ASSERT_TRUE(w.knee);
  EXPECT_EQ(w.workload.iodepth, w.sweep[*w.knee].iodepth);
  EXPECT_FALSE(w.result_is_window);
}

TEST(SniaIops, RunsEveryCellInRoundsTracksFourKRandomWriteAndReportsTheTable) {
  auto suite = suites::builtin_suite("snia-iops");
  ASSERT_TRUE(suite.ok()) << suite.error().message();
  suite->purge = false;
  suite->probe.enabled = false;
  suite->precondition.capacities = 0.1;
  suite->steady_state.round_s = 0.02;
  suite->steady_state.criteria.window_rounds = 2;
  suite->steady_state.criteria.max_rounds = 2;
  for (auto& w : suite->tests.at(0).workloads) w.engine = BackendKind::null, w.interval_s = 0.01, w.numjobs = 1;
  PhaseLog log;
  RunResult r = run_null(*suite, log, 4096);  // a 4Kn device
  ASSERT_EQ(r.devices.size(), 1u);
  const DeviceResult& d = r.devices[0];
  ASSERT_EQ(d.tests.size(), 1u);
  const TestRecord& t = d.tests[0];
  ASSERT_TRUE(t.matrix);
  ASSERT_EQ(t.workloads.size(), 56u);
  EXPECT_EQ(t.matrix->rounds_run, 2u);
  EXPECT_EQ(t.matrix->tracked_iops.size(), 2u);
  const WorkloadRecord& tracked = t.workloads[t.matrix->tracked];
  EXPECT_EQ(tracked.workload.rw, Pattern::randwrite);
  EXPECT_EQ(tracked.workload.bs_bytes, 4096u);
  EXPECT_EQ(tracked.rounds.size(), 2u);
  EXPECT_DOUBLE_EQ(t.matrix->tracked_iops[1], tracked.rounds[1].iops);
  size_t skipped = 0;
  uint64_t ios = 0;
  for (const auto& w : t.workloads) {
    if (w.workload.bs_bytes == 512) {
      ++skipped;
      EXPECT_FALSE(w.ran);
      EXPECT_NE(w.skipped.find("logical block size"), std::string::npos) << w.skipped;
      continue;
    }
    EXPECT_TRUE(w.ran) << w.error;
    EXPECT_EQ(w.rounds.size(), 2u);
    EXPECT_TRUE(w.result_is_window);
    ios += w.result.total_ios();
  }
  // A cell's 20 ms round may count no I/O when its job thread waits for a CPU that long (seen under
  // ASan on a busy machine): the cells together measured I/O, each in its own window.
  EXPECT_GT(ios, 0u);
  EXPECT_EQ(skipped, 7u);
  // Skipped cells are no error: measured only, the run ends 0 when steady state holds, 4 when not.
  EXPECT_NE(t.verdict.status, VerdictStatus::error);

  auto doc = report_json(r, probe_host());
  const auto& m = doc.at("devices").as_array()[0].at("tests").as_array()[0].at("matrix");
  EXPECT_EQ(m.at("cells").as_array().size(), 56u);
  EXPECT_EQ(m.at("rwmixread").as_array().size(), 7u);
  EXPECT_EQ(m.at("bs").as_array().size(), 8u);
  std::string text = render_report_text(doc);
  for (const char* want : {"100/0", "95/5", "65/35", "50/50", "35/65", "5/95", "0/100", "0.5 KiB", "1 MiB", "skipped: 512-byte blocks"})
    EXPECT_NE(text.find(want), std::string::npos) << want << "\n" << text;
  std::string html = render_report_html(doc, true);
  EXPECT_NE(html.find("IOPS by block size, one line per read/write mix"), std::string::npos);
  EXPECT_NE(html.find("<th>0/100</th>"), std::string::npos);
}
