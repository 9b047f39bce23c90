// A saved report (per device or multi-host) as typed values, decoded once (`decode_report`): what the renderers read.
// The decoder is the only code that reads the report's keys; a renderer reads members, so a
// misspelled field is a compile error instead of a silent zero. A number the report did not record
// is std::nullopt (not 0), a string it did not record is empty, a flag false; each object the writer
// writes as null (health before a drive had a health source, a window steady state never found) is
// an empty optional. What the decoder could not read is listed in `problems`: a key the report's
// schema requires that is missing, a value of the wrong type, a key this diskvet does not know.
// Reads every schema version report_schema.hpp accepts; `not_recorded` says what an older one
// predates (README "The report" lists the members; report_json.cpp writes them).
#pragma once

#include <boost/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace diskvet::runner {

struct ReportProblem {
  enum class Kind { missing, wrong_type, out_of_range, unknown_key };
  Kind kind = Kind::missing;
  std::string path;  // "devices[0].tests[1].workloads[0].result.read.iops"
  std::string detail;  // "expected a number, found a string"
};
std::string to_string(ReportProblem::Kind k);
// "devices[0].verdict: missing", "devices[0].size_bytes: wrong type: expected a number, found a string".
std::string describe(const ReportProblem& p);

struct HostView {
  std::string kernel, cpu;
  std::optional<double> cores;
  std::optional<uint64_t> memory_bytes;
};

struct SuiteView {
  std::string name, file, description;
};

struct NfsView {
  std::string server, version;
  std::optional<uint64_t> rsize_bytes, wsize_bytes;
};

// identity.file_system: a file target's file system as the run found it.
struct FileSystemView {
  std::string fstype, source, mountpoint, mount_options;
  bool direct_io = false;
  std::optional<NfsView> nfs;
};

struct ProfileView {
  std::string name, file, reason;
  std::optional<std::string> source;  // schema 2 on; a schema 1 report does not record it
};

// health.before / health.after: one reading of the drive's health (devices/health.hpp).
struct HealthReading {
  bool known = false;
  std::vector<std::string> problems;
  std::optional<double> temperature_c, warning_temp_c, percentage_used, available_spare_pct, media_errors, reallocated_sectors;
  std::optional<double> error_log_entries, data_units_written, thermal_transitions, pending_sectors, critical_warning;
};

struct WriteAccountingView {
  std::string words, other_writer;
  bool fails = false;
  std::string result;  // "agrees", "counted_less", "counted_more"
};

// health.error_log: the NVMe Error Information log's entries the run added, judged.
struct ErrorLogView {
  std::vector<std::string> problems, notes, inconclusive;
  std::optional<double> new_entries;
  size_t failing_entries = 0;  // of the entries listed, those that fail the drive
};

struct SmartCounterFinding {
  bool fails = false;
  std::string words;
};
// health.smart_counters: the SATA/SAS counters compared before and after.
struct SmartCountersView {
  std::vector<SmartCounterFinding> findings;
  std::optional<uint64_t> compared;
  std::vector<std::string> problems, inconclusive;
};

// health.sata_sas_logs: the SATA/SAS error and self-test logs' new entries.
struct SataSasLogsView {
  std::vector<std::string> problems, notes, inconclusive;
  std::vector<bool> findings;  // each entry judged, whether it fails (its words are in problems and notes)
  std::optional<double> new_errors;
  std::optional<uint64_t> unseen;  // new entries the log no longer held to judge: each counts as failing
  std::string error_log, self_test_log;  // which logs were read: "Extended Comprehensive", "ATA"
  std::optional<uint64_t> errors_after;
  std::optional<double> new_self_tests;
  bool scsi_counters = false;
};

struct WriteAmplificationView {
  std::string words;
  std::optional<double> factor;
  bool available = false;  // the drive has the OCP log
};

// health.across_self_test: what the drive recorded during the self-test after the run.
struct AcrossSelfTestView {
  std::optional<ErrorLogView> error_log;
  std::optional<SmartCountersView> smart_counters;
  std::optional<SataSasLogsView> sata_sas_logs;
};

struct HealthView {
  std::optional<HealthReading> before, after;
  std::vector<std::string> delta_problems;  // health.delta.problems: what got worse during the run
  std::optional<WriteAccountingView> write_accounting;
  std::optional<ErrorLogView> error_log;
  std::optional<SmartCountersView> smart_counters;
  std::optional<SataSasLogsView> sata_sas_logs;
  std::optional<WriteAmplificationView> write_amplification;
  std::optional<AcrossSelfTestView> across_self_test;
};

