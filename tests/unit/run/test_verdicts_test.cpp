// Which workload answers which metric, and when numbers are not trusted.
#include "runner/run/test_verdicts.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "runner/run/outliers.hpp"

using namespace diskvet;
using namespace diskvet::runner;

namespace {

WorkloadRecord record(Pattern rw, uint64_t read_ios, uint64_t write_ios, uint64_t lat_ns) {
  WorkloadRecord r;
  r.workload.rw = rw;
  r.ran = true;
  r.result.workload = r.workload;
  r.result.elapsed_s = 1.0;
  r.result.dir[0].ios = read_ios;
  r.result.dir[1].ios = write_ios;
  for (uint64_t i = 0; i < read_ios; ++i) r.result.dir[0].lat.record(lat_ns);
  for (uint64_t i = 0; i < write_ios; ++i) r.result.dir[1].lat.record(lat_ns);
  return r;
}

suites::TestLimits limits(std::initializer_list<std::tuple<const char*, Limit::Bound, double>> l) {
  suites::TestLimits t;
  t.test_id = "t";
  for (auto [name, bound, value] : l) t.limits.push_back({name, *parse_metric(name), Limit{bound, value, 0}, ""});
  return t;
}

}  // namespace

TEST(TestVerdicts, UnprefixedMetricAppliesToEachDirectionTheTestMeasures) {
  TestRecord t;
  t.id = "latency-qd1";
  t.workloads = {record(Pattern::randread, 1000, 0, 80'000), record(Pattern::randwrite, 0, 1000, 20'000)};
  auto l = limits({{"lat_mean_us", Limit::Bound::max, 50}});
  auto v = judge_test(t, &l, {});
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].metric, "read.lat_mean_us");
  EXPECT_EQ(v[0].status, VerdictStatus::fail);
  EXPECT_NEAR(*v[0].measured, 80.0, 0.01);
  EXPECT_EQ(v[1].metric, "write.lat_mean_us");
  EXPECT_EQ(v[1].status, VerdictStatus::pass);
}

TEST(TestVerdicts, TotalAddsBothDirectionsOfTheMixedWorkload) {
  TestRecord t;
  t.workloads = {record(Pattern::randrw, 700, 300, 50'000)};
  auto l = limits({{"total.iops", Limit::Bound::min, 999}, {"write.iops", Limit::Bound::min, 301}});
  auto v = judge_test(t, &l, {});
  ASSERT_EQ(v.size(), 2u);
  EXPECT_NEAR(*v[0].measured, 1000, 1e-9);
  EXPECT_EQ(v[0].status, VerdictStatus::pass);
  EXPECT_EQ(v[1].status, VerdictStatus::fail);
}

TEST(TestVerdicts, LatencyLimitsUseTheBucketUpperEdge) {
  TestRecord t;
  t.workloads = {record(Pattern::randread, 0, 0, 0)};
  DirectionResult& rd = t.workloads[0].result.dir[0];
  // Exact p99 is 99.9 us, under a max of 100 us; its histogram bucket reaches up to 100.351 us.
  for (int i = 0; i < 99; ++i) rd.lat.record(99'900);
  rd.lat.record(200'000);
  rd.ios = 100;
  auto l = limits({{"lat_p99_us", Limit::Bound::max, 100}});
  auto v = judge_test(t, &l, {});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NEAR(*v[0].measured, 100.351, 1e-9);
  EXPECT_EQ(v[0].status, VerdictStatus::fail) << "latency must never be under-stated";
}

TEST(TestVerdicts, UnwrittenRegionMakesReadsInconclusiveButNotWrites) {
  TestRecord t;
  t.workloads = {record(Pattern::randread, 1000, 0, 10'000), record(Pattern::randwrite, 0, 1000, 10'000)};
  auto l = limits({{"iops", Limit::Bound::min, 10}});
  TrustFacts trust;
  trust.region_unwritten = true;
  trust.unwritten_detail = "the region was never written";
  auto v = judge_test(t, &l, trust);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].status, VerdictStatus::inconclusive);
  EXPECT_NE(v[0].reason.find("never written"), std::string::npos);
  EXPECT_EQ(v[1].status, VerdictStatus::pass);
}

TEST(TestVerdicts, SteadyStateRequiredAndMissingIsInconclusive) {
  TestRecord t;
  t.workloads = {record(Pattern::randwrite, 0, 1000, 10'000)};
  t.workloads[0].steady_required = true;
  t.workloads[0].steady_state = SteadyStateResult{false, 25, std::nullopt, {}};
  auto l = limits({{"iops", Limit::Bound::min, 10}});
  auto v = judge_test(t, &l, {});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].status, VerdictStatus::inconclusive);
  EXPECT_NE(v[0].reason.find("steady state not attained"), std::string::npos);
}

TEST(TestVerdicts, AMetricTheTestDoesNotMeasureIsNotEvaluated) {
  TestRecord t;
  t.workloads = {record(Pattern::randread, 1000, 0, 10'000)};
  auto l = limits({{"write.iops", Limit::Bound::min, 10}});
  auto v = judge_test(t, &l, {});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].status, VerdictStatus::not_evaluated);
}

TEST(TestVerdicts, AWorkloadThatMeasuredNothingSaysWhetherItsJobsIssuedAnything) {
  // A QD1 write workload of 0.5 s measured no write on a loaded machine: whether its I/O was out
  // across the whole window or its job never ran is what the reader needs next.
  auto l = limits({{"write.lat_mean_us", Limit::Bound::max, 1e7}});
  TestRecord t;
  t.workloads = {record(Pattern::randwrite, 0, 0, 0)};
  t.workloads[0].workload.ramp_s = 0.5;
  t.workloads[0].workload.runtime_s = 0.5;
  t.workloads[0].result.elapsed_s = 0.5;
  auto v = judge_test(t, &l, {});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].status, VerdictStatus::not_evaluated);
  EXPECT_NE(v[0].reason.find("the randwrite workload measured no write I/O: its jobs issued none in the 1 s of ramp and window"), std::string::npos)
      << v[0].reason;
  t.workloads[0].result.ios_issued = 1;
  v = judge_test(t, &l, {});
  EXPECT_NE(v[0].reason.find(": 1 I/O(s) issued (ramp included), none completed inside the 0.5 s window"), std::string::npos) << v[0].reason;
  t.workloads[0].result.io_errors = 1;
  v = judge_test(t, &l, {});
  EXPECT_NE(v[0].reason.find(": 1 I/O error(s)"), std::string::npos) << v[0].reason;
}

