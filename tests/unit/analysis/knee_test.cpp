// The max-iops knee and the Little's-law check.
#include "runner/analysis/knee.hpp"

#include <gtest/gtest.h>

using namespace diskvet::runner;

namespace {
SweepPoint point(uint32_t outstanding, double iops) {
  SweepPoint p;
  p.iodepth = outstanding;
  p.outstanding = outstanding;
  p.iops = iops;
  return p;
}

// A measurement of `seconds` with `ios` completions of `lat_ns` each, on one direction.
Measurement measured(uint32_t iodepth, uint32_t numjobs, uint64_t ios, uint64_t lat_ns, double seconds, double cpu_s = 0) {
  Measurement m;
  m.workload.iodepth = iodepth;
  m.workload.numjobs = numjobs;
  m.elapsed_s = seconds;
  m.usr_cpu_s = cpu_s;
  m.dir[0].ios = ios;
  for (uint64_t i = 0; i < ios; ++i) m.dir[0].lat.record(lat_ns);
  return m;
}
}  // namespace

TEST(Knee, SweepStopsWhenTheGainDropsBelowTheThreshold) {
  // The array guide's curve: QD1 30K, QD64 107K, QD256 142K, QD512 146K.
  std::vector<SweepPoint> pts{point(1, 30000)};
  EXPECT_FALSE(sweep_should_stop(pts, 5));
  pts.push_back(point(64, 107000));
  EXPECT_FALSE(sweep_should_stop(pts, 5));
  pts.push_back(point(256, 142000));
  EXPECT_FALSE(sweep_should_stop(pts, 5));
  pts.push_back(point(512, 146000));
  EXPECT_TRUE(sweep_should_stop(pts, 5));
  EXPECT_NEAR(pts.back().gain_pct, 400.0 / 142, 1e-9);
  EXPECT_EQ(knee_index(pts), 3u);  // the best point of the curve
}

TEST(Knee, KneeIsTheBestPointEvenWhenTheLastStepLostIops) {
  std::vector<SweepPoint> pts{point(1, 1000), point(8, 5000), point(32, 4800)};
  EXPECT_TRUE(sweep_should_stop(pts, 5));
  EXPECT_LT(pts.back().gain_pct, 0);
  EXPECT_EQ(knee_index(pts), 1u);
}

TEST(LittlesLaw, DeviceBoundWhenTheQueueStaysFull) {
  // QD32: 32 outstanding / 100 us = 320k IOPS; 1 s with 320k I/Os of 100 us each.
  auto c = little_check(measured(32, 1, 320000, 100'000, 1.0, 0.3));
  EXPECT_NEAR(c.measured_outstanding, 32.0, 0.01);
  EXPECT_TRUE(c.queue_kept_full);
  EXPECT_FALSE(c.runner_bound);
}

TEST(LittlesLaw, RunnerBoundWhenTheQueueRunsDry) {
  // QD32 configured, but IOPS x latency says 4 were outstanding: the tool could not keep up.
  auto c = little_check(measured(32, 1, 40000, 100'000, 1.0, 0.5));
  EXPECT_NEAR(c.measured_outstanding, 4.0, 0.01);
  EXPECT_FALSE(c.queue_kept_full);
  EXPECT_TRUE(c.runner_bound);
  EXPECT_NE(c.note.find("bottleneck"), std::string::npos);
}

TEST(LittlesLaw, RunnerBoundWhenJobThreadsAreBusyAllTheTime) {
  auto c = little_check(measured(1, 2, 20000, 100'000, 1.0, 1.9));
  EXPECT_NEAR(c.job_cpu_busy_pct, 95.0, 0.01);
  EXPECT_TRUE(c.runner_bound);
}

TEST(LittlesLaw, DoesNotApplyToRateCappedWorkloads) {
  Measurement m = measured(32, 1, 1000, 100'000, 1.0);
  m.workload.rate_iops = {1000, 1000};
  auto c = little_check(m);
  EXPECT_FALSE(c.applies);
  EXPECT_FALSE(c.runner_bound);
}

TEST(LittlesLaw, ADeviceHoldingItsIosIsNeverBlamedOnTheRunner) {
  // The VM lab's hung drive: QD4, 20 s window, a few fast I/Os then four held for the rest of it.
  // IOPS x mean latency says 0.3 outstanding; the sampler saw all four in flight almost throughout.
  Measurement m = measured(4, 1, 600, 10'000'000, 20.0, 0.8);
  m.inflight_samples = 400;
  m.inflight_sum = 400 * 3.9;
  auto c = little_check(m);
  EXPECT_NEAR(c.littles_outstanding, 0.3, 0.01);
  ASSERT_TRUE(c.sampled_inflight);
  EXPECT_NEAR(c.measured_outstanding, 3.9, 1e-9);
  EXPECT_TRUE(c.queue_kept_full);
  EXPECT_FALSE(c.runner_bound);
  EXPECT_NE(c.note.find("the device set the pace"), std::string::npos) << c.note;
}

TEST(LittlesLaw, FewIosInFlightWhereManyWereConfiguredIsTheRunner) {
  Measurement m = measured(32, 1, 320000, 100'000, 1.0, 0.5);  // IOPS x latency alone: 32, looks full
  m.inflight_samples = 20;
  m.inflight_sum = 20 * 3.0;
  auto c = little_check(m);
  EXPECT_FALSE(c.queue_kept_full);
  EXPECT_TRUE(c.runner_bound);
  EXPECT_NE(c.note.find("3.0 of 32 I/Os in flight"), std::string::npos) << c.note;
}

TEST(LittlesLaw, APollingJobIsBusyByDesignAndNotRunnerBoundForIt) {
  // latency-qd1 with spin: the job thread spins on its completion queue, 100% busy, QD1 always out.
  Measurement m = measured(1, 1, 20000, 50'000, 1.0, 1.0);
  m.workload.spin_us = 100;
  m.inflight_samples = 20;
  m.inflight_sum = 20;
  auto c = little_check(m);
  EXPECT_TRUE(c.polling);
  EXPECT_FALSE(c.runner_bound);
  EXPECT_NE(c.note.find("polling"), std::string::npos) << c.note;
  // The same busy thread without polling is the runner's pace.
  m.workload.spin_us = 0;
  EXPECT_TRUE(little_check(m).runner_bound);
}
