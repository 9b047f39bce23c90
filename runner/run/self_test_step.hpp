// The drive's own self-tests as a run step (issue 26): one kind of test on every device of the plan at
// once (an extended test takes hours; in turn, a shelf would take days), with progress events, and
// aborted when the run is interrupted. Each outcome is judged in the drive's words.
#pragma once

#include <optional>
#include <vector>

#include "devices/self_test.hpp"
#include "runner/analysis/verdict.hpp"
#include "runner/run/run_events.hpp"
#include "runner/run/run_plan.hpp"

namespace diskvet::runner {

// Runs `type` on each device of the plan whose `run_on` is true, in parallel; `when` is "before" or
// "after" (the events and words say it). A device without a self-test backend (hooks.self_test unset
// or returning nullptr) is not_supported.
std::vector<std::optional<devices::SelfTestOutcome>> run_self_tests(RunPlan& plan, devices::SelfTestType type, const char* when,
                                                                   const std::vector<bool>& run_on, const RunHooks& hooks, RunEvents& events);

// passed: PASS; failed, aborted, timed out: FAIL with the drive's words; interrupted or not run
// (error): ERROR. Not supported: nullopt — stated in the report and never PASS by itself, and it
// does not judge the device either.
std::optional<Rollup> self_test_rollup(const devices::SelfTestOutcome& o, const char* when);

}  // namespace diskvet::runner