struct SelfTestOutcomeView {
  std::string result, type, words;  // result: "passed", "failed", "not-supported", ...
};
struct SelfTestView {
  std::optional<SelfTestOutcomeView> before, after;
};

struct PurgeView {
  bool requested = false, failed = false;
  std::string method, detail;
  std::optional<double> duration_s;
};

// capacity_probe: the address-integrity probe (runner/verify/address_probe).
struct CapacityProbeView {
  bool performed = false;
  std::string verdict, summary;
  std::optional<uint64_t> claimed_bytes, real_bytes;
};

struct PreconditionView {
  bool performed = false;
  std::string reason;
  std::optional<double> capacities_written, capacities_target, elapsed_s;
  std::optional<uint64_t> bytes_written;
};

struct ProbeView {
  bool performed = false, filled_after = false;
  std::string detail;
};

struct MismatchView {
  std::optional<double> lba, t_s;
  std::string kind, detail;
};
struct LatencyOutlierView {
  std::string dir;
  std::optional<double> lba, lat_ms, t_s;
};
struct VerifyStateView {
  std::optional<uint64_t> memory_bytes, budget_bytes;
  std::string guarantee;
};
// verify: a burn-in's data verification (runner/verify/verify_report).
struct VerifyView {
  std::optional<double> blocks_written, blocks_verified, bad_blocks, mismatches;
  std::string crc32c;
  std::optional<bool> bad_blocks_exact;  // written only when false: the table of bad blocks filled up
  std::optional<VerifyStateView> state;
  std::vector<MismatchView> first_mismatches;
  std::optional<double> latency_outliers_count, latency_outliers_limit_ms;
  std::vector<LatencyOutlierView> latency_outliers;
};

struct SlowdownView {
  std::string test, cause, evidence;
  std::optional<double> start_s, end_s, duration_s, max_drop_pct;
};

struct HostCpuView {
  std::optional<double> window_s, busy_pct, user_pct, system_pct, irq_pct, softirq_pct, system_s, irq_s, softirq_s;
};
struct CpuView {
  std::optional<double> job_cpu_s;
  std::optional<HostCpuView> host;  // null when the host's CPU was not sampled
};

struct StallView {
  std::string direction, test;
  std::optional<double> lba, out_s, submit_s;
  bool completed = false;
};
struct WatchdogView {
  std::optional<double> stall_count, io_timeout_s;
  bool abandoned = false;
  std::vector<StallView> stalls;
};

struct KernelLineView {
  std::optional<double> kernel_s;
  std::string kind, text;
};
struct KernelLogView {
  std::string note;
  std::vector<KernelLineView> lines;
  std::optional<double> dropped;
};

struct HealthSampleView {
  std::optional<double> t_s, temperature_c, thermal_transitions;
};

struct OutlierView {
  std::string test, metric;
  std::optional<double> value, median, group_size, worse_pct;
};

struct VerdictView {
  std::string test, metric, bound, status, reason;  // bound: "min" or "max"
  std::optional<double> expected, measured;
};

// One direction of a job result (fio's job object: read or write).
struct DirectionView {
  std::optional<double> total_ios, iops, bw_bytes;
  std::optional<double> lat_mean_ns;
  // lat_ns.percentile: every key that is a percentile in (0, 100) with a number, increasing; and
  // the three the tables print and compare compares, by their exact keys ("50.000000", "99.000000", "99.990000").
  std::vector<std::pair<double, double>> percentiles_ns;
  std::optional<double> lat_p50_ns, lat_p99_ns, lat_p9999_ns;
  bool measured() const { return total_ios.value_or(0) > 0; }
};

struct IntervalDirectionView {
  std::optional<double> iops, bw_bytes, lat_mean_ns, lat_p99_ns;
};
struct IntervalView {
  std::optional<double> t_s, dur_s;
  IntervalDirectionView read, write;
};

struct ResultView {
  DirectionView read, write;
  std::vector<IntervalView> intervals;
  const DirectionView& direction(std::string_view dir) const { return dir == "read" ? read : write; }
};

