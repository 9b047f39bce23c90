// fio's rate_iops: the token arithmetic at the magnitudes of a month-long run, and per direction.
#include "runner/io/rate_limit.hpp"

#include <gtest/gtest.h>

#include "runner/io/job_loop.hpp"
#include "runner/io/rng.hpp"
#include "tests/unit/io/recording_backend.hpp"

using namespace diskvet::runner;

namespace {
constexpr uint64_t kNs = 1'000'000'000;
constexpr uint64_t k30DaysNs = 30ull * 86400 * kNs;
}  // namespace

TEST(RateLimit, ThirtyDaysAtTenMillionIopsDoesNotOverflow) {
  // elapsed x rate here is 2.6e22, past 2^64 (1.8e19): the old product wrapped after ~5 h at 1M IOPS.
  EXPECT_EQ(rate_tokens(k30DaysNs, 10'000'000), 30ull * 86400 * 10'000'000 + 1);
  EXPECT_EQ(rate_tokens(k30DaysNs + kNs / 2, 10'000'000), 30ull * 86400 * 10'000'000 + 5'000'000 + 1);
  // The I/O issued after 30 days at 10M IOPS is due exactly 30 days in (issued x 1e9 is 2.6e22 too).
  EXPECT_EQ(rate_due_ns(30ull * 86400 * 10'000'000, 10'000'000), k30DaysNs);
  // A year at the highest rate a workload may ask for.
  const uint64_t year_ns = 366ull * 86400 * kNs;
  EXPECT_EQ(rate_tokens(year_ns, kMaxRateIops), 366ull * 86400 * kMaxRateIops + 1);
  EXPECT_EQ(rate_due_ns(366ull * 86400 * kMaxRateIops, kMaxRateIops), year_ns);
}

TEST(RateLimit, TokensMatchExactArithmeticAtEveryMagnitude) {
  Rng rng(42);
  for (int i = 0; i < 100'000; ++i) {
    const uint64_t rate = 1 + rng.below(i % 2 ? 10'000'000 : kMaxRateIops);
    const uint64_t elapsed = rng.below(i % 3 ? k30DaysNs : 366ull * 86400 * kNs);
    const auto exact = static_cast<uint64_t>(static_cast<u128>(elapsed) * rate / kNs) + 1;
    ASSERT_EQ(rate_tokens(elapsed, rate), exact) << elapsed << " ns at " << rate;
    // The due time of the next I/O is the first nanosecond with one more token.
    const uint64_t issued = exact;
    const uint64_t due = rate_due_ns(issued, rate);
    ASSERT_EQ(rate_tokens(due, rate), issued + 1) << issued << " at " << rate;
    ASSERT_EQ(rate_tokens(due - 1, rate), issued) << issued << " at " << rate;
  }
}

namespace {
JobResult run_rated(uint32_t read_pct, std::array<uint64_t, kDirections> rate, uint64_t window_ns, uint64_t limit_ios = 0) {
  diskvet::testing::RecordingBackend b;
  JobResult res;
  JobPlan p;
  p.rw = read_pct == 100 ? Pattern::randread : read_pct == 0 ? Pattern::randwrite : Pattern::randrw;
  p.read_pct = read_pct;
  p.depth = 8;
  p.region_blocks = 1000;
  p.rate_iops = rate;
  p.io_limit_bytes = limit_ios * p.bs_bytes;
  Timeline tl;
  tl.start_ns = now_ns();
  tl.ramp_end_ns = tl.start_ns;
  tl.end_ns = tl.start_ns + window_ns;
  std::atomic<bool> stop{false};
  LiveCounters live;
  run_job(b, p, tl, stop, live, res);
  return res;
}
}  // namespace

TEST(RateLimit, CapsEachDirectionNotTheJobsTotal) {
  // fio's rate_iops=1000 on a randrw job: 1000 reads and 1000 writes per second, not 1000 in all.
  JobResult r = run_rated(50, {1000, 1000}, 300'000'000);
  EXPECT_LE(r.dir[0].ios, 301u);
  EXPECT_LE(r.dir[1].ios, 301u);
  EXPECT_GT(r.dir[0].ios + r.dir[1].ios, 400u) << "the total was capped, not each direction";
}

TEST(RateLimit, ADirectionAheadOfItsRateYieldsToTheOther) {
  // fio's rate_iops=1000,100: reads go on at their own rate while writes wait for theirs.
  JobResult r = run_rated(50, {1000, 100}, 300'000'000);
  EXPECT_LE(r.dir[1].ios, 31u);
  EXPECT_LE(r.dir[0].ios, 301u);
  EXPECT_GT(r.dir[0].ios, 150u) << "writes held the reads back";
}

TEST(RateLimit, AnUncappedDirectionRunsFree) {
  // fio's rate_iops=,100: writes capped, reads not.
  JobResult r = run_rated(50, {0, 100}, 300'000'000, 20'000);
  EXPECT_LE(r.dir[1].ios, 31u);
  EXPECT_GT(r.dir[0].ios, 1000u);
}
