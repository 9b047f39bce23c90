// The one order of a suite's phases, whichever executor runs them (SNIA PTS 3: purge, workload-
// independent preconditioning, then the tests): health before, the address probe, purge,
// preconditioning, the unwritten-space probe (and the preconditioning it may ask for), the tests one
// by one, health after. Two executors do the phases: DeviceRun (device_run.cpp: diskvet's engine on
// one local device) and the multi-host controller (runner/hosts/hosts_run.cpp: fio's client/server
// across hosts). run_phases decides which phases run, in what order, when the run stops, and what a
// missing or failed phase means for the tests; the executors only do them and say what happened.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "suites/suite.hpp"

namespace diskvet::runner {

enum class SuitePhase { self_test, health_before, address_probe, purge, precondition, unwritten_probe, tests, health_after };
std::string_view to_string(SuitePhase p);

// What preconditioning did, as the sequence needs it.
struct PreconditionOutcome {
  bool performed = false;  // it ran (whatever it wrote)
  bool completed = false;  // it wrote all it was asked to
  std::string missing;     // not completed: the executor's words for what is missing
};

// What the unwritten-space probe found, as the sequence needs it. unwritten: reads there would
// measure unwritten or unprobed space (fail closed); probed: the probe ran and found space never
// written, which preconditioning can fix (space it could not look at is not written blindly);
// why: the executor's words for it.
struct UnwrittenOutcome {
  bool unwritten = false;
  bool probed = false;
  std::string why;
};

// What the phases before the tests leave the tests to know: why their reads or their numbers cannot
// be trusted (empty: nothing), each in the executor's words.
struct PhaseFindings {
  std::string precondition_missing;  // required preconditioning not done or not complete
  std::string region_unwritten;      // the tests would read space that was never written
};

// How the sequence ended.
struct PhaseSequenceEnd {
  std::string stopped;  // why it ended before its tests (a purge that did not complete), or empty
  PhaseFindings findings;
};

// An executor of the phases. Each phase method does the phase and records it in the executor's own
// result; the sequence calls a phase only when the suite asks for it and the executor can do it.
class PhaseExecutor {
 public:
  virtual ~PhaseExecutor() = default;

  // The run stops: no later phase or test starts (an interrupt, a device given up on, a lost host).
  virtual bool stopped() const = 0;
  // Why this executor cannot do a phase the suite asks for (empty: it can). A phase it cannot do is
  // given to skipped() before any phase runs, so the report says so even when the run stops early.
  virtual std::string cannot(SuitePhase phase) const = 0;
  virtual void skipped(SuitePhase phase, const std::string& why) = 0;

  // Health after is read only when health before could be (cannot(health_before) covers both).
  virtual void health_before() = 0;
  virtual void probe_addresses() = 0;
  // Empty: done (or nothing to do); else why the device is in no state to measure: the run stops.
  virtual std::string purge() = 0;
  // why: the reason it runs now (the suite asks, or the probe found unwritten space).
  virtual PreconditionOutcome precondition(const std::string& why) = 0;
  // Required preconditioning that never ran (the executor cannot, or the run stopped first): the
  // executor's words for what is missing, or empty when it has nothing to add.
  virtual std::string precondition_not_done() const = 0;
  virtual UnwrittenOutcome probe_unwritten() = 0;
  // After the preconditioning the probe asked for: is the space still unwritten?
  virtual UnwrittenOutcome unwritten_after(const PreconditionOutcome& pre, const UnwrittenOutcome& before) = 0;
  // Before the first test, once: what the tests are to know.
  virtual void tests_starting(const PhaseFindings& findings) = 0;
  virtual void run_test(const suites::TestSpec& test) = 0;
  virtual void health_after() = 0;
};

// An executor of one workload's phases within a test (a matrix's cells are rounds of their own).
class WorkloadPhaseExecutor {
 public:
  virtual ~WorkloadPhaseExecutor() = default;
  virtual bool stopped() const = 0;
  // Reads first warm the caches in front of the media until the IOPS stop rising.
  virtual void warm_up() = 0;
  // SNIA PTS measures a device in steady state: rounds of the sweep's heaviest step (the most
  // outstanding I/O) until they settle. False: the workload ends here (an error, I/O errors).
  virtual bool sweep_rounds() = 0;
  // The sweep's steps, outstanding I/O growing until the IOPS stop rising; one step stands for it.
  virtual void sweep() = 0;
  // Rounds until steady (SNIA PTS 3.3): they are the measurement.
  virtual void steady_rounds() = 0;
  // One measurement window.
  virtual void measure() = 0;
};

// One workload's phases in the one order: cache warmup (a workload that only reads, when the suite
// warms up), then a sweep (after its rounds, when the suite asks for steady state), steady-state
// rounds, or one measurement window.
void run_workload_phases(const suites::Suite& suite, const suites::TestSpec& test, const Workload& w, WorkloadPhaseExecutor& x);

// The phases the suite asks for, in order (self_test when it names a self-test before or after the
// run; unwritten_probe only when a test reads; health and tests always).
std::vector<SuitePhase> phases_asked(const suites::Suite& suite);

// Runs the suite's phases on the executor in the one order. An interrupt (stopped()) skips what is
// left of the preparation and the tests, never health after; a purge that did not complete ends the
// sequence there (the executor's purge() has read what it needs of the device).
PhaseSequenceEnd run_phases(const suites::Suite& suite, PhaseExecutor& x);

}  // namespace diskvet::runner
