// One workload of one test on one device: cache warmup (read workloads), then a sweep to the knee,
// steady-state rounds, or a single measurement window, as the suite says.
#pragma once

#include <atomic>
#include <optional>
#include <string>

#include "runner/precondition.hpp"
#include "runner/run_events.hpp"
#include "runner/run_result.hpp"
#include "runner/target.hpp"
#include "runner/verify_state.hpp"
#include "suites/suite.hpp"

namespace diskvet::runner {

struct WorkloadContext {
  const Target& target;
  Region region;
  const suites::Suite& suite;
  const suites::TestSpec& test;
  size_t index = 0;                    // into test.workloads
  uint64_t rate_cap_iops = 0;          // device total; split over the jobs
  std::optional<double> duration_s;    // --duration: overrides runtimes and caps rounds
  RunEvents& events;
  std::string device;
  const std::atomic<bool>* stop = nullptr;
  VerifyState* verify = nullptr;       // the device's block generations, for verifying workloads
  WatchdogRecord* watchdog = nullptr;  // every step's stalls, whatever the step (sweep, rounds, warmup)
};

// The workload of the test as it will run on this device (region, rate cap, duration override).
Workload resolve_workload(const WorkloadContext& c, const Workload& base);

WorkloadRecord run_test_workload(const WorkloadContext& c);

}  // namespace diskvet::runner
