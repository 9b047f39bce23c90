// Running a plan build_plan made, for every command that runs one (`run`, `probe-capacity`): progress
// on stderr, the report sealed and committed, its text on stdout, fio's logs when asked.
#pragma once

#include <string>

#include "runner/plan/build_plan.hpp"

namespace diskvet::cli {

// Runs the plan to its end (or a signal), writes the report and returns the run's exit code.
int run_planned(runner::PlannedRun& run, bool quiet, const std::string& logs_dir);

}  // namespace diskvet::cli
