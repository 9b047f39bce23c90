// The job loop driven through a recording backend: what it issues, where, and what it counts.
#include "runner/io/job_loop.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "runner/io/engine.hpp"
#include "tests/unit/io/recording_backend.hpp"
#include "tests/unit/support/run_job_harness.hpp"

using namespace diskvet::runner;
using diskvet::testing::RecordingBackend;

namespace {

struct JobRun {
  RecordingBackend backend;
  JobResult result;
};

// Runs one job until it has issued `ios` I/Os (io-limited, so the test never depends on speed).
JobRun run_limited(JobPlan plan, uint64_t ios, int32_t fail_at = -1) {
  JobRun r{RecordingBackend(fail_at), {}};
  plan.io_limit_bytes = ios * plan.bs_bytes;
  r.result = lab::run_to_limit(r.backend, plan);
  return r;
}

JobPlan plan_for(Pattern rw, uint32_t bs, uint64_t offset, uint64_t blocks, uint32_t depth = 8, uint32_t read_pct = 100) {
  JobPlan p;
  p.rw = rw;
  p.bs_bytes = bs;
  p.depth = depth;
  p.read_pct = read_pct;
  p.region_offset_bytes = offset;
  p.region_blocks = blocks;
  return p;
}

}  // namespace

TEST(JobLoop, RandomOffsetsAreAlignedAndInsideTheRegion) {
  const uint64_t offset = 1 << 20, blocks = 1000;
  JobRun r = run_limited(plan_for(Pattern::randread, 8192, offset, blocks), 50'000);
  ASSERT_EQ(r.backend.ios.size(), 50'000u);
  std::set<uint64_t> distinct;
  for (const auto& io : r.backend.ios) {
    ASSERT_EQ((io.offset - offset) % 8192, 0u);
    ASSERT_GE(io.offset, offset);
    ASSERT_LT(io.offset, offset + blocks * 8192);
    ASSERT_EQ(io.len, 8192u);
    distinct.insert(io.offset);
  }
  EXPECT_GT(distinct.size(), 990u);  // 50 draws per block: every block is hit
}

TEST(JobLoop, ARandomJobTouchesEveryBlockOncePerPassAsFiosRandomMap) {
  const uint64_t blocks = 2048;
  JobPlan p = plan_for(Pattern::randrw, 4096, 0, blocks, 8, 70);
  JobRun r = run_limited(p, 3 * blocks);
  ASSERT_EQ(r.backend.ios.size(), 3 * blocks);
  for (uint64_t pass = 0; pass < 3; ++pass) {
    std::set<uint64_t> touched;
    for (uint64_t i = pass * blocks; i < (pass + 1) * blocks; ++i) touched.insert(r.backend.ios[i].offset);
    EXPECT_EQ(touched.size(), blocks) << "pass " << pass;
  }
  // fio's norandommap: offsets drawn independently, so a pass's worth of I/Os misses about 1/e of the blocks.
  p.random_map = false;
  JobRun n = run_limited(p, blocks);
  std::set<uint64_t> touched;
  for (const auto& io : n.backend.ios) touched.insert(io.offset);
  EXPECT_LT(touched.size(), blocks * 3 / 4);
}

TEST(JobLoop, SequentialWalksItsShareInOrderAndWraps) {
  JobRun r = run_limited(plan_for(Pattern::read, 4096, 40960, 10, 4), 25);
  ASSERT_EQ(r.backend.ios.size(), 25u);
  for (size_t i = 0; i < r.backend.ios.size(); ++i) EXPECT_EQ(r.backend.ios[i].offset, 40960 + (i % 10) * 4096) << i;
}

TEST(JobLoop, MixedWorkloadHonoursReadPercentage) {
  JobRun r = run_limited(plan_for(Pattern::randrw, 4096, 0, 1 << 20, 16, 70), 100'000);
  size_t reads = 0;
  for (const auto& io : r.backend.ios) reads += io.dir == Direction::read;
  EXPECT_NEAR(static_cast<double>(reads) / 100'000.0, 0.70, 0.01);
  EXPECT_EQ(r.result.dir[0].ios, reads);
  EXPECT_EQ(r.result.dir[1].ios, 100'000 - reads);
}

TEST(JobLoop, PureWriteIssuesOnlyWrites) {
  JobRun r = run_limited(plan_for(Pattern::randwrite, 4096, 0, 100, 4, 0), 1000);
  for (const auto& io : r.backend.ios) ASSERT_EQ(io.dir, Direction::write);
  EXPECT_EQ(r.result.dir[1].bytes, 1000u * 4096);
}

TEST(JobLoop, CountsAndBytesAddUpAndLatenciesAreRecorded) {
  JobRun r = run_limited(plan_for(Pattern::randread, 4096, 0, 1000, 32), 10'000);
  EXPECT_EQ(r.result.issued, 10'000u);
  EXPECT_EQ(r.result.dir[0].ios, 10'000u);
  EXPECT_EQ(r.result.dir[0].bytes, 10'000u * 4096);
  EXPECT_EQ(r.result.dir[0].lat.count(), 10'000u);
  EXPECT_TRUE(r.result.io_limit_reached);
}

TEST(JobLoop, NeverExceedsTheQueueDepth) {
  JobRun r = run_limited(plan_for(Pattern::randread, 4096, 0, 1000, 7), 5000);
  EXPECT_LE(r.backend.max_in_flight, 7u);
  EXPECT_EQ(r.backend.max_in_flight, 7u);
}

TEST(JobLoop, StopsAtTheFirstErrorAndRecordsIt) {
  JobRun r = run_limited(plan_for(Pattern::randread, 4096, 0, 1000, 1), 1000, /*fail_at=*/100);
  EXPECT_EQ(r.result.errors, 1u);
  ASSERT_EQ(r.result.first_errors.size(), 1u);
  EXPECT_EQ(r.result.first_errors[0].err, 5);
  EXPECT_EQ(r.result.first_errors[0].offset_bytes, r.backend.ios[100].offset);
  EXPECT_EQ(r.result.dir[0].ios, 100u);
}

TEST(JobLoop, NothingIsCountedBeforeTheRampEnds) {
  RecordingBackend b;
  JobResult res;
  JobPlan p = plan_for(Pattern::randread, 4096, 0, 1000, 4);
  p.io_limit_bytes = 2000 * 4096;
  Timeline tl;
  tl.start_ns = now_ns();
  tl.ramp_end_ns = tl.start_ns + 3'600'000'000'000ull;  // the ramp outlasts the job
  tl.end_ns = tl.ramp_end_ns + 1;
  std::atomic<bool> stop{false};
  LiveCounters live;
  run_job(b, p, tl, stop, live, res);
  EXPECT_EQ(res.issued, 2000u);
  EXPECT_EQ(res.dir[0].ios, 0u);
  EXPECT_EQ(res.dir[0].lat.count(), 0u);
}

TEST(JobLoop, RateCapIsNeverExceeded) {
  // On synthetic time (the loop's own clock), so the count is exact on any machine: 2000 reads a
  // second for 0.3 s is one at once and one every 0.5 ms after, the last due at 299.5 ms.
  RecordingBackend b;
  JobResult res;
  JobPlan p = plan_for(Pattern::randread, 4096, 0, 1000, 8);
  p.rate_iops = {2000, 2000};
  lab::StepClock clock;
  Timeline tl;
  tl.start_ns = clock.now_ns();
  tl.ramp_end_ns = tl.start_ns;
  tl.end_ns = tl.start_ns + 300'000'000;  // 0.3 s
  std::atomic<bool> stop{false};
  LiveCounters live;
  NoVerify plain;
  run_job(b, p, tl, stop, live, res, plain, clock);
  EXPECT_EQ(res.issued, 600u);
  EXPECT_EQ(res.dir[0].ios, 600u);
  EXPECT_EQ(res.finish_ns, tl.end_ns) << "the job ran to the end of its window and no further";
}

TEST(JobLoop, AnIdleRateCappedJobSeesItsStopFlagWithinAPollNotAtItsNextToken) {
  // One read a second; the interrupt comes 1.2 s in, while the job waits for its token at 2 s. It
  // used to sleep on to that token; now it wakes every kIdlePollNs to look at the flag.
  RecordingBackend b;
  JobResult res;
  JobPlan p = plan_for(Pattern::randread, 4096, 0, 1000, 1);
  p.rate_iops = {1, 1};
  std::atomic<bool> stop{false};
  lab::StepClock clock;
  clock.stop = &stop;
  Timeline tl;
  tl.start_ns = clock.now_ns();
  tl.ramp_end_ns = tl.start_ns;
  tl.end_ns = tl.start_ns + 3'600'000'000'000ull;
  clock.stop_at = tl.start_ns + 1'200'000'000;
  LiveCounters live;
  NoVerify plain;
  run_job(b, p, tl, stop, live, res, plain, clock);
  EXPECT_EQ(res.issued, 2u) << "the reads at 0 s and 1 s, none after the interrupt";
  EXPECT_TRUE(live.done.load());
  EXPECT_GE(res.finish_ns, clock.stop_at);
  EXPECT_LE(res.finish_ns, clock.stop_at + kIdlePollNs) << "left " << (res.finish_ns - clock.stop_at) / 1'000'000 << " ms after the interrupt";
}

TEST(JobLoop, StopFlagEndsTheJob) {
  RecordingBackend b;
  JobResult res;
  Timeline tl;
  tl.start_ns = now_ns();
  tl.ramp_end_ns = tl.start_ns;
  tl.end_ns = tl.start_ns + 3'600'000'000'000ull;
  std::atomic<bool> stop{true};
  LiveCounters live;
  run_job(b, plan_for(Pattern::randread, 4096, 0, 1000, 4), tl, stop, live, res);
  EXPECT_EQ(res.issued, 0u);
  EXPECT_TRUE(live.done.load());
}

TEST(PlanJobs, SequentialJobsSplitTheRegionRandomJobsShareIt) {
  Workload w;
  w.rw = Pattern::write;
  w.bs_bytes = 4096;
  w.numjobs = 4;
  w.offset_bytes = 8192;
  w.size_bytes = 4096 * 100;
  auto plans = plan_jobs(w);
  ASSERT_EQ(plans.size(), 4u);
  for (uint32_t j = 0; j < 4; ++j) {
    EXPECT_EQ(plans[j].region_offset_bytes, 8192 + j * 25 * 4096u);
    EXPECT_EQ(plans[j].region_blocks, 25u);
    EXPECT_EQ(plans[j].read_pct, 0u);
  }
  w.rw = Pattern::randrw;
  w.rwmixread_pct = 70;
  plans = plan_jobs(w);
  for (const auto& p : plans) {
    EXPECT_EQ(p.region_offset_bytes, 8192u);
    EXPECT_EQ(p.region_blocks, 100u);
    EXPECT_EQ(p.read_pct, 70u);
  }
  EXPECT_NE(plans[0].seed, plans[1].seed);
}

// Runs every job of a plan to its io limit on its own recording backend (the engine's jobs without
// threads) and counts the writes each block of the region received.
std::map<uint64_t, int> writes_per_block(const Workload& w) {
  std::map<uint64_t, int> hits;
  for (const auto& plan : plan_jobs(w)) {
    EXPECT_GT(plan.io_limit_bytes, 0u);
    JobRun r = run_limited(plan, plan.io_limit_bytes / plan.bs_bytes);
    for (const auto& io : r.backend.ios) ++hits[(io.offset - w.offset_bytes) / w.bs_bytes];
  }
  return hits;
}

TEST(PlanJobs, APassOfSequentialJobsWritesEveryBlockExactlyOnce) {
  Workload w;
  w.rw = Pattern::write;
  w.bs_bytes = 4096;
  w.numjobs = 3;
  w.offset_bytes = 8192;
  w.size_bytes = 10 * 4096;
  w.io_limit_bytes = w.size_bytes;  // one pass, as a suite's passes: 1
  auto hits = writes_per_block(w);
  ASSERT_EQ(hits.size(), 10u) << "a block of the region was never written";
  for (const auto& [block, n] : hits) EXPECT_EQ(n, 1) << "block " << block;
  EXPECT_EQ(hits.rbegin()->first, 9u);

  // Two passes of 1000 blocks over 7 jobs (1000 % 7 = 6): every block exactly twice.
  w.numjobs = 7;
  w.size_bytes = 1000 * 4096;
  w.io_limit_bytes = 2 * w.size_bytes;
  hits = writes_per_block(w);
  ASSERT_EQ(hits.size(), 1000u);
  for (const auto& [block, n] : hits) EXPECT_EQ(n, 2) << "block " << block;
}

TEST(PlanJobs, SharesTileTheRegionAndTheLongerOnesComeFirst) {
  Workload w;
  w.rw = Pattern::read;
  w.numjobs = 3;
  w.size_bytes = 10 * 4096;
  auto plans = plan_jobs(w);
  ASSERT_EQ(plans.size(), 3u);
  EXPECT_EQ(plans[0].region_blocks, 4u);
  EXPECT_EQ(plans[1].region_blocks, 3u);
  EXPECT_EQ(plans[2].region_blocks, 3u);
  EXPECT_EQ(plans[1].region_offset_bytes, 4 * 4096u);
  EXPECT_EQ(plans[2].region_offset_bytes, 7 * 4096u);
}

TEST(PlanJobs, AnIoLimitOfSharedRegionJobsAddsUpToTheLimit) {
  Workload w;
  w.rw = Pattern::randwrite;
  w.numjobs = 3;
  w.size_bytes = 100 * 4096;
  w.io_limit_bytes = 10 * 4096;
  uint64_t total = 0;
  for (const auto& p : plan_jobs(w)) total += p.io_limit_bytes;
  EXPECT_EQ(total, w.io_limit_bytes);  // was 3 x ceil(10/3) = 12 I/Os
}

TEST(PlanJobs, PsyncRunsAtDepthOne) {
  Workload w;
  w.engine = BackendKind::psync;
  w.iodepth = 32;
  w.size_bytes = 1 << 20;
  EXPECT_EQ(plan_jobs(w)[0].depth, 1u);
}
