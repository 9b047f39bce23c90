// Two reports side by side: the same drives before and after maintenance (matched by serial), or
// host A against host B (matched by position among drives of the same model), or two multi-host
// runs (`diskvet run --hosts`: the merged array's numbers per test workload, and each host's, matched
// by test and by host name; a host that was ok and is no longer is a regression). Per workload and
// direction IOPS, bandwidth and latency with their ratio and whether the change is beyond the
// run-to-run noise of the reports' own interval series; PASS/FAIL changes; health changes. A
// regression (a chosen metric worse by more than the allowed percentage, or a device's or test's verdict
// that was PASS and is no longer) is what `diskvet compare` exits 1 on; a comparison that judged
// nothing (no drive matched, or no gated metric in common) exits 4.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runner/compare/report_index.hpp"
#include "runner/report/svg_plot.hpp"

namespace diskvet::runner {

struct CompareOptions {
  std::vector<std::string> metrics = {"iops", "bw", "lat_mean", "lat_p99"};  // those that can regress
  std::optional<double> max_regression_pct;                                   // unset: no metric gates
};

struct MetricComparison {
  std::string key, test, direction, label_a, label_b;
  const CompareMetric* kind = nullptr;
  double a = 0, b = 0;
  double ratio = 0;       // b / a
  double worse_pct = 0;   // how much worse b is, in the metric's own sense (negative: better)
  std::optional<double> noise_pct;    // the larger interval spread of the two runs
  std::optional<bool> beyond_noise;   // |change| larger than that spread; unknown without a series
  bool sweep_step = false;            // read at one step of two sweeps: one sample each, no series
  bool regression = false;
};

// One step of a max-IOPS sweep in both runs, matched by its outstanding I/Os (the sweep's queue
// depth times jobs): the curve storage engineers compare, point by point, not only its knee.
struct SweepStepComparison {
  double outstanding = 0;
  double iops_a = 0, iops_b = 0;
  double p99_us_a = 0, p99_us_b = 0;
  double iops_worse_pct = 0;  // how much fewer IOPS the new run did at this step (negative: more)
  double p99_worse_pct = 0;   // how much higher its p99 was (negative: lower)
  bool regression = false;    // a chosen metric (iops, lat_p99) worse than --max-regression-pct allows
};

struct SweepComparison {
  std::string test, label, direction;
  std::vector<SweepStepComparison> steps;        // the outstanding counts both runs stepped through
  std::vector<double> only_in_a, only_in_b;      // outstanding counts one run has and the other not
};

struct HealthChange {
  std::string counter;
  std::optional<double> a, b;  // after each run
  bool worse = false;
};

// One health-evidence check in both runs, in words ("agrees", "2 of 3 new entries fail"): "-" where a
// run had no such check.
struct EvidenceChange {
  std::string check;  // "writes counted", "error log"
  std::string a, b;
  bool worse = false;  // clean in the baseline, failing in the new run
};

struct DevicePair {
  const DeviceIndex* a = nullptr;
  const DeviceIndex* b = nullptr;
  std::string matched_by;  // "serial", "position among <model> drives", "position"
  std::vector<MetricComparison> metrics;
  std::vector<SweepComparison> sweeps;
  std::vector<std::string> verdict_changes;  // "device: PASS -> FAIL", "max-iops: PASS -> FAIL"
  std::vector<HealthChange> health;
  std::vector<EvidenceChange> evidence;
  std::vector<std::string> only_in_a, only_in_b;  // workload directions one run has and the other not
};

struct Comparison {
  std::string a_name, b_name;
  bool hosts = false;  // two multi-host reports: matched by test and by host name
  std::vector<DevicePair> pairs;
  std::vector<std::string> unmatched;     // devices of either report without a partner
  std::vector<std::string> regressions;   // in words; empty: nothing regressed
  // Why nothing could be judged, in words; empty when something was. No drive of one report matched a
  // drive of the other, or (with a --max-regression-pct gate) no metric the gate chose was measured
  // in both: a gate must not pass on what it never compared (`diskvet compare` exits 4).
  std::string not_compared;
};

// A multi-host report against a per-drive one compares nothing: not_compared says so (the CLI
// refuses the pair before).
Comparison compare_reports(const ReportIndex& a, const ReportIndex& b, const CompareOptions& options);

// The two runs of each workload direction both measured, drawn over each other (the baseline grey
// and dashed): a sweep as p99 latency against IOPS step by step (two knees at different depths are
// two points of one curve, not one number each), anything else as latency by percentile and IOPS
// over the measured time. A plot neither run has a point for is left out.
std::vector<Plot> compare_plots(const DevicePair& pair);

// "randread 4KiB QD32x2 70% read" without its "QD32x2": what two steps of two sweeps have in common.
std::string without_queue_depth(const std::string& label);

// Why the noise of a comparison is what it is, in a few words: "within noise ±3.4%", "beyond noise
// ±2.1%", or why there is none ("one sample" for a sweep step, "no series" for a number the runs
// kept no interval series of, such as p50).
std::string noise_words(const MetricComparison& m);

std::string compare_text(const std::vector<Comparison>& comparisons, const CompareOptions& options);
std::string compare_html(const std::vector<Comparison>& comparisons, const CompareOptions& options);

}  // namespace diskvet::runner
