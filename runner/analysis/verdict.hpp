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

// Ordered by severity for roll-ups: the worst status wins, and nothing that did not run or was not
// judged ranks with PASS (verdicts fail closed). A metric is PASS, FAIL, INCONCLUSIVE or
// NOT-EVALUATED (its limit could not be evaluated); a test or a device rolls those up and adds
// NOT-JUDGED (limits missing or not evaluated) and ERROR (a test could not run or stopped on an
// error, or the device's run was aborted). ERROR outranks FAIL because a run that did not finish
// cannot say what the rest would have shown; its reasons still list every FAIL.
enum class VerdictStatus { pass = 0, not_evaluated = 1, not_judged = 2, inconclusive = 3, fail = 4, error = 5 };
// "PASS", "NOT-EVALUATED", "NOT-JUDGED", "INCONCLUSIVE", "FAIL", "ERROR"
std::string_view to_string(VerdictStatus s);
std::optional<VerdictStatus> parse_status(std::string_view s);

// A promised limit: the measured value must be >= min (or <= max), with tolerance_pct of slack.
struct Limit {
  enum class Bound { min, max } bound = Bound::min;
  double value = 0;
  double tolerance_pct = 0;
};
// "min" or "max", as profiles and reports spell a bound.
std::string_view to_string(Limit::Bound b);

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
  VerdictStatus status = VerdictStatus::not_judged;
  std::vector<std::string> reasons;  // why it is not PASS, in words
};

// Worst of the metric verdicts; a limit NOT-EVALUATED makes the roll-up NOT-JUDGED; no verdict at all
// is NOT-JUDGED too (the caller decides whether the test judges itself).
Rollup rollup_test(const std::vector<MetricVerdict>& verdicts);

// What besides the metric verdicts decides a device.
struct DeviceFacts {
  bool unhealthy = false;              // health before or after reports a problem
  std::vector<std::string> health_problems;
  uint64_t io_errors = 0;
  std::string io_error_detail;         // the first one, in words
  uint64_t verify_mismatches = 0;      // reads that found a block unlike what the run wrote
  uint64_t verify_bad_blocks = 0;      // distinct blocks those reads found (one bad block read 500 times: 1)
  uint64_t verified_blocks = 0;        // blocks read back and checked: a check that can PASS without a profile
  std::string verify_detail;           // the first one, in words
  // Failing findings: each one FAILs the device, in its own words. Everything found while the run went
  // on lands here (health polls, throttling; stalls and controller resets from the watchdog and the
  // kernel log): a new source pushes its findings and the device verdict folds them in.
  std::vector<std::string> run_problems;
  bool verifies = false;               // the suite verifies data: verification judges the device without a profile
  bool required_missing = false;       // preconditioning or steady state required and missing
  std::string required_missing_reason;
  // Evidence that the run's numbers are not the device's alone: INCONCLUSIVE, never PASS; the
  // reasons join with "; ".
  void mark_inconclusive(const std::string& why) {
    required_missing = true;
    required_missing_reason += (required_missing_reason.empty() ? "" : "; ") + why;
  }
  bool aborted = false;                // the device's run did not complete
  std::string error;                   // a runtime error that stopped it
};

// The worst of the tests (each already ERROR when a workload could not run, NOT-JUDGED when its
// limits were missing) and of the facts: ERROR if aborted; FAIL if unhealthy, I/O errors, a
// verification mismatch or any run problem; INCONCLUSIVE if anything required was missing;
// NOT-JUDGED when no test ran or a verifying suite read nothing back. PASS only when all of it held.
Rollup rollup_device(const std::vector<Rollup>& tests, const DeviceFacts& facts);

// Worst of the devices; no device at all is NOT-JUDGED.
VerdictStatus rollup_overall(const std::vector<VerdictStatus>& devices);

// The run's exit code (DESIGN.md), from its worst device and whether the run itself was cut short:
//   3 aborted or any device ERROR, else 1 any FAIL, else 4 INCONCLUSIVE or NOT-JUDGED, else 0.
// Precedence 2 > 3 > 1 > 4 > 0 (2 never reaches here: refusals end before a run). A FAIL is never
// hidden by a NOT-JUDGED. measurement_only (--profile none): NOT-JUDGED is what was asked for, 0.
int exit_code(VerdictStatus overall, bool aborted, bool measurement_only = false);

void tag_invoke(boost::json::value_from_tag, boost::json::value& v, const MetricVerdict& mv);

}  // namespace diskvet::runner
