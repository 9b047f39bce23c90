// The engine: runs one Workload on one Target with numjobs threads and returns a Measurement.
// It knows nothing of suites, devices or front ends; observers see interval samples as they come.
#pragma once

#include <atomic>
#include <vector>

#include "common/error.hpp"
#include "runner/io/clock.hpp"
#include "runner/io/interval_latency.hpp"
#include "runner/io/iolog.hpp"
#include "runner/io/job_loop.hpp"
#include "runner/io/measurement.hpp"
#include "runner/io/target.hpp"
#include "runner/io/workload.hpp"

namespace diskvet::runner {

// Sees the run as it happens; called on the engine's sampler thread, never on a job thread, so a
// slow observer delays only the next sample, never an I/O.
class EngineObserver {
 public:
  virtual ~EngineObserver() = default;
  // `progress` is 0..1 of the planned run (time, or bytes for io-limited runs).
  virtual void on_interval(const IntervalSample& sample, double progress) = 0;
};

// Sees each interval's latency buckets per direction (fio's histogram log); called on the sampler
// thread right after the interval is measured, with the interval's own counts (not cumulative).
class IntervalLatencyObserver {
 public:
  virtual ~IntervalLatencyObserver() = default;
  virtual void on_interval_latency(const IntervalSample& sample, const IntervalLatencyTotals& latency) = 0;
};

struct RunControl {
  const std::atomic<bool>* stop = nullptr;  // set to end the run early (signals, aborts)
  EngineObserver* observer = nullptr;
  // Required for a verifying workload: the device's block generations, kept across workloads.
  VerifyState* verify = nullptr;
  // When set, every I/O each job issues is recorded and handed back here after the run
  // (`diskvet io --write_iolog`; runner/io/iolog.hpp).
  IoLog* iolog = nullptr;
  // The process's interrupt flag (SIGINT/SIGTERM), when the caller's `stop` is its own early-stop
  // rule: looked at as often as `stop`, and a run it ends is marked interrupted.
  const std::atomic<bool>* interrupt = nullptr;
  IntervalLatencyObserver* latency_observer = nullptr;
  // The sampler's and watchdog's clock (nullptr: the system's): tests give it synthetic time. The
  // jobs keep the monotonic clock; a test clock must run on it (an offset from it, not its own epoch).
  Clock* sampler_clock = nullptr;
};

// How often the engine's sampler looks at the stop flags and the I/Os in flight: a signal ends a
// run within this plus the time the I/Os already out take to complete (DESIGN.md: 100 ms).
inline constexpr uint64_t kEnginePollNs = 20'000'000;
// A sampler that wakes this much later than it slept to was not running (Pause): the watchdog makes
// no judgement on that look, and the I/Os out across it get a whole deadline from its end. Far above
// what a busy host delays a 20 ms sleep by, far below any io_timeout a drive is judged on.
inline constexpr uint64_t kSamplerPauseNs = 5'000'000'000;

// Splits a validated workload into per-job plans: random jobs share the region, sequential and
// verifying jobs get consecutive shares of it (job_share); an io limit is dealt out so the jobs'
// limits add up to it; psync runs at an effective depth of 1.
std::vector<JobPlan> plan_jobs(const Workload& w);

// Runs the workload. The Workload must have passed validate() against this target.
Result<Measurement> run_workload(const Workload& w, const Target& target, RunControl control = {});

// NVMe passthrough (engine io_uring_cmd) only on a target whose generic node is attached
// (Target::attach_passthrough), in commands the namespace takes (w.bs_bytes), and only once one read
// command came back (for a polled workload, hipri, a second through a polled ring): a kernel or
// device that cannot do it is refused before any write. run_workload checks it; the plan check and
// the suites' fast path (runner/run/fast_path.hpp) ask before.
Status check_passthrough(const Workload& w, const Target& target);

}  // namespace diskvet::runner
