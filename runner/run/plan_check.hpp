// The plan checked whole before the first I/O: every workload of the suite as it will run on each
// device (its region, rate cap and --duration applied) passes the same validate() each step calls
// when it starts, so a test that cannot run on a device refuses the run instead of ending it ERROR
// after earlier tests have written the device.
#pragma once

#include "common/error.hpp"
#include "runner/run/run_plan.hpp"

namespace diskvet::runner {

// Usage error (exit 2) naming the device, the test, the workload and the reason, or ok. Checks the
// preconditioning pass, each test's workloads, each sweep step and the steady-state rounds: block
// size against the device's logical block size, region and size, CPUs allowed, engine options,
// queue depths and jobs, durations.
Status check_plan_workloads(const RunPlan& plan);

}  // namespace diskvet::runner
