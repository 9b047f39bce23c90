// The one order of a suite's phases (runner/run/phase_sequence.hpp), on an executor that records
// what it is asked to do: which phases run, in what order, when the run stops, and what a missing
// phase leaves the tests to know. Both real executors (the device run, the multi-host controller)
// are tested through their own suites; this is the order they share.
#include "runner/run/phase_sequence.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

using namespace diskvet;
using namespace diskvet::runner;

namespace {

class RecordingExecutor final : public PhaseExecutor {
 public:
  std::vector<std::string> calls;
  std::set<SuitePhase> unable;  // phases it cannot do
  std::string stop_after;       // a call after which stopped() says yes
  std::string purge_error;      // purge() fails with this
  PreconditionOutcome pre{true, true, "wrote 0.4 of 1"};
  UnwrittenOutcome probe;  // what the first probe finds
  UnwrittenOutcome after;  // what the probe after preconditioning finds
  PhaseFindings findings;

  bool stopped() const override { return stopped_; }
  std::string cannot(SuitePhase p) const override { return unable.count(p) ? "cannot here" : ""; }
  void skipped(SuitePhase p, const std::string& why) override { record("skipped " + std::string(to_string(p)) + ": " + why); }
  void health_before() override { record("health_before"); }
  void probe_addresses() override { record("address_probe"); }
  std::string purge() override {
    record("purge");
    return purge_error;
  }
  PreconditionOutcome precondition(const std::string& why) override {
    record("precondition: " + why);
    return pre;
  }
  std::string precondition_not_done() const override { return "never preconditioned"; }
  UnwrittenOutcome probe_unwritten() override {
    record("unwritten_probe");
    return probe;
  }
  UnwrittenOutcome unwritten_after(const PreconditionOutcome&, const UnwrittenOutcome&) override {
    record("unwritten_after");
    return after;
  }
  void tests_starting(const PhaseFindings& f) override {
    findings = f;
    record("tests_starting");
  }
  void run_test(const suites::TestSpec& t) override { record("test " + t.id); }
  void health_after() override { record("health_after"); }