TEST(TestVerdicts, AWorkloadThatCouldNotStartMakesTheTestAnError) {
  // One workload measured and met its limit, the other could not set up its ring: not a PASS.
  TestRecord t;
  t.id = "latency-qd1";
  WorkloadRecord failed;
  failed.workload.rw = Pattern::randwrite;
  failed.error = "io_uring_queue_init: Operation not permitted";
  t.workloads = {record(Pattern::randread, 1000, 0, 10'000), failed};
  auto l = limits({{"read.iops", Limit::Bound::min, 10}});
  t.verdicts = judge_test(t, &l, {});
  ASSERT_EQ(t.verdicts.size(), 1u);
  EXPECT_EQ(t.verdicts[0].status, VerdictStatus::pass);
  Rollup r = rollup_test(t, &l, "");
  EXPECT_EQ(r.status, VerdictStatus::error);
  ASSERT_FALSE(r.reasons.empty());
  EXPECT_NE(r.reasons.back().find("randwrite workload could not run: io_uring_queue_init: Operation not permitted"), std::string::npos)
      << r.reasons.back();
}

TEST(TestVerdicts, ALimitOnAWorkloadThatDidNotRunIsNotEvaluatedAndTheTestIsNotPass) {
  TestRecord t;
  t.id = "t";
  WorkloadRecord failed;
  failed.workload.rw = Pattern::randread;
  failed.error = "cannot open the target";
  t.workloads = {failed};
  auto l = limits({{"read.iops", Limit::Bound::min, 10}});
  t.verdicts = judge_test(t, &l, {});
  ASSERT_EQ(t.verdicts.size(), 1u);
  EXPECT_EQ(t.verdicts[0].status, VerdictStatus::not_evaluated);
  EXPECT_EQ(rollup_test(t, &l, "").status, VerdictStatus::error);
}

TEST(TestVerdicts, ATestWithoutLimitsIsNotJudgedUnlessItVerifiesItsData) {
  TestRecord t;
  t.id = "max-iops";
  t.workloads = {record(Pattern::randread, 1000, 0, 10'000)};
  Rollup r = rollup_test(t, nullptr, "no profile: no shipped profile matches model 'X'");
  EXPECT_EQ(r.status, VerdictStatus::not_judged);
  ASSERT_EQ(r.reasons.size(), 1u);
  EXPECT_EQ(r.reasons[0], "max-iops: not judged: no profile: no shipped profile matches model 'X'");
  // A burn-in test whose every workload verifies its data judges itself (DeviceFacts decide).
  t.workloads[0].workload.verify = true;
  EXPECT_EQ(rollup_test(t, nullptr, "no profile").status, VerdictStatus::pass);
  // ...but not when one of its workloads does not verify.
  t.workloads.push_back(record(Pattern::randwrite, 0, 1000, 10'000));
  EXPECT_EQ(rollup_test(t, nullptr, "no profile").status, VerdictStatus::not_judged);
}

TEST(TestVerdicts, AVerifyTestThatReadBadDataOrHitIoErrorsFailsItselfNotOnlyItsDevice) {
  TestRecord t;
  t.id = "sequential-read-verify";
  t.workloads = {record(Pattern::read, 1000, 0, 10'000)};
  t.workloads[0].workload.verify = true;
  ASSERT_EQ(rollup_test(t, nullptr, "no profile").status, VerdictStatus::pass);
  t.workloads[0].result.verify.mismatches = 3;
  t.workloads[0].result.verify.bad_blocks = 1;
  Rollup bad = rollup_test(t, nullptr, "no profile");
  EXPECT_EQ(bad.status, VerdictStatus::fail);
  ASSERT_EQ(bad.reasons.size(), 1u);
  EXPECT_EQ(bad.reasons[0], "sequential-read-verify: 1 bad block found by 3 reads");
  // I/O errors fail a test with limits too, even when every number it measured passes.
  TestRecord p;
  p.id = "t";
  p.workloads = {record(Pattern::randread, 1000, 0, 10'000)};
  p.workloads[0].result.io_errors = 2;
  auto l = limits({{"read.iops", Limit::Bound::min, 10}});
  p.verdicts = judge_test(p, &l, TrustFacts{});
  Rollup r = rollup_test(p, &l, "");
  EXPECT_EQ(r.status, VerdictStatus::fail);
  EXPECT_NE(std::find(r.reasons.begin(), r.reasons.end(), "t: 2 I/O errors"), r.reasons.end());
}

// A cloud volume's burst outlasting the ramp: the window holds burst and baseline, so a floor on the
// baseline is not judged on it (INCONCLUSIVE), even though the mixed number clears the floor. Spent
// inside the ramp, the window is the baseline and is judged.
TEST(TestVerdicts, ABurstThatEndsInsideTheMeasuredWindowIsNotJudgedOnTheMixedNumber) {
  auto bursting = [](int ramp_burst_s, int window_burst_s) {
    WorkloadRecord r = record(Pattern::randread, 0, 0, 10'000);
    r.workload.ramp_s = 15;
    r.result.ramp_bucket_s = 1;
    auto sample = [](double t, uint64_t ios) {
      IntervalSample s;
      s.t_s = t;
      s.dur_s = 1;
      s.ios[0] = ios;
      s.bytes[0] = ios * 4096;
      return s;
    };
    for (int i = 0; i < 15; ++i) r.result.ramp_intervals.push_back(sample(i, i < ramp_burst_s ? 1000 : 60));
    uint64_t ios = 0;
    for (int i = 0; i < 10; ++i) {
      const uint64_t n = i < window_burst_s ? 1000 : 60;
      r.result.intervals.push(sample(i, n));
      ios += n;
    }
    r.result.elapsed_s = 10;
    r.result.dir[0].ios = ios;
    for (uint64_t i = 0; i < ios; ++i) r.result.dir[0].lat.record(10'000);
    return r;
  };
  auto l = limits({{"read.iops", Limit::Bound::min, 100}});
  TestRecord late;
  late.id = "t";
  late.workloads = {bursting(15, 3)};  // 354 IOPS on average: above the floor only thanks to the burst
  auto v = judge_test(late, &l, TrustFacts{});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].status, VerdictStatus::inconclusive) << v[0].reason;
  EXPECT_NE(v[0].reason.find("fell inside the measured window"), std::string::npos) << v[0].reason;
  TestRecord spent;
  spent.id = "t";
  spent.workloads = {bursting(10, 0)};  // 60 IOPS: the baseline, judged and short of the floor
  v = judge_test(spent, &l, TrustFacts{});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].status, VerdictStatus::fail) << v[0].reason;
}

TEST(TestVerdicts, ATestThatNeverStartedIsAnError) {
  TestRecord t;
  t.id = "t";
  auto l = limits({{"read.iops", Limit::Bound::min, 10}});
  EXPECT_EQ(rollup_test(t, &l, "").status, VerdictStatus::error);
}

TEST(Outliers, FlagsTheDeviceMoreThanTenPercentWorseThanTheMedian) {
  std::vector<DeviceResult> devs(4);
  const double iops[] = {10000, 10200, 9900, 7000};
  for (size_t i = 0; i < devs.size(); ++i) {
    devs[i].device.model = "SAME MODEL";
    devs[i].device.path = "/dev/x" + std::to_string(i);
    TestRecord t;
    t.id = "latency-qd1";
    t.workloads = {record(Pattern::randread, static_cast<uint64_t>(iops[i]), 0, 50'000)};
    devs[i].tests.push_back(t);
  }
  flag_outliers(devs);
  EXPECT_TRUE(devs[0].outliers.empty());
  EXPECT_TRUE(devs[1].outliers.empty());
  EXPECT_TRUE(devs[2].outliers.empty());
  ASSERT_EQ(devs[3].outliers.size(), 1u);
  EXPECT_EQ(devs[3].outliers[0].metric, "workloads[0].read.iops");
  EXPECT_NEAR(devs[3].outliers[0].worse_pct, (9950.0 - 7000) / 9950 * 100, 1e-6);
}

TEST(Outliers, NeedsThreeDevicesOfOneModel) {
  std::vector<DeviceResult> devs(3);
  const char* models[] = {"A", "A", "B"};
  for (size_t i = 0; i < 3; ++i) {
    devs[i].device.model = models[i];
    TestRecord t;
    t.id = "x";
    t.workloads = {record(Pattern::randread, i == 0 ? 100 : 10000, 0, 50'000)};
    devs[i].tests.push_back(t);
  }
  flag_outliers(devs);
  for (const auto& d : devs) EXPECT_TRUE(d.outliers.empty());
}