struct MeasurementWindowView {
  std::optional<double> first_round, last_round, rounds, average, range_pct, slope_pct;
};
struct SteadyWindowView {
  std::optional<double> first_round, rounds;
};
struct RoundView {
  std::optional<double> iops, lat_mean_us;
};
struct SteadyStateView {
  bool attained = false;
  std::optional<double> rounds_used;
  std::string workload;  // the point the rounds ran, when not the workload's own (max-iops)
  std::optional<double> max_excursion_pct, max_slope_pct;  // criteria
  std::vector<RoundView> rounds;
  std::optional<SteadyWindowView> window;
  std::optional<MeasurementWindowView> measurement_window;  // the result is this window
};

struct SweepPointView {
  std::optional<double> iops, outstanding, lat_mean_us, lat_p99_us;
};
struct SweepView {
  std::vector<SweepPointView> points;
  std::optional<size_t> knee;  // an index into points
};

struct BurstView {
  bool found = false;
  std::string summary;
  std::optional<double> step_s, before_iops, after_iops;
};

struct WarmupView {
  std::optional<double> elapsed_s;
  std::vector<std::optional<double>> iops;  // per interval, in order (an entry that is no number: nullopt)
};

struct RampIntervalView {
  std::optional<double> t_s, dur_s, read_iops, write_iops;
};

struct LittlesLawView {
  bool runner_bound = false;
  std::string note;
};

struct WorkloadView {
  std::string rw, engine, fio, write_data, error, skipped;
  std::optional<uint64_t> bs;
  std::optional<double> iodepth, numjobs, rwmixread, runtime_s, ramp_s;
  bool hipri = false, ran = false;
  std::optional<ResultView> result;  // null when the workload did not run
  std::optional<SteadyStateView> steady_state;
  std::optional<SweepView> sweep;
  std::optional<BurstView> burst;
  std::optional<WarmupView> warmup;
  std::vector<RampIntervalView> ramp;  // the ramp's own series, where it was kept
  std::optional<LittlesLawView> littles_law;
};

struct MatrixCellView {
  std::optional<double> rwmixread, iops;
  std::optional<uint64_t> bs;
  std::string skipped;
};
// A matrix test (snia-iops): cells by mix and block size, IOPS over the measurement window.
struct MatrixView {
  std::vector<double> rwmixread;  // the numbers of the list, in order
  std::vector<double> bs;         // the numbers of the list, in order
  std::vector<MatrixCellView> cells;
  std::optional<double> rounds_run;
  bool attained = false;
  std::optional<MeasurementWindowView> measurement_window;
};

struct TestView {
  std::string id, description, verdict;
  std::vector<std::string> reasons;
  std::optional<MatrixView> matrix;
  std::vector<WorkloadView> workloads;
  std::vector<WorkloadView> block_path;  // the fast path's first test once more on the block path
  std::vector<VerdictView> verdicts;
};

// A phase the suite asks for that the run could not do (an address probe on a device not opened for
// writing; fio's executor across hosts cannot purge), and why.
struct PhaseNotRunView {
  std::string phase, why;
};

struct DeviceView {
  std::string path, kind, model, serial, firmware;
  std::optional<uint64_t> size_bytes, tested_bytes;
  std::optional<FileSystemView> file_system;  // identity.file_system, for a file target
  ProfileView profile;
  std::string fast_path_summary;  // fast_path.summary, when the suite asked for the fast path
  HealthView health;
  SelfTestView self_test;
  PurgeView purge;
  std::optional<CapacityProbeView> capacity_probe;
  std::vector<PhaseNotRunView> phases_not_run;
  PreconditionView precondition;
  ProbeView probe;
  std::optional<VerifyView> verify;
  std::vector<std::string> progress;
  CpuView cpu;
  std::vector<HealthSampleView> health_series;
  std::vector<SlowdownView> slowdowns;
  WatchdogView watchdog;
  KernelLogView kernel_log;
  std::string verdict;
  std::vector<std::string> reasons;
  std::vector<OutlierView> outliers;
  std::vector<TestView> tests;
};

