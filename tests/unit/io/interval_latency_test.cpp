// Per-interval latency: the sampler's reads of a job's histogram while it records, and the interval p99.
#include "runner/io/interval_latency.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "runner/io/job_loop.hpp"
#include "tests/unit/io/recording_backend.hpp"

using namespace diskvet::runner;
using diskvet::testing::RecordingBackend;

namespace {

// Completes each I/O at once, except those listed, which take at least `slow_ns` (QD1: one at a time).
class SlowSomeBackend {
 public:
  SlowSomeBackend(std::vector<uint64_t> slow, uint64_t slow_ns) : slow_(std::move(slow)), slow_ns_(slow_ns) {}
  void stage(uint32_t slot, Direction, uint64_t, uint32_t len) { staged_.push_back({slot, static_cast<int32_t>(len)}); }
  int submit_and_wait(unsigned) {
    for (size_t i = 0; i < staged_.size(); ++i, ++n_)
      if (std::find(slow_.begin(), slow_.end(), n_) != slow_.end()) SystemClock().sleep_until_ns(now_ns() + slow_ns_);
    ready_.swap(staged_);
    staged_.clear();
    return 0;
  }
  template <typename F>
  void reap(F&& f) {
    for (auto c : ready_) f(c);
    ready_.clear();
  }
  uint64_t syscalls() const { return n_; }

 private:
  std::vector<uint64_t> slow_;
  uint64_t slow_ns_;
  uint64_t n_ = 0;
  std::vector<Completion> staged_, ready_;
};

JobPlan qd1_randread(uint64_t ios) {
  JobPlan p;
  p.rw = Pattern::randread;
  p.region_blocks = 1000;
  p.depth = 1;
  p.io_limit_bytes = ios * p.bs_bytes;
  return p;
}

Timeline open_ended() {
  Timeline tl;
  tl.start_ns = now_ns();
  tl.ramp_end_ns = tl.start_ns;
  tl.end_ns = tl.start_ns + 3'600'000'000'000ull;
  return tl;
}

}  // namespace