 private:
  void record(const std::string& what) {
    calls.push_back(what);
    if (what == stop_after) stopped_ = true;
  }
  bool stopped_ = false;
};

suites::TestSpec test_of(const std::string& id, Pattern rw) {
  suites::TestSpec t;
  t.id = id;
  Workload w;
  w.rw = rw;
  t.workloads.push_back(w);
  return t;
}

// Every phase asked for: self-tests, the address probe, purge, required preconditioning, the probe.
suites::Suite full_suite() {
  suites::Suite s;
  s.self_test.before = devices::SelfTestType::short_test;
  s.address_probe.enabled = true;
  s.purge = true;
  s.precondition.enabled = true;
  s.precondition.required = true;
  s.probe.enabled = true;
  s.probe.on_unwritten = suites::OnUnwritten::precondition;
  s.tests = {test_of("latency-qd1", Pattern::randread), test_of("max-iops", Pattern::randread)};
  return s;
}

const std::string kSuiteReason = "precondition: the suite preconditions (SNIA PTS workload-independent)";

TEST(PhaseSequence, RunsEveryPhaseTheSuiteAsksForInSniaOrder) {
  RecordingExecutor x;
  const PhaseSequenceEnd end = run_phases(full_suite(), x);
  EXPECT_EQ(x.calls, (std::vector<std::string>{"health_before", "address_probe", "purge", kSuiteReason, "unwritten_probe", "tests_starting",
                                               "test latency-qd1", "test max-iops", "health_after"}));
  EXPECT_TRUE(end.stopped.empty());
  EXPECT_TRUE(x.findings.precondition_missing.empty());
  EXPECT_TRUE(x.findings.region_unwritten.empty());
}

TEST(PhaseSequence, APhaseTheExecutorCannotDoIsNamedBeforeAnyRunsAndNeverRun) {
  RecordingExecutor x;
  x.unable = {SuitePhase::self_test, SuitePhase::address_probe, SuitePhase::purge, SuitePhase::health_before};
  run_phases(full_suite(), x);
  EXPECT_EQ(x.calls, (std::vector<std::string>{"skipped self_test: cannot here", "skipped health_before: cannot here",
                                               "skipped address_probe: cannot here", "skipped purge: cannot here", kSuiteReason,
                                               "unwritten_probe", "tests_starting", "test latency-qd1", "test max-iops"}))
      << "health after is read only where health before could be";
}

TEST(PhaseSequence, APhaseTheSuiteDoesNotAskForIsNeitherRunNorNamed) {
  suites::Suite s;
  s.probe.enabled = true;  // asked, but no test reads: nothing to probe for
  s.tests = {test_of("write", Pattern::randwrite)};
  RecordingExecutor x;
  x.unable = {SuitePhase::address_probe, SuitePhase::purge, SuitePhase::unwritten_probe};
  run_phases(s, x);
  EXPECT_EQ(x.calls, (std::vector<std::string>{"health_before", "tests_starting", "test write", "health_after"}));
}

TEST(PhaseSequence, APurgeThatDidNotCompleteEndsTheSequenceBeforeAnyWriteOrTest) {
  RecordingExecutor x;
  x.purge_error = "sanitize did not complete";
  const PhaseSequenceEnd end = run_phases(full_suite(), x);
  EXPECT_EQ(end.stopped, "sanitize did not complete");
  EXPECT_EQ(x.calls, (std::vector<std::string>{"health_before", "address_probe", "purge"}));
}

TEST(PhaseSequence, AnInterruptSkipsWhatIsLeftButStillReadsHealthAfter) {
  RecordingExecutor x;
  x.stop_after = "address_probe";
  run_phases(full_suite(), x);
  EXPECT_EQ(x.calls, (std::vector<std::string>{"health_before", "address_probe", "tests_starting", "health_after"}));
  EXPECT_EQ(x.findings.precondition_missing, "never preconditioned") << "required preconditioning that never ran is missing";
}

TEST(PhaseSequence, RequiredPreconditioningThatDidNotCompleteIsWhatTheTestsAreTold) {
  RecordingExecutor x;
  x.pre = PreconditionOutcome{true, false, "wrote 0.4 of 1"};
  run_phases(full_suite(), x);
  EXPECT_EQ(x.findings.precondition_missing, "wrote 0.4 of 1");

  suites::Suite optional = full_suite();
  optional.precondition.required = false;
  RecordingExecutor y;
  y.pre = x.pre;
  run_phases(optional, y);
  EXPECT_TRUE(y.findings.precondition_missing.empty()) << "preconditioning the suite does not require is never missing";
}

TEST(PhaseSequence, SpaceFoundUnwrittenIsPreconditionedOnceThenProbedAgain) {
  suites::Suite s = full_suite();
  s.precondition.enabled = false;  // only the probe asks for it
  RecordingExecutor x;
  x.probe = UnwrittenOutcome{true, true, "3 of 64 read zeros"};
  x.after = UnwrittenOutcome{};
  run_phases(s, x);
  EXPECT_EQ(x.calls, (std::vector<std::string>{"health_before", "address_probe", "purge", "unwritten_probe",
                                               "precondition: the probe found unwritten space", "unwritten_after", "tests_starting",
                                               "test latency-qd1", "test max-iops", "health_after"}));
  EXPECT_TRUE(x.findings.region_unwritten.empty()) << "written after preconditioning";

  RecordingExecutor still;
  still.probe = x.probe;
  still.after = UnwrittenOutcome{true, true, "1 of 64 read zeros"};
  run_phases(s, still);
  EXPECT_EQ(still.findings.region_unwritten, "1 of 64 read zeros") << "the probe after, not the preconditioning, decides";
}

TEST(PhaseSequence, SpaceNobodyCouldProbeIsNotTrustedAndNotWrittenBlindly) {
  suites::Suite s = full_suite();
  s.precondition.enabled = false;
  RecordingExecutor x;
  x.probe = UnwrittenOutcome{true, false, "the probe could not run"};
  run_phases(s, x);
  EXPECT_EQ(std::count(x.calls.begin(), x.calls.end(), "precondition: the probe found unwritten space"), 0);
  EXPECT_EQ(x.findings.region_unwritten, "the probe could not run");
}

TEST(PhaseSequence, AlreadyPreconditionedSpaceIsNotPreconditionedAgainForTheProbe) {
  RecordingExecutor x;
  x.probe = UnwrittenOutcome{true, true, "3 of 64 read zeros"};
  run_phases(full_suite(), x);
  EXPECT_EQ(std::count(x.calls.begin(), x.calls.end(), kSuiteReason), 1);
  EXPECT_EQ(std::count(x.calls.begin(), x.calls.end(), "precondition: the probe found unwritten space"), 0);
  EXPECT_EQ(x.findings.region_unwritten, "3 of 64 read zeros");
}

TEST(PhaseSequence, AnExecutorThatCannotWriteIsNeverAskedToPreconditionForTheProbe) {
  suites::Suite s = full_suite();
  s.precondition.enabled = false;
  RecordingExecutor x;
  x.unable = {SuitePhase::precondition};
  x.probe = UnwrittenOutcome{true, true, "3 of 64 read zeros"};
  run_phases(s, x);
  EXPECT_EQ(std::count(x.calls.begin(), x.calls.end(), "precondition: the probe found unwritten space"), 0);
  EXPECT_EQ(x.findings.region_unwritten, "3 of 64 read zeros");
}

TEST(PhaseSequence, TheTestsStopWhereTheRunStops) {
  RecordingExecutor x;
  x.stop_after = "test latency-qd1";
  run_phases(full_suite(), x);
  EXPECT_EQ(x.calls.back(), "health_after");
  EXPECT_EQ(std::count(x.calls.begin(), x.calls.end(), "test max-iops"), 0);
}

class RecordingWorkload final : public WorkloadPhaseExecutor {
 public:
  std::vector<std::string> calls;
  bool rounds_go_on = true;
  bool stop_after_warmup = false;

