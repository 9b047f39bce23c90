// The one order of a suite's phases (phase_sequence.hpp).
#include "runner/run/phase_sequence.hpp"

#include <algorithm>

namespace diskvet::runner {

std::string_view to_string(SuitePhase p) {
  switch (p) {
    case SuitePhase::self_test: return "self_test";
    case SuitePhase::health_before: return "health_before";
    case SuitePhase::address_probe: return "address_probe";
    case SuitePhase::purge: return "purge";
    case SuitePhase::precondition: return "precondition";
    case SuitePhase::unwritten_probe: return "unwritten_probe";
    case SuitePhase::tests: return "tests";
    case SuitePhase::health_after: return "health_after";
  }
  return "unknown";
}

std::vector<SuitePhase> phases_asked(const suites::Suite& suite) {
  const bool reads_any = std::ranges::any_of(suite.tests, [](const suites::TestSpec& t) {
    return std::ranges::any_of(t.workloads, [](const Workload& w) { return reads(w.rw); });
  });
  std::vector<SuitePhase> asked;
  // Self-tests run on every device of a local run at once, around the devices' sequences
  // (suite_run.cpp), so here they are only asked: an executor that cannot run them says so.
  if (suite.self_test.before != devices::SelfTestType::none || suite.self_test.after != devices::SelfTestType::none)
    asked.push_back(SuitePhase::self_test);
  asked.push_back(SuitePhase::health_before);
  if (suite.address_probe.enabled) asked.push_back(SuitePhase::address_probe);
  if (suite.purge) asked.push_back(SuitePhase::purge);
  if (suite.precondition.enabled) asked.push_back(SuitePhase::precondition);
  if (suite.probe.enabled && reads_any) asked.push_back(SuitePhase::unwritten_probe);
  asked.push_back(SuitePhase::tests);
  asked.push_back(SuitePhase::health_after);
  return asked;
}

PhaseSequenceEnd run_phases(const suites::Suite& suite, PhaseExecutor& x) {
  const std::vector<SuitePhase> asked = phases_asked(suite);
  for (SuitePhase p : asked)
    if (const std::string why = x.cannot(p); !why.empty()) x.skipped(p, why);
  auto can = [&](SuitePhase p) { return x.cannot(p).empty(); };
  // Asked by the suite, possible for the executor, and the run not stopped.
  auto runs = [&](SuitePhase p) { return std::ranges::find(asked, p) != asked.end() && can(p) && !x.stopped(); };

  PhaseSequenceEnd end;
  const bool health = can(SuitePhase::health_before);
  if (health) x.health_before();
  // Every address is real storage before anything is measured on it (the address-integrity probe).
  if (runs(SuitePhase::address_probe)) x.probe_addresses();
  // SNIA PTS 3.1: purge, then 3.2: workload-independent preconditioning.
  if (runs(SuitePhase::purge))
    if (std::string why = x.purge(); !why.empty()) {
      end.stopped = std::move(why);
      return end;
    }
  PreconditionOutcome pre;
  if (runs(SuitePhase::precondition)) pre = x.precondition("the suite preconditions (SNIA PTS workload-independent)");
  if (runs(SuitePhase::unwritten_probe)) {
    UnwrittenOutcome u = x.probe_unwritten();
    // Space the probe found unwritten is written first when the suite says so (on_unwritten:
    // precondition) and nothing preconditioned it yet; the executor then says whether it still is.
    if (u.unwritten && u.probed && suite.probe.on_unwritten == suites::OnUnwritten::precondition && !pre.performed &&
        can(SuitePhase::precondition) && !x.stopped()) {
      pre = x.precondition("the probe found unwritten space");
      u = x.unwritten_after(pre, u);
    }
    if (u.unwritten) end.findings.region_unwritten = u.why;
  }
  if (suite.precondition.enabled && suite.precondition.required && !pre.completed)
    end.findings.precondition_missing = pre.performed ? pre.missing : x.precondition_not_done();

  x.tests_starting(end.findings);
  for (const suites::TestSpec& test : suite.tests) {
    if (x.stopped()) break;
    x.run_test(test);
  }
  if (health) x.health_after();
  return end;
}

void run_workload_phases(const suites::Suite& suite, const suites::TestSpec& test, const Workload& w, WorkloadPhaseExecutor& x) {
  if (suite.warmup.enabled && !writes(w.rw) && !x.stopped()) x.warm_up();
  if (test.sweep) {
    if (suite.steady_state.enabled && !x.stopped() && !x.sweep_rounds()) return;
    x.sweep();
  } else if (suite.steady_state.enabled) {
    x.steady_rounds();
  } else {
    x.measure();
  }
}

}  // namespace diskvet::runner
