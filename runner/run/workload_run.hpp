// One workload of one test on one device: cache warmup (read workloads), then a sweep to the knee,
// steady-state rounds, or a single measurement window, as the suite says.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>

#include "runner/io/clock.hpp"
#include "runner/io/seed.hpp"
#include "runner/io/target.hpp"
#include "runner/run/fast_path.hpp"
#include "runner/run/precondition.hpp"
#include "runner/run/run_events.hpp"
#include "runner/run/run_result.hpp"
#include "runner/verify/verify_state.hpp"
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
  SeedSequence* seeds = nullptr;       // the device's: each step takes the next (unset: the workload's own)
  uint64_t* bytes_sent = nullptr;      // the device's count of every write issued to it, whatever the step
  const FastPath* fast_path = nullptr;  // the device's (unset: every workload as the suite wrote it)
  // Of *bytes_sent, what went through NVMe passthrough, which the kernel's write counters never see.
  uint64_t* passthrough_bytes_sent = nullptr;
  Clock* sampler_clock = nullptr;  // the engine sampler's (RunHooks::sampler_clock)
};

// The workload of the test as it will run on this device (region, rate cap, duration override, the
// device's fast path when given); the plan check (plan_check.hpp) validates the same value before
// the first I/O.
Workload resolve_workload(const Workload& base, Region region, const suites::TestSpec& test, uint64_t rate_cap_iops,
                          std::optional<double> duration_s, const FastPath* fast_path = nullptr, const TargetInfo* info = nullptr);
Workload resolve_workload(const WorkloadContext& c, const Workload& base);

WorkloadRecord run_test_workload(const WorkloadContext& c);

// The steps the workload runners share (runner/run/matrix_run.cpp too):
// one engine run of the test's workload c.index, watched, its stalls recorded;
Result<Measurement> run_step(const WorkloadContext& c, const Workload& w, Phase phase, const std::string& detail,
                             std::function<bool(const IntervalSample&)> until = {});
// The node a workload's I/O goes to, as its fio line names it: the generic char device for NVMe
// passthrough, else the target's path.
std::string io_path(const TargetInfo& info, const Workload& w);
// "randrw 4.0 KiB QD32 x4 70% read";
std::string describe(const Workload& w);
// stopped by the caller, or the watchdog gave up on an I/O of this device;
bool stopped(const WorkloadContext& c);
// the record takes the measurement the verdicts read (or the error that stopped it).
void finish(WorkloadRecord& rec, Result<Measurement> m);

// One steady-state round of a measurement: its IOPS, mean latency and seed; what it tracks is its
// mean latency for a latency test, else its IOPS.
RoundRecord round_record(const Measurement& m, bool track_latency);

}  // namespace diskvet::runner
