// Verdict logic: comparison against limits with tolerance, roll-ups, exit codes.
#include "runner/analysis/verdict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace diskvet::runner {

namespace json = boost::json;

std::string_view to_string(VerdictStatus s) {
  switch (s) {
    case VerdictStatus::pass: return "PASS";
    case VerdictStatus::fail: return "FAIL";
    case VerdictStatus::inconclusive: return "INCONCLUSIVE";
    case VerdictStatus::not_evaluated: return "NOT-EVALUATED";
    case VerdictStatus::not_judged: return "NOT-JUDGED";
    case VerdictStatus::error: return "ERROR";
  }
  return "?";
}

std::string_view to_string(Limit::Bound b) { return b == Limit::Bound::min ? "min" : "max"; }

std::optional<VerdictStatus> parse_status(std::string_view s) {
  for (auto x : {VerdictStatus::pass, VerdictStatus::fail, VerdictStatus::inconclusive, VerdictStatus::not_evaluated, VerdictStatus::not_judged,
                 VerdictStatus::error})
    if (s == to_string(x)) return x;
  return std::nullopt;
}

namespace {
std::string num(double v) {
  if (std::fabs(v) >= 100) return fmt::format("{:.0f}", v);
  if (std::fabs(v) >= 10) return fmt::format("{:.1f}", v);
  return fmt::format("{:.3g}", v);
}
}  // namespace

MetricVerdict judge(std::string test_id, std::string metric, const Limit& limit, std::optional<double> measured,
                    const Validity& validity, std::string_view missing_reason) {
  MetricVerdict v;
  v.test_id = std::move(test_id);
  v.metric = std::move(metric);
  v.limit = limit;
  v.measured = measured;
  if (!measured) {
    v.status = VerdictStatus::not_evaluated;
    v.reason = std::string(missing_reason);
    return v;
  }
  const bool is_min = limit.bound == Limit::Bound::min;
  // The threshold after tolerance: a min of 1000 with 5% tolerance accepts 950.
  const double threshold = is_min ? limit.value * (1 - limit.tolerance_pct / 100) : limit.value * (1 + limit.tolerance_pct / 100);
  if (limit.value != 0) v.margin_pct = (is_min ? *measured - limit.value : limit.value - *measured) / std::fabs(limit.value) * 100;
  const bool met = is_min ? *measured >= threshold : *measured <= threshold;
  std::string comparison = fmt::format("{} {} {} {}{}", num(*measured), met ? (is_min ? ">=" : "<=") : (is_min ? "<" : ">"),
                                       to_string(limit.bound), num(limit.value),
                                       limit.tolerance_pct > 0 ? fmt::format(" (with {}% tolerance: {})", num(limit.tolerance_pct), num(threshold)) : "");
  if (!validity.trusted) {
    v.status = VerdictStatus::inconclusive;
    v.reason = fmt::format("{}; the numbers ({}) would {}", validity.why_not, comparison, met ? "pass" : "fail");
    return v;
  }
  v.status = met ? VerdictStatus::pass : VerdictStatus::fail;
  v.reason = comparison;
  return v;
}

MetricVerdict not_evaluated(std::string test_id, std::string metric, std::optional<Limit> limit, std::string reason) {
  MetricVerdict v;
  v.test_id = std::move(test_id);
  v.metric = std::move(metric);
  v.limit = limit;
  v.status = VerdictStatus::not_evaluated;
  v.reason = std::move(reason);
  return v;
}

Rollup rollup_test(const std::vector<MetricVerdict>& verdicts) {
  Rollup r;
  if (verdicts.empty()) return r;
  r.status = VerdictStatus::pass;
  for (const auto& v : verdicts) {
    // A limit that could not be evaluated leaves the test unjudged, never passed.
    r.status = std::max(r.status, v.status == VerdictStatus::not_evaluated ? VerdictStatus::not_judged : v.status);
    if (v.status != VerdictStatus::pass) r.reasons.push_back(fmt::format("{} {}: {}", v.metric, to_string(v.status), v.reason));
  }
  return r;
}

