// Verdicts: one per metric (expected, measured, margin, status, reason in words), rolled up per
// test, per device and for the whole run; and the exit code the run ends with (DESIGN.md).
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace diskvet::runner {

// Ordered by severity for roll-ups: the worst status wins.
enum class VerdictStatus { not_evaluated = 0, pass = 1, inconclusive = 2, fail = 3 };
std::string_view to_string(VerdictStatus s);  // "PASS", "FAIL", "INCONCLUSIVE", "NOT-EVALUATED"
std::optional<VerdictStatus> parse_status(std::string_view s);

// A promised limit: the measured value must be >= min (or <= max), with tolerance_pct of slack.
struct Limit {
  enum class Bound { min, max } bound = Bound::min;
  double value = 0;
  double tolerance_pct = 0;
};

// Why a measurement cannot be trusted (steady state not attained, unwritten space read, ...).
struct Validity {
  bool trusted = true;
  std::string why_not;
};

struct MetricVerdict {
  std::string test_id;
  std::string metric;  // with its scope: "read.lat_p99_us"
  std::optional<Limit> limit;
  std::optional<double> measured;
  std::optional<double> margin_pct;  // how far inside (+) or outside (-) the limit, % of the limit
  VerdictStatus status = VerdictStatus::not_evaluated;
  std::string reason;
};

// Compares one measured value with one limit. Untrusted measurements are INCONCLUSIVE, never PASS
// (SNIA PTS: results outside steady state are not valid), and the reason says what the numbers showed.
MetricVerdict judge(std::string test_id, std::string metric, const Limit& limit, std::optional<double> measured,
                    const Validity& validity = {}, std::string_view missing_reason = "nothing was measured in this scope");

// A limit the run could not evaluate (test not in the suite, test failed to run...).
MetricVerdict not_evaluated(std::string test_id, std::string metric, std::optional<Limit> limit, std::string reason);

struct Rollup {
  VerdictStatus status = VerdictStatus::not_evaluated;
  std::vector<std::string> reasons;  // why it is not PASS, in words
};

// Worst of the metric verdicts.
Rollup rollup_test(const std::vector<MetricVerdict>& verdicts);

// What besides the metric verdicts decides a device.
struct DeviceFacts {
  bool unhealthy = false;              // health before or after reports a problem
  std::vector<std::string> health_problems;
  uint64_t io_errors = 0;
  std::string io_error_detail;         // the first one, in words
  uint64_t verify_mismatches = 0;      // blocks read back unlike what the run wrote
  uint64_t verified_blocks = 0;        // blocks read back and checked: a check that can PASS without a profile
  std::string verify_detail;           // the first one, in words
  std::vector<std::string> run_problems;  // found while the run went on (health polls, throttling), each FAILs
  bool required_missing = false;       // preconditioning or steady state required and missing
  std::string required_missing_reason;
  bool aborted = false;                // the device's run did not complete
  std::string error;                   // a runtime error that stopped it
};

// FAIL if any FAIL, unhealthy, or I/O errors; INCONCLUSIVE if anything required was missing or a
// metric was inconclusive; PASS when every evaluated limit was met; NOT-EVALUATED when none was.
Rollup rollup_device(const std::vector<Rollup>& tests, const DeviceFacts& facts);

// Worst of the devices.
VerdictStatus rollup_overall(const std::vector<VerdictStatus>& devices);

// 0 PASS or nothing evaluated, 1 FAIL, 3 runtime error or aborted, 4 INCONCLUSIVE.
int exit_code(VerdictStatus overall, bool aborted_or_error);

void tag_invoke(boost::json::value_from_tag, boost::json::value& v, const MetricVerdict& mv);

}  // namespace diskvet::runner
