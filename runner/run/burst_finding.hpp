// The burst-then-baseline step of one workload (runner/analysis/burst.hpp) over its ramp series and,
// when the result is that window, its measured window on one time axis from the workload's start.
// One place for the report (which shows it) and the verdicts (a step inside the measured window
// means the result mixes burst and baseline, so limits on it are not judged).
#pragma once

#include <optional>
#include <string>

#include "runner/analysis/burst.hpp"
#include "runner/run/run_result.hpp"

namespace diskvet::runner {

struct BurstFinding {
  std::optional<BurstStep> step;  // nullopt: no step in the series
  bool in_ramp = false;           // the step happened before the measured window began
  std::string series;             // "the ramp and the measured window", or "the ramp"
};

// nullopt when the workload did not run or kept no ramp series (a ramp shorter than 10 s).
std::optional<BurstFinding> find_burst(const WorkloadRecord& r);

}  // namespace diskvet::runner