TEST(IntervalLatency, P99IsTheUpperEdgeOfTheBucketHoldingTheNearestRank) {
  LatencyBuckets b;
  for (uint64_t us = 1; us <= 1000; ++us) b.record(us * 1000);
  uint64_t p99 = b.percentile_ns(99);  // rank 990: 990 us
  EXPECT_GE(p99, 990'000u);
  EXPECT_LE(p99, 990'000u + 990'000u / 128);
  EXPECT_EQ(p99, LatencyHistogram::bucket_high(LatencyHistogram::bucket_of(990'000)));
  EXPECT_EQ(LatencyBuckets{}.percentile_ns(99), 0u);
}

TEST(IntervalLatency, EachIntervalGetsWhatTheJobsHistogramGainedSinceThePreviousOne) {
  std::array<DirectionResult, kDirections> job;
  IntervalLatencyReader reader;
  for (int i = 0; i < 99; ++i) job[0].lat.record(100);
  job[0].lat.record(50'000);
  job[1].lat.record(7'000);
  IntervalLatencyTotals first, second, third;
  reader.take(job, first);
  job[0].lat.record(1'000'000);  // the next interval's
  reader.take(job, second);
  reader.take(job, third);  // nothing new: nothing taken twice
  IntervalSample s;
  first.fill(s);
  EXPECT_EQ(s.lat_samples[0], 100u);
  EXPECT_EQ(s.lat_samples[1], 1u);
  EXPECT_EQ(s.lat_p99_ns[0], 100u);  // rank 99 of 100: the fast ones
  EXPECT_EQ(s.lat_p99_ns[1], LatencyHistogram::bucket_high(LatencyHistogram::bucket_of(7'000)));
  EXPECT_EQ(s.total_lat_p99_ns, LatencyHistogram::bucket_high(LatencyHistogram::bucket_of(7'000)));  // rank 100 of 101
  EXPECT_EQ(second.count(), 1u);
  EXPECT_EQ(second.dir[0].percentile_ns(99), LatencyHistogram::bucket_high(LatencyHistogram::bucket_of(1'000'000)));
  EXPECT_EQ(third.count(), 0u);
}

TEST(IntervalLatency, AnOverflowedLatencyIsCountedAndReportedAsAtLeastTheLimit) {
  std::array<DirectionResult, kDirections> job;
  IntervalLatencyReader reader;
  job[0].lat.record(10);
  job[0].lat.record(LatencyHistogram::kLimitNs + 5);
  IntervalLatencyTotals t;
  reader.take(job, t);
  EXPECT_EQ(t.dir[0].count(), 2u);
  EXPECT_EQ(t.dir[0].percentile_ns(99), LatencyHistogram::kLimitNs);
  EXPECT_EQ(t.dir[0].percentile_ns(50), 10u);
}

TEST(IntervalLatency, TheJobLoopsLatenciesReachTheIntervalWithTheRunsPrecision) {
  // 3 of 200 I/Os take at least 4 ms: they are ranks 198..200, so the p99 (rank 198) is one of them.
  SlowSomeBackend backend({20, 100, 150}, 4'000'000);
  JobResult res;
  LiveCounters live;
  std::atomic<bool> stop{false};
  run_job(backend, qd1_randread(200), open_ended(), stop, live, res);
  IntervalLatencyReader reader;
  IntervalLatencyTotals totals;
  reader.take(res.dir, totals);
  ASSERT_EQ(totals.dir[0].count(), 200u);
  EXPECT_EQ(totals.dir[1].count(), 0u);
  uint64_t p99 = totals.dir[0].percentile_ns(99);
  EXPECT_GE(p99, 4'000'000u);
  // The same bucket as the run's p99, which is clamped to the exact max.
  EXPECT_EQ(LatencyHistogram::bucket_of(p99), LatencyHistogram::bucket_of(res.dir[0].lat.percentile_ns(99)));
  EXPECT_LE(res.dir[0].lat.percentile_ns(99), p99);
}

TEST(IntervalLatency, ReadingWhileTheJobRunsNeverLosesOrDoubleCountsAnIo) {
  RecordingBackend backend;
  JobPlan plan;
  plan.rw = Pattern::randrw;
  plan.read_pct = 70;
  plan.region_blocks = 1 << 20;
  plan.depth = 8;
  JobResult res;
  LiveCounters live;
  std::atomic<bool> stop{false};
  Timeline tl = open_ended();
  std::thread job([&] { run_job(backend, plan, tl, stop, live, res); });
  IntervalLatencyReader reader;
  IntervalLatencyTotals sum;
  int nonempty = 0;
  while (nonempty < 50) {  // 50 intervals that saw I/O, read while the job was recording
    IntervalLatencyTotals interval;
    reader.take(res.dir, interval);
    nonempty += interval.count() > 0;
    for (size_t d = 0; d < kDirections; ++d) sum.dir[d].merge(interval.dir[d]);
    std::this_thread::yield();
  }
  stop.store(true);
  job.join();
  reader.take(res.dir, sum);
  ASSERT_GT(res.dir[0].ios, 0u);
  for (size_t d = 0; d < kDirections; ++d) {
    EXPECT_EQ(sum.dir[d].count(), res.dir[d].lat.count()) << d;
    EXPECT_EQ(sum.dir[d].count(), res.dir[d].ios) << d;
  }
}

TEST(IntervalSeries, MergedNeighboursKeepTheLargerP99AsAnUpperBound) {
  IntervalSeries series;
  for (size_t i = 0; i <= IntervalSeries::kMaxSamples; ++i) {
    IntervalSample s;
    s.dur_s = 1;
    s.ios = {10, 0};
    s.lat_samples = {10, 0};
    s.lat_p99_ns = {i % 2 ? 300u : 100u, 0};
    s.total_lat_p99_ns = s.lat_p99_ns[0];
    series.push(s);
  }
  ASSERT_EQ(series.size(), IntervalSeries::kMaxSamples / 2 + 1);
  EXPECT_EQ(series.samples()[0].lat_p99_ns[0], 300u);
  EXPECT_EQ(series.samples()[0].total_lat_p99_ns, 300u);
  EXPECT_EQ(series.samples()[0].lat_samples[0], 20u);
}
