// A workload's ramp series and the burst-then-baseline step found in it, as report JSON: the
// workload's "ramp" {bucket_s, intervals[]} and "burst" {found, levels, step_s, burst_s, summary}.
#pragma once

#include <boost/json.hpp>

#include "runner/run/run_result.hpp"

namespace diskvet::runner {

// Adds "ramp" and "burst" to a workload's object when its measurement kept a ramp series.
void add_ramp_and_burst(boost::json::object& workload, const WorkloadRecord& r);

}  // namespace diskvet::runner
