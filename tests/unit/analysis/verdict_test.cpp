// Verdict logic: limits with tolerance, untrusted measurements, roll-ups and exit codes.
#include "runner/analysis/verdict.hpp"

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
  VerdictStatus expected;
  std::optional<double> margin_pct;
};
}  // namespace

TEST(Verdict, JudgesEveryCaseOfTheTable) {
  const Case cases[] = {
      {"iops above min passes", {Bound::min, 1000, 0}, 1200, true, VerdictStatus::pass, 20},
      {"iops exactly at min passes", {Bound::min, 1000, 0}, 1000, true, VerdictStatus::pass, 0},
      {"iops below min fails", {Bound::min, 1000, 0}, 900, true, VerdictStatus::fail, -10},
      {"iops below min within tolerance passes", {Bound::min, 1000, 10}, 905, true, VerdictStatus::pass, -9.5},
      {"iops below tolerance fails", {Bound::min, 1000, 5}, 940, true, VerdictStatus::fail, -6},
      {"latency under max passes", {Bound::max, 200, 0}, 150, true, VerdictStatus::pass, 25},
      {"latency over max fails", {Bound::max, 200, 0}, 250, true, VerdictStatus::fail, -25},
      {"latency over max within tolerance passes", {Bound::max, 200, 25}, 250, true, VerdictStatus::pass, -25},
      {"untrusted good numbers are inconclusive", {Bound::min, 1000, 0}, 5000, false, VerdictStatus::inconclusive, 400},
      {"untrusted bad numbers are inconclusive", {Bound::max, 100, 0}, 5000, false, VerdictStatus::inconclusive, -4900},
      {"nothing measured is not evaluated", {Bound::min, 1000, 0}, std::nullopt, true, VerdictStatus::not_evaluated, std::nullopt},
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
  Rollup pass{VerdictStatus::pass, {}}, fail{VerdictStatus::fail, {"x"}};
  EXPECT_EQ(rollup_device({pass, fail, pass}, {}).status, VerdictStatus::fail);
}

TEST(Verdict, DeviceFailsWhenUnhealthyOrWithIoErrorsThoughEveryLimitWasMet) {
  Rollup pass{VerdictStatus::pass, {}};
  DeviceFacts sick;
  sick.unhealthy = true;
  sick.health_problems = {"critical warning 0x04"};
  auto r = rollup_device({pass}, sick);
  EXPECT_EQ(r.status, VerdictStatus::fail);
  ASSERT_FALSE(r.reasons.empty());
  EXPECT_NE(r.reasons.back().find("critical warning"), std::string::npos);
  DeviceFacts errors;
  errors.io_errors = 3;
  EXPECT_EQ(rollup_device({pass}, errors).status, VerdictStatus::fail);
  errors.io_error_detail = "read at LBA 32768 (offset 16 MiB) in seqread: Input/output error (errno 5)";
  auto named = rollup_device({pass}, errors);
  ASSERT_FALSE(named.reasons.empty());
  EXPECT_EQ(named.reasons.back(), "3 I/O errors (first: read at LBA 32768 (offset 16 MiB) in seqread: Input/output error (errno 5))");
}

TEST(Verdict, DeviceIsInconclusiveWhenRequiredPreconditioningIsMissing) {
  DeviceFacts f;
  f.required_missing = true;
  f.required_missing_reason = "preconditioning stopped by the time cap after 0.4 of 2 capacities";
  auto r = rollup_device({Rollup{VerdictStatus::pass, {}}}, f);
  EXPECT_EQ(r.status, VerdictStatus::inconclusive);
  // A FAIL stays a FAIL.
  EXPECT_EQ(rollup_device({Rollup{VerdictStatus::fail, {}}}, f).status, VerdictStatus::fail);
}

TEST(Verdict, NothingJudgedIsNeverPass) {
  // Tests without limits roll up NOT-JUDGED; one of them beside a PASS keeps the device unjudged.
  EXPECT_EQ(rollup_device({Rollup{}, Rollup{}}, {}).status, VerdictStatus::not_judged);
  EXPECT_EQ(rollup_device({Rollup{VerdictStatus::not_judged, {"no profile"}}, Rollup{VerdictStatus::pass, {}}}, {}).status,
            VerdictStatus::not_judged);
  // No test at all is not a PASS either.
  auto none = rollup_device({}, {});
  EXPECT_EQ(none.status, VerdictStatus::not_judged);
  ASSERT_FALSE(none.reasons.empty());
}

TEST(Verdict, ALimitNotEvaluatedLeavesTheTestNotJudged) {
  MetricVerdict met = judge("t", "read.iops", {Limit::Bound::min, 10, 0}, 20.0);
  MetricVerdict missing = not_evaluated("t", "write.iops", Limit{Limit::Bound::min, 10, 0}, "the workload did not run");
  EXPECT_EQ(rollup_test({met}).status, VerdictStatus::pass);
  auto r = rollup_test({met, missing});
  EXPECT_EQ(r.status, VerdictStatus::not_judged);
  ASSERT_EQ(r.reasons.size(), 1u);
  EXPECT_NE(r.reasons[0].find("the workload did not run"), std::string::npos) << r.reasons[0];
  EXPECT_EQ(rollup_test({}).status, VerdictStatus::not_judged);
}

TEST(Verdict, NotJudgedNeverHidesAFail) {
  EXPECT_EQ(rollup_device({Rollup{VerdictStatus::not_judged, {}}, Rollup{VerdictStatus::fail, {"x"}}}, {}).status, VerdictStatus::fail);
  EXPECT_EQ(rollup_overall({VerdictStatus::not_judged, VerdictStatus::fail}), VerdictStatus::fail);
  EXPECT_EQ(exit_code(rollup_overall({VerdictStatus::not_judged, VerdictStatus::fail}), false), 1);
}

TEST(Verdict, AnAbortedDeviceIsAnErrorNotInconclusive) {
  DeviceFacts f;
  f.aborted = true;
  f.error = "purge nvme-format-user-data-erase did not complete";
  auto r = rollup_device({}, f);
  EXPECT_EQ(r.status, VerdictStatus::error);
  ASSERT_EQ(r.reasons.size(), 1u);
  EXPECT_EQ(r.reasons[0], "aborted: purge nvme-format-user-data-erase did not complete");
  // A test that could not run (ERROR) beside a PASS leaves the device ERROR.
  EXPECT_EQ(rollup_device({Rollup{VerdictStatus::pass, {}}, Rollup{VerdictStatus::error, {"io_uring"}}}, {}).status, VerdictStatus::error);
}

TEST(Verdict, CleanVerificationPassesAndAnyMismatchOrRunProblemFails) {
  DeviceFacts clean;
  clean.verifies = true;
  clean.verified_blocks = 1000;
  // A verifying test has no limits and judges itself (PASS); the device's verification decides.
  EXPECT_EQ(rollup_device({Rollup{VerdictStatus::pass, {}}}, clean).status, VerdictStatus::pass);
  DeviceFacts nothing_read = clean;
  nothing_read.verified_blocks = 0;
  EXPECT_EQ(rollup_device({Rollup{VerdictStatus::pass, {}}}, nothing_read).status, VerdictStatus::not_judged);
  DeviceFacts bad = clean;
  bad.verify_mismatches = 511;
  bad.verify_bad_blocks = 2;
  bad.verify_detail = "stale at LBA 40";
  auto r = rollup_device({Rollup{VerdictStatus::pass, {}}}, bad);
  EXPECT_EQ(r.status, VerdictStatus::fail);
  ASSERT_EQ(r.reasons.size(), 1u);
  // Two bad blocks read 511 times are two blocks, not 511.
  EXPECT_NE(r.reasons[0].find("2 blocks did not hold what was written, found by 511 reads (first: stale at LBA 40)"), std::string::npos)
      << r.reasons[0];
  DeviceFacts hot = clean;
  hot.run_problems.push_back("critical warning 0x02 raised during the run, first seen at 60 s");
  EXPECT_EQ(rollup_device({Rollup{VerdictStatus::pass, {}}}, hot).status, VerdictStatus::fail);
}

TEST(Verdict, OverallIsTheWorstDevice) {
  EXPECT_EQ(rollup_overall({VerdictStatus::pass, VerdictStatus::inconclusive, VerdictStatus::pass}), VerdictStatus::inconclusive);
  EXPECT_EQ(rollup_overall({VerdictStatus::pass, VerdictStatus::fail, VerdictStatus::inconclusive}), VerdictStatus::fail);
  EXPECT_EQ(rollup_overall({VerdictStatus::fail, VerdictStatus::error}), VerdictStatus::error);
  EXPECT_EQ(rollup_overall({}), VerdictStatus::not_judged);
}

TEST(Verdict, ExitCodesFollowTheDesign) {
  EXPECT_EQ(exit_code(VerdictStatus::pass, false), 0);
  EXPECT_EQ(exit_code(VerdictStatus::fail, false), 1);
  EXPECT_EQ(exit_code(VerdictStatus::error, false), 3);
  EXPECT_EQ(exit_code(VerdictStatus::inconclusive, false), 4);
  EXPECT_EQ(exit_code(VerdictStatus::not_judged, false), 4);
  EXPECT_EQ(exit_code(VerdictStatus::not_evaluated, false), 4);
  EXPECT_EQ(exit_code(VerdictStatus::pass, true), 3);
  EXPECT_EQ(exit_code(VerdictStatus::fail, true), 3);
}

TEST(Verdict, MeasurementOnlyExitsZeroOnlyForWhatWasNotJudged) {
  EXPECT_EQ(exit_code(VerdictStatus::not_judged, false, true), 0);
  EXPECT_EQ(exit_code(VerdictStatus::pass, false, true), 0);
  EXPECT_EQ(exit_code(VerdictStatus::fail, false, true), 1);
  EXPECT_EQ(exit_code(VerdictStatus::error, false, true), 3);
  EXPECT_EQ(exit_code(VerdictStatus::inconclusive, false, true), 4);
  EXPECT_EQ(exit_code(VerdictStatus::not_judged, true, true), 3);
}

TEST(Verdict, StatusNamesRoundTrip) {
  for (auto s : {VerdictStatus::pass, VerdictStatus::fail, VerdictStatus::inconclusive, VerdictStatus::not_evaluated, VerdictStatus::not_judged,
                 VerdictStatus::error})
    EXPECT_EQ(parse_status(to_string(s)), s);
  EXPECT_EQ(to_string(VerdictStatus::not_evaluated), "NOT-EVALUATED");
  EXPECT_EQ(to_string(VerdictStatus::not_judged), "NOT-JUDGED");
  EXPECT_EQ(to_string(VerdictStatus::error), "ERROR");
}
