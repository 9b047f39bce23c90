// Verdict logic: limits with tolerance, untrusted measurements, roll-ups and exit codes.
#include "runner/verdict.hpp"

#include <gtest/gtest.h>

#include <optional>

using namespace diskvet::runner;
using Bound = Limit::Bound;

namespace {
struct Case {
  const char* name;
  Limit limit;
  std::optional<double> measured;
  bool trusted;
  Status expected;
  std::optional<double> margin_pct;
};
}  // namespace

TEST(Verdict, JudgesEveryCaseOfTheTable) {
  const Case cases[] = {
      {"iops above min passes", {Bound::min, 1000, 0}, 1200, true, Status::pass, 20},
      {"iops exactly at min passes", {Bound::min, 1000, 0}, 1000, true, Status::pass, 0},
      {"iops below min fails", {Bound::min, 1000, 0}, 900, true, Status::fail, -10},
      {"iops below min within tolerance passes", {Bound::min, 1000, 10}, 905, true, Status::pass, -9.5},
      {"iops below tolerance fails", {Bound::min, 1000, 5}, 940, true, Status::fail, -6},
      {"latency under max passes", {Bound::max, 200, 0}, 150, true, Status::pass, 25},
      {"latency over max fails", {Bound::max, 200, 0}, 250, true, Status::fail, -25},
      {"latency over max within tolerance passes", {Bound::max, 200, 25}, 250, true, Status::pass, -25},
      {"untrusted good numbers are inconclusive", {Bound::min, 1000, 0}, 5000, false, Status::inconclusive, 400},
      {"untrusted bad numbers are inconclusive", {Bound::max, 100, 0}, 5000, false, Status::inconclusive, -4900},
      {"nothing measured is not evaluated", {Bound::min, 1000, 0}, std::nullopt, true, Status::not_evaluated, std::nullopt},
  };
  for (const auto& c : cases) {
    Validity v{c.trusted, c.trusted ? "" : "steady state not attained in 25 rounds"};
    MetricVerdict mv = judge("t", "m", c.limit, c.measured, v);
    EXPECT_EQ(mv.status, c.expected) << c.name << ": " << mv.reason;
    ASSERT_EQ(mv.margin_pct.has_value(), c.margin_pct.has_value()) << c.name;
    if (c.margin_pct) {
      EXPECT_NEAR(*mv.margin_pct, *c.margin_pct, 1e-9) << c.name;
    }
    EXPECT_FALSE(mv.reason.empty()) << c.name;
    if (!c.trusted) {
      EXPECT_NE(mv.reason.find("steady state"), std::string::npos) << c.name;
    }
  }
}

TEST(Verdict, DeviceFailsOnAnyFailEvenWithPasses) {
  Rollup pass{Status::pass, {}}, fail{Status::fail, {"x"}};
  EXPECT_EQ(rollup_device({pass, fail, pass}, {}).status, Status::fail);
}

TEST(Verdict, DeviceFailsWhenUnhealthyOrWithIoErrorsThoughEveryLimitWasMet) {
  Rollup pass{Status::pass, {}};
  DeviceFacts sick;
  sick.unhealthy = true;
  sick.health_problems = {"critical warning 0x04"};
  auto r = rollup_device({pass}, sick);
  EXPECT_EQ(r.status, Status::fail);
  ASSERT_FALSE(r.reasons.empty());
  EXPECT_NE(r.reasons.back().find("critical warning"), std::string::npos);
  DeviceFacts errors;
  errors.io_errors = 3;
  EXPECT_EQ(rollup_device({pass}, errors).status, Status::fail);
}

TEST(Verdict, DeviceIsInconclusiveWhenRequiredPreconditioningIsMissing) {
  DeviceFacts f;
  f.required_missing = true;
  f.required_missing_reason = "preconditioning stopped by the time cap after 0.4 of 2 capacities";
  auto r = rollup_device({Rollup{Status::pass, {}}}, f);
  EXPECT_EQ(r.status, Status::inconclusive);
  // A FAIL stays a FAIL.
  EXPECT_EQ(rollup_device({Rollup{Status::fail, {}}}, f).status, Status::fail);
}

TEST(Verdict, DeviceWithNoLimitsIsNotEvaluated) {
  EXPECT_EQ(rollup_device({Rollup{}, Rollup{}}, {}).status, Status::not_evaluated);
  EXPECT_EQ(rollup_device({Rollup{Status::not_evaluated, {}}, Rollup{Status::pass, {}}}, {}).status, Status::pass);
}

TEST(Verdict, OverallIsTheWorstDevice) {
  EXPECT_EQ(rollup_overall({Status::pass, Status::inconclusive, Status::pass}), Status::inconclusive);
  EXPECT_EQ(rollup_overall({Status::pass, Status::fail, Status::inconclusive}), Status::fail);
  EXPECT_EQ(rollup_overall({}), Status::not_evaluated);
}

TEST(Verdict, ExitCodesFollowTheDesign) {
  EXPECT_EQ(exit_code(Status::pass, false), 0);
  EXPECT_EQ(exit_code(Status::not_evaluated, false), 0);
  EXPECT_EQ(exit_code(Status::fail, false), 1);
  EXPECT_EQ(exit_code(Status::inconclusive, false), 4);
  EXPECT_EQ(exit_code(Status::pass, true), 3);
  EXPECT_EQ(exit_code(Status::fail, true), 3);
}

TEST(Verdict, StatusNamesRoundTrip) {
  for (auto s : {Status::pass, Status::fail, Status::inconclusive, Status::not_evaluated}) EXPECT_EQ(parse_status(to_string(s)), s);
  EXPECT_EQ(to_string(Status::not_evaluated), "NOT-EVALUATED");
}
