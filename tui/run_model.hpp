// Folds the runner's events into the model's run screen, and a finished run into its results.
#pragma once

#include <string>
#include <vector>

#include "runner/run/run_result.hpp"
#include "tui/event_queue.hpp"
#include "tui/model.hpp"

namespace diskvet::tui {

// Opens the run screen for these devices.
void begin_run(Model& m, const std::string& suite, const std::vector<std::string>& paths);
void apply_event(Model& m, const RunEvent& e);
// The results screen from the run's result (the same values the report was written from).
Results results_of(const runner::RunResult& r, std::string report_path, std::string report_error);
void finish_run(Model& m, Results results);

}  // namespace diskvet::tui