  bool stopped() const override { return stopped_; }
  void warm_up() override {
    calls.push_back("warm_up");
    stopped_ = stop_after_warmup;
  }
  bool sweep_rounds() override {
    calls.push_back("sweep_rounds");
    return rounds_go_on;
  }
  void sweep() override { calls.push_back("sweep"); }
  void steady_rounds() override { calls.push_back("steady_rounds"); }
  void measure() override { calls.push_back("measure"); }

 private:
  bool stopped_ = false;
};

suites::TestSpec sweep_test() {
  suites::TestSpec t = test_of("max-iops", Pattern::randread);
  t.sweep = suites::SweepSpec{};
  t.sweep->steps = {{1, 1}, {32, 1}};
  return t;
}

std::vector<std::string> workload_calls(const suites::Suite& s, const suites::TestSpec& t, RecordingWorkload x = {}) {
  run_workload_phases(s, t, t.workloads.front(), x);
  return x.calls;
}

TEST(WorkloadPhases, ReadsWarmUpFirstWritesNever) {
  suites::Suite s;
  s.warmup.enabled = true;
  EXPECT_EQ(workload_calls(s, test_of("read", Pattern::randread)), (std::vector<std::string>{"warm_up", "measure"}));
  EXPECT_EQ(workload_calls(s, test_of("mixed", Pattern::randrw)), (std::vector<std::string>{"measure"}))
      << "a workload that writes is not warmed";
  s.warmup.enabled = false;
  EXPECT_EQ(workload_calls(s, test_of("read", Pattern::randread)), (std::vector<std::string>{"measure"}));
}

TEST(WorkloadPhases, SteadyStateMakesRoundsTheMeasurement) {
  suites::Suite s;
  s.steady_state.enabled = true;
  EXPECT_EQ(workload_calls(s, test_of("write", Pattern::randwrite)), (std::vector<std::string>{"steady_rounds"}));
}

TEST(WorkloadPhases, ASweepRunsAfterItsRoundsAndNotWhenTheyEndTheWorkload) {
  suites::Suite s;
  s.warmup.enabled = true;
  EXPECT_EQ(workload_calls(s, sweep_test()), (std::vector<std::string>{"warm_up", "sweep"})) << "no rounds without steady state";
  s.steady_state.enabled = true;
  EXPECT_EQ(workload_calls(s, sweep_test()), (std::vector<std::string>{"warm_up", "sweep_rounds", "sweep"}));
  RecordingWorkload failing;
  failing.rounds_go_on = false;
  EXPECT_EQ(workload_calls(s, sweep_test(), failing), (std::vector<std::string>{"warm_up", "sweep_rounds"}));
}

TEST(WorkloadPhases, AnInterruptDuringWarmupStartsNoRounds) {
  suites::Suite s;
  s.warmup.enabled = true;
  s.steady_state.enabled = true;
  RecordingWorkload x;
  x.stop_after_warmup = true;
  EXPECT_EQ(workload_calls(s, sweep_test(), x), (std::vector<std::string>{"warm_up", "sweep"}))
      << "the sweep itself stops at once and says so";
}

}  // namespace
