// Running a plan: per device health-before -> purge -> preconditioning -> probe -> tests (warmup,
// sweep or steady-state rounds, measurement) -> health-after -> verdicts; then outliers and the
// overall verdict. Sequential by default (per-device numbers untainted by a shared host).
#pragma once

#include <string>

#include "runner/run/precondition.hpp"
#include "runner/run/run_events.hpp"
#include "runner/run/run_plan.hpp"
#include "runner/run/run_result.hpp"

namespace diskvet::runner {

// Never throws and never prints; everything it learns is in the result and the events.
RunResult run_suite(RunPlan& plan, const RunHooks& hooks, RunEvents& events);

// One device of the plan (run_suite calls it, in turn or in parallel).
// self_test_before: the device's self-test run before it (run_suite runs them on every device at once),
// judged with its tests.
DeviceResult run_device(DevicePlan& d, const suites::Suite& suite, const RunOptions& options, const RunHooks& hooks, RunEvents& events,
                        const std::optional<devices::SelfTestOutcome>& self_test_before = std::nullopt);

// The part of a device a suite tests: from 0, the suite's region or the whole device, whole MiBs.
Region tested_region(uint64_t device_bytes, const suites::Suite& suite);

// Sizes every device's verification state within the run's budget (RunOptions::verify_memory_bytes,
// split evenly over the devices when they run in parallel) before anything is written; an input
// error naming the device and the budget when one cannot fit.
Status plan_verify_memory(RunPlan& plan);

// "2026-12-02T16:05:23Z"
std::string utc_now_iso8601();

}  // namespace diskvet::runner