Rollup rollup_device(const std::vector<Rollup>& tests, const DeviceFacts& f) {
  Rollup r;
  r.status = VerdictStatus::pass;
  auto raise = [&r](VerdictStatus s) { r.status = std::max(r.status, s); };
  if (tests.empty() && !f.aborted) {
    raise(VerdictStatus::not_judged);
    r.reasons.push_back("no test ran");
  }
  for (const auto& t : tests) {
    raise(t.status);
    r.reasons.insert(r.reasons.end(), t.reasons.begin(), t.reasons.end());
  }
  if (f.unhealthy) {
    raise(VerdictStatus::fail);
    for (const auto& p : f.health_problems) r.reasons.push_back("unhealthy: " + p);
    if (f.health_problems.empty()) r.reasons.push_back("unhealthy");
  }
  if (f.io_errors) {
    raise(VerdictStatus::fail);
    r.reasons.push_back(fmt::format("{} I/O error{}{}", f.io_errors, f.io_errors == 1 ? "" : "s",
                                    f.io_error_detail.empty() ? "" : " (first: " + f.io_error_detail + ")"));
  }
  if (f.verifies && !f.verified_blocks && !f.verify_mismatches && !f.aborted) {
    raise(VerdictStatus::not_judged);
    r.reasons.push_back("data verification read no block back: nothing was verified");
  }
  if (f.verify_mismatches) {
    raise(VerdictStatus::fail);
    const uint64_t blocks = f.verify_bad_blocks ? f.verify_bad_blocks : f.verify_mismatches;
    r.reasons.push_back(fmt::format("data verification: {} block{} did not hold what was written, found by {} read{}{}", blocks,
                                    blocks == 1 ? "" : "s", f.verify_mismatches, f.verify_mismatches == 1 ? "" : "s",
                                    f.verify_detail.empty() ? "" : " (first: " + f.verify_detail + ")"));
  }
  for (const auto& p : f.run_problems) {
    raise(VerdictStatus::fail);
    r.reasons.push_back(p);
  }
  if (f.required_missing) {
    raise(VerdictStatus::inconclusive);
    r.reasons.push_back(f.required_missing_reason);
  }
  if (f.aborted) {
    raise(VerdictStatus::error);
    r.reasons.push_back(f.error.empty() ? "the run was aborted before it completed" : "aborted: " + f.error);
  }
  return r;
}

VerdictStatus rollup_overall(const std::vector<VerdictStatus>& devices) {
  if (devices.empty()) return VerdictStatus::not_judged;
  VerdictStatus s = VerdictStatus::pass;
  for (auto d : devices) s = std::max(s, d);
  return s;
}

int exit_code(VerdictStatus overall, bool aborted, bool measurement_only) {
  if (aborted) return 3;
  switch (overall) {
    case VerdictStatus::error: return 3;
    case VerdictStatus::fail: return 1;
    case VerdictStatus::inconclusive: return 4;
    case VerdictStatus::not_evaluated:
    case VerdictStatus::not_judged: return measurement_only ? 0 : 4;
    case VerdictStatus::pass: return 0;
  }
  return 3;
}

void tag_invoke(json::value_from_tag, json::value& v, const MetricVerdict& mv) {
  json::object o;
  o["test"] = mv.test_id;
  o["metric"] = mv.metric;
  if (mv.limit) {
    o["bound"] = to_string(mv.limit->bound);
    o["expected"] = mv.limit->value;
    o["tolerance_pct"] = mv.limit->tolerance_pct;
  } else {
    o["expected"] = nullptr;
  }
  o["measured"] = mv.measured ? json::value(*mv.measured) : json::value(nullptr);
  o["margin_pct"] = mv.margin_pct ? json::value(*mv.margin_pct) : json::value(nullptr);
  o["status"] = to_string(mv.status);
  o["reason"] = mv.reason;
  v = std::move(o);
}

}  // namespace diskvet::runner