// A multi-host report (`diskvet run --hosts`): fio's results per host and merged across them.
// One direction of a fio result (read, write or total): fio's own vocabulary.
struct FioDirectionView {
  std::optional<double> iops, bw_bytes, total_ios, lat_mean_ns, lat_count;
  std::vector<std::pair<double, double>> percentiles_ns;  // (percentile, ns), increasing
  // The ns at exactly this percentile (99.0, 99.99), when fio reported it.
  std::optional<double> percentile_ns(double q) const;
};
struct FioIntervalView {
  std::optional<double> t_ms, read_iops, write_iops;
};
// A host's fio result (read and write), or one merged across hosts (also total, the merged
// interval series of IOPS and how far apart the hosts started).
struct FioResultView {
  std::optional<FioDirectionView> read, write, total;
  std::vector<FioIntervalView> intervals;
  std::optional<double> start_spread_ms;
  const FioDirectionView* direction(std::string_view name) const;  // "read", "write", "total"
};
struct HostsSteadyStateView {
  bool attained = false, required = false;
  std::optional<uint64_t> rounds;  // rounds run: the length of its rounds, or their count
  std::optional<double> max_rounds;
  std::string tracks, workload, decided_by;
};
struct HostsWorkloadView {
  std::string rw, not_judged, error;
  std::optional<uint64_t> bs_bytes;
  std::optional<double> iodepth, numjobs;
  std::optional<FioResultView> merged;  // absent when the workload did not run
  std::vector<std::pair<std::string, FioResultView>> hosts;        // each host's, in the report's order
  std::vector<std::pair<std::string, FioResultView>> host_merged;  // each host's merged alone (--host-profile)
  std::optional<HostsSteadyStateView> steady_state;
  std::vector<HostsWorkloadView> sweep;  // a sweep's steps, each a workload at its depth
  const FioResultView* merged_of(std::string_view host) const;
};
struct HostsMatrixView {
  std::optional<double> rounds_run, tracked_rwmixread;
  std::optional<uint64_t> tracked_bs;
  bool tracked = false;  // the matrix names its tracked cell
  std::optional<HostsSteadyStateView> steady_state;
};
struct HostsTestView {
  std::string id, status;
  std::optional<HostsMatrixView> matrix;
  std::vector<HostsWorkloadView> workloads;
  std::vector<VerdictView> verdicts;
  std::vector<std::pair<std::string, std::string>> host_verdicts;  // host, its status (--host-profile)
};
struct HostsDeviceView {
  std::string path, refusal;
  bool refused = false;  // the report records a refusal (even an empty one)
  bool held = false;
};
struct HostStateView {
  std::string name, state, fio_version, reason, when;
  std::vector<HostsDeviceView> devices;
};
struct MultiHostView {
  std::string profile, status, error, not_judged;
  std::vector<PhaseNotRunView> phases_not_run;
  std::vector<HostStateView> hosts;
  std::vector<HostsTestView> tests;
};

struct ReportView {
  std::optional<int> schema;  // N of "diskvet-report/N"
  std::string tool_version;
  HostView host;
  std::string started, finished;
  SuiteView suite;
  bool measurement_only = false;
  std::optional<uint64_t> randseed;
  std::string verdict;
  std::optional<double> exit_code;
  bool complete = false;
  std::string aborted;  // why the run stopped early
  std::vector<std::string> notes;
  std::vector<DeviceView> devices;
  // A multi-host report's hosts and tests (its suite, times, verdict and exit code are above; it has
  // no devices of its own).
  std::optional<MultiHostView> multi_host;
  // For a report of an older schema: what it does not record ("profile.source"), and the sentence
  // the page prints about it.
  std::vector<std::string> not_recorded;
  std::optional<std::string> schema_note;
  std::vector<ReportProblem> problems;
};

// A report's hosts and tests when it is a multi-host report; an empty MultiHostView otherwise.
const MultiHostView& multi_host_of(const ReportView& report);

// The report, decoded. Never throws: whatever does not fit the schema is left at its default and
// listed in problems.
ReportView decode_report(const boost::json::value& doc);
// The percentiles of a fio-style lat_ns object ({"percentile": {"99.000000": ns, ...}}) as
// (percentile, ns), in increasing order of percentile; keys that are no percentile are left out.
// The decoder reads a direction's with it; compare reads a multi-host report's fio objects with it.
std::vector<std::pair<double, double>> percentile_points(const boost::json::value& lat_ns);

// One element of a report's `devices` (the fleet page's cards take a device alone); problems go to
// `problems` when given. Read as the newest schema.
DeviceView decode_device(const boost::json::value& device, std::vector<ReportProblem>* problems = nullptr);

}  // namespace diskvet::runner
