// Running a plan build_plan made, for every command that runs one (`run`, `probe-capacity`): progress
// on stderr, the report sealed and committed, its text on stdout, fio's logs when asked.
#pragma once

#include <string>

#include "runner/plan/build_plan.hpp"

namespace diskvet::cli {

// Runs the plan to its end (or a signal), writes the report and returns the run's exit code.
int run_planned(runner::PlannedRun& run, bool quiet, const std::string& logs_dir);

// Plans and runs a built-in suite whose one step judges the device by itself (the capacity probe, the
// self-test): no performance limits, so the step's verdict is the device's, not "measurement only";
// `profile_reason` says so in the report. Signals are handled from before the plan.
int run_self_judging_step(runner::PlanRequest request, const std::string& profile_reason, bool quiet);

}  // namespace diskvet::cli
