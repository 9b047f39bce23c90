// A report read back as values to compare: per device its identity, verdicts and health, and per
// workload and direction the numbers a person compares (IOPS, bandwidth, mean and percentile
// latency) with the spread of the run's own interval series beside them, and the max-IOPS sweep.
// Built from the decoded report (report_view.hpp), so a report of any schema this diskvet reads
// (report_schema.hpp) indexes, and a missing number is absent rather than zero; a multi-host report
// from its JSON.
#pragma once

#include <boost/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runner/report/report_view.hpp"

namespace diskvet::runner {

// One number of one workload direction, with the run-to-run noise its interval series shows: the
// coefficient of variation (stddev / mean, in percent) of the per-interval values, when measured.
struct MetricValue {
  double value = 0;
  std::optional<double> noise_pct;
};

enum class Better { higher, lower };

struct CompareMetric {
  const char* name;   // "iops", "bw", "lat_mean", "lat_p50", "lat_p99", "lat_p9999"
  const char* label;  // "IOPS", "bandwidth", "mean latency", "p99 latency"
  Better better;
};
// The metrics compare and fleet know, in the order they print.
const std::vector<CompareMetric>& compare_metrics();
const CompareMetric* find_compare_metric(std::string_view name);
// A value of that metric for people: IOPS, bytes/s or latency in ns.
std::string format_metric(const CompareMetric& k, double value);

struct SweepStep {
  double outstanding = 0, iops = 0, lat_mean_us = 0, lat_p99_us = 0;
};

struct WorkloadDirection {
  std::string key;    // "max-iops/randread#0/read": test, rw and its rank among same-rw workloads of the test, direction
  std::string test, label, direction;
  std::map<std::string, MetricValue> metrics;  // by CompareMetric::name
  std::vector<SweepStep> sweep;                 // the max-IOPS sweep of the workload, if any
  // What compare draws side by side: the run's latency percentiles (percentile, ns; as the report
  // lists them, in increasing order) and its interval series (seconds into the measurement, IOPS).
  std::vector<std::pair<double, double>> percentiles_ns;
  std::vector<std::pair<double, double>> iops_series;
};

struct HealthValues {
  bool known = false;
  std::map<std::string, double> counters;  // temperature_c, percentage_used, media_errors, ...
  std::vector<std::string> problems;
};

// The health evidence a run judged the drive on beyond its counters (README "Health evidence"): the
// drive's own count of writes against what was sent, the Error Information log's new entries, the
// SATA/SAS counters that predict failure, and the drive's self-tests. Absent (nullopt) when the drive
// kept no such counter or log, the suite ran no such step, or the report predates the check.
struct HealthEvidence {
  std::optional<std::string> writes;  // "agrees", "counted_less", "counted_more"
  std::string writes_words;           // the finding, as the run worded it
  std::optional<uint64_t> error_log_new;  // entries the run added
  size_t error_log_failing = 0;           // of those, the ones that FAIL the drive (media, integrity...)
  std::optional<size_t> smart_counters_compared;  // SATA/SAS counters read before and after
  size_t smart_counters_grown = 0;                // of those, the ones that grew
  std::optional<std::string> self_test_before, self_test_after;  // "passed", "failed", "not-supported", ...
  std::optional<uint64_t> sata_sas_log_new;  // SATA/SAS error and self-test log entries (and SAS error counts) the run added
  size_t sata_sas_log_failing = 0;           // of those, the ones that FAIL the drive
  // The OCP log's write amplification over the run ("1.85"), "no OCP log" or "no host writes"; never judged.
  std::optional<std::string> write_amplification;
  std::vector<std::string> problems;      // each check's failure in words
};

struct DeviceIndex {
  size_t position = 0;  // in the report
  std::string path, model, serial, firmware;
  uint64_t size_bytes = 0;
  std::string verdict;
  std::map<std::string, std::string> test_verdicts;  // test id -> status
  std::vector<std::string> failing;                  // "max-iops read.iops" of each non-PASS metric verdict
  HealthValues health_before, health_after;
  HealthEvidence evidence;
  std::vector<WorkloadDirection> workloads;
  const WorkloadDirection* find(const std::string& key) const;
};

struct ReportIndex {
  std::string name;  // the file it came from
  int schema = 0;
  std::string suite, started, verdict;
  bool complete = true;
  // A multi-host report (`diskvet run --hosts`): its "devices" are the merged array (path
  // kMergedHosts, verdict the run's, a test verdict per test) and one per host (path "host NAME",
  // verdict the host's state: ok, lost, unreachable, ...; a test verdict per test when the run had
  // per-host limits). Compare matches them by that path: by test and by host name, never by drive.
  bool hosts = false;
  std::vector<DeviceIndex> devices;
};

inline constexpr const char* kMergedHosts = "all hosts merged";

// Decodes the report, then indexes it. A multi-host report (ReportView::multi_host) is indexed per
// test workload and direction: the merged numbers (IOPS and bandwidth summed over the hosts, latency
// percentiles from the summed json+ bins, the noise of the merged interval series) and each host's
// own numbers (fio's, per host; noise from the host's own interval series when the report kept it).
ReportIndex index_report(const boost::json::object& doc, const std::string& name);
ReportIndex index_report(const ReportView& report, const std::string& name);

}  // namespace diskvet::runner
