// What a suite run found: per device the phases (purge, preconditioning, probe), per test the
// workloads with their measurements, rounds and sweep curve, and the verdicts. Plain values; the
// report writer turns them into JSON and never runs anything.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "devices/device.hpp"
#include "devices/nvme_error_log.hpp"
#include "devices/self_test.hpp"
#include "devices/smart_counters.hpp"
#include "devices/smart_logs.hpp"
#include "devices/write_accounting.hpp"
#include "runner/analysis/host_cpu.hpp"
#include "runner/analysis/knee.hpp"
#include "runner/analysis/steady_state.hpp"
#include "runner/analysis/throttle.hpp"
#include "runner/analysis/verdict.hpp"
#include "runner/io/measurement.hpp"
#include "runner/run/fast_path.hpp"
#include "runner/run/health_poller.hpp"
#include "runner/run/watchdog_findings.hpp"
#include "runner/verify/address_probe.hpp"

namespace diskvet::runner {

struct PurgeRecord {
  bool requested = false;
  // "nvme-sanitize-crypto-erase", "nvme-sanitize-block-erase", "nvme-format-crypto-erase",
  // "nvme-format-user-data-erase" (devices/nvme_purge_plan.hpp), "discard", "none"
  std::string method = "none";
  std::string detail;      // why this method, or what failed
  double duration_s = 0;   // the purge command(s), until done
  bool failed = false;     // the method was issued but did not complete: the device's run stops there
};

struct PreconditionRecord {
  bool performed = false;
  std::string reason;             // why it ran (suite, unwritten region) or why not
  uint64_t bytes_written = 0;
  uint64_t bytes_sent = 0;        // every write issued, ramp included (the write accounting's)
  double capacities_target = 0;
  double capacities_written = 0;  // bytes_written / tested capacity
  double elapsed_s = 0;
  bool capped = false;            // stopped by the time cap before the target
  bool completed = false;
  std::string fio;                // the equivalent fio command line
};

struct ProbeRecord {
  bool performed = false;
  uint32_t samples = 0;
  uint32_t zero_samples = 0;
  bool unwritten = false;      // more zero samples than the suite allows
  bool filled_after = false;   // preconditioned because of it
  std::string detail;
};

struct WarmupRecord {
  bool performed = false;
  double elapsed_s = 0;
  bool settled = false;  // IOPS steady by the slope criterion before the cap
  std::vector<double> iops;  // per interval
};

// One round of workload-dependent preconditioning (SNIA PTS 3.3).
struct RoundRecord {
  double iops = 0;
  double lat_mean_us = 0;
  double tracked = 0;  // the value the detector saw
  uint64_t randseed = 0;  // the round's own offsets and write data (runner/io/seed.hpp)
};

struct WorkloadRecord {
  Workload workload;        // as run (after the sweep: the knee's depth and jobs)
  std::string target_path;
  Measurement result;       // the measurement the verdicts read (the knee, for a sweep)
  bool ran = false;
  std::string error;        // a runtime error that stopped it
  std::string skipped;      // why this device cannot run it (a matrix cell's block size below its logical block); not an error
  std::optional<WarmupRecord> warmup;
  std::vector<RoundRecord> rounds;
  std::optional<SteadyStateResult> steady_state;
  // The result is the steady-state measurement window: its rounds joined (SNIA PTS), not a new window.
  bool result_is_window = false;
  // What the rounds ran, when not the workload itself (a sweep's rounds run its heaviest point).
  std::string rounds_workload;
  bool steady_required = false;
  SteadyCriteria steady_criteria;  // what the suite asked for
  std::vector<SweepPoint> sweep;
  std::optional<size_t> knee;  // index into sweep
  LittleCheck little;
};

// A mix x block size matrix (SNIA PTS-E IOPS test): the cells are the test's workloads, mix-major;
// every round ran each cell once; steady state is decided on the tracked cell's IOPS per round.
struct MatrixRecord {
  std::vector<uint32_t> rwmixread_pcts;
  std::vector<uint32_t> bs_bytes;
  size_t tracked = 0;               // index of the tracked cell
  double round_s = 0;               // each cell's length in a round
  size_t rounds_run = 0;            // rounds in which every runnable cell ran
  bool steady_required = false;
  SteadyCriteria criteria;
  std::vector<double> tracked_iops; // per round
  std::optional<SteadyStateResult> steady_state;
};

struct TestRecord {
  std::string id;
  std::string description;
  std::optional<MatrixRecord> matrix;
  std::vector<WorkloadRecord> workloads;
  // The same workloads once more on the block path as the suite wrote them (the suite's fast path,
  // compare_block_path: its first test only), beside the fast path's numbers; never judged.
  std::vector<WorkloadRecord> block_path;
  std::vector<MetricVerdict> verdicts;
  Rollup verdict;
};

struct Outlier {
  std::string test_id;
  std::string metric;
  double value = 0;
  double median = 0;
  double worse_pct = 0;
  size_t group_size = 0;
};

// An I/O error the device returned, with the test it hit and its LBA (offset / logical block size).
struct DeviceIoError {
  std::string test_id;
  IoError error;
  uint64_t lba = 0;
};

struct SlowdownRecord {
  std::string test_id;
  SlowdownEvent event;
};

// A phase the suite asks for that this device's run could not do (phase_sequence.hpp), and why.
struct PhaseNotRun {
  std::string phase, why;
};

struct DeviceResult {
  devices::Device device;
  uint64_t tested_bytes = 0;
  uint64_t rate_cap_iops = 0;  // lab option: emulate a slower device
  std::string profile_name;    // empty: none
  std::string profile_file;
  std::string profile_source;  // where the profile's limits come from (its "source")
  std::string profile_reason;  // "named on the command line", "matched model ... and size", "no profile matched"
  FastPath fast_path;          // what the suite's fast path found on this device (asked: false when it asks none)
  std::optional<devices::Health> health_before, health_after;
  std::optional<AddressProbeResult> capacity_probe;  // the address-integrity probe, when the run wrote the device
  // Phases the suite asks for that the run could not do here (the address probe on a device not
  // opened for writing); preconditioning says why not in its own record.
  std::vector<PhaseNotRun> phases_not_run;
  // Every write diskvet sent the device during its run (each engine run of every phase; a step
  // that writes outside the engine adds its own), and the drive's count of it (issue 26).
  uint64_t bytes_sent = 0;
  uint64_t passthrough_bytes_sent = 0;  // of bytes_sent, through NVMe passthrough (no kernel counter sees it)
  std::optional<devices::WriteAccounting> write_accounting;
  // The NVMe Error Information log entries the run added, each judged (issue 26).
  std::optional<devices::ErrorLogReview> error_log;
  // SATA/SAS failure-predicting counters that grew during the run (issue 26).
  std::optional<devices::SmartCounterReview> smart_counters;
  // SATA/SAS error and self-test log entries the run added, each judged (issue 26).
  std::optional<devices::SmartLogReview> smart_logs;
  // NAND bytes over host bytes from the OCP SMART log (C0h): evidence, never a verdict (issue 26).
  std::optional<devices::WriteAmplification> write_amplification;
  // The drive's own self-tests around the run (suite "self_test"), when the suite asked for them.
  std::optional<devices::SelfTestOutcome> self_test_before, self_test_after;
  // What the drive recorded during the self-test after the run (an extended test reads every
  // sector): from the snapshot after the run to one after the test, judged as the run's are. The
  // self-test logs are left out: the test's own result is judged by the self-test step.
  struct AcrossSelfTest {
    std::optional<devices::ErrorLogReview> error_log;
    std::optional<devices::SmartCounterReview> smart_counters;
    std::optional<devices::SmartLogReview> smart_logs;
  };
  std::optional<AcrossSelfTest> across_self_test;
  PurgeRecord purge;
  PreconditionRecord precondition;
  ProbeRecord probe;
  std::vector<TestRecord> tests;
  DeviceFacts facts;
  Rollup verdict;
  std::vector<Outlier> outliers;
  std::string started, finished;  // ISO 8601 UTC
  bool completed = false;
  VerifySummary verify;           // every verifying workload of the device, summed
  std::vector<DeviceIoError> first_io_errors;  // the first few of the whole device run, in order (facts.io_errors counts all)
  std::vector<std::string> progress;  // per test how far it got: an interrupted run says where it stopped
  std::vector<HealthSample> health_series;  // polled during the run (suites with monitor.health_poll)
  std::vector<SlowdownRecord> slowdowns;
  WatchdogRecord watchdog;                   // I/Os past io_timeout, and whether the run gave up on one
  KernelLog kernel_log;                      // the kernel's lines about this device during its run
  double job_cpu_s = 0;                      // the device's job threads, every workload summed
  // All CPUs of the host from the first test's start to the last one's end (host_cpu_window_s):
  // the kernel's system and interrupt time the job threads' CPU does not count.
  std::optional<HostCpuShare> host_cpu;
  double host_cpu_window_s = 0;
};

struct RunResult {
  std::string suite_name, suite_file, suite_description;
  std::string started, finished;
  std::vector<DeviceResult> devices;
  VerdictStatus verdict = VerdictStatus::not_evaluated;
  bool aborted = false;   // interrupted or a runtime error: the report is partial and says so
  std::string abort_reason;
  bool measurement_only = false;  // --profile none (RunOptions)
  uint64_t randseed = 0;          // the run's seed: --randseed with it repeats offsets and write data
  std::vector<std::string> notes;
  int exit_code() const { return runner::exit_code(verdict, aborted, measurement_only); }
};

}  // namespace diskvet::runner
