// The burst-then-baseline step finder on synthetic interval series: a clean step, a noisy one, no
// step, a rise, and the step's time and levels.
#include "runner/analysis/burst.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using namespace diskvet::runner;

namespace {

struct Series {
  std::vector<double> t, dur, iops, bw;
  void add(double value, size_t count, double noise_pct = 0, uint32_t seed = 1) {
    std::mt19937 rng(seed + static_cast<uint32_t>(t.size()));
    std::uniform_real_distribution<double> u(-1, 1);
    for (size_t i = 0; i < count; ++i) {
      t.push_back(static_cast<double>(t.size()));
      dur.push_back(1);
      const double x = value * (1 + noise_pct / 100 * u(rng));
      iops.push_back(x);
      bw.push_back(x * 4096);
    }
  }
  std::optional<BurstStep> find() const { return find_burst_step(t, dur, iops, bw); }
};

}  // namespace

TEST(BurstStep, ABurstThenABaselineIsFoundWithItsLevelsTimeAndLength) {
  Series s;
  s.add(3000, 10);
  s.add(60, 50);
  auto b = s.find();
  ASSERT_TRUE(b);
  EXPECT_DOUBLE_EQ(b->before_iops, 3000);
  EXPECT_DOUBLE_EQ(b->after_iops, 60);
  EXPECT_DOUBLE_EQ(b->step_s, 10);
  EXPECT_DOUBLE_EQ(b->burst_s, 10);
  EXPECT_NEAR(b->before_mb_s, 3000 * 4096 / 1e6, 1e-9);
  EXPECT_NEAR(b->after_mb_s, 60 * 4096 / 1e6, 1e-9);
  EXPECT_EQ(describe(*b), "burst of 3000 IOPS for 10 s, then a baseline of 60 IOPS");
}

TEST(BurstStep, ANoisyStepIsFoundWithinTheNoise) {
  Series s;
  s.add(1000, 12, 20, 7);
  s.add(60, 40, 30, 9);
  auto b = s.find();
  ASSERT_TRUE(b);
  EXPECT_NEAR(b->before_iops, 1000, 200);
  EXPECT_NEAR(b->after_iops, 60, 18);
  EXPECT_NEAR(b->step_s, 12, 1);
}

TEST(BurstStep, NoisyIopsAtOneLevelHaveNoStep) {
  Series s;
  s.add(1000, 120, 30, 3);
  EXPECT_FALSE(s.find());
  Series flat;
  flat.add(500, 60);
  EXPECT_FALSE(flat.find());
}

TEST(BurstStep, ARiseOrASmallDropIsNoBurst) {
  Series rise;
  rise.add(60, 20);
  rise.add(3000, 20);
  EXPECT_FALSE(rise.find());
  Series small;  // 20% lower after: a device settling, not a burst spent
  small.add(1000, 20);
  small.add(800, 20);
  EXPECT_FALSE(small.find());
}

TEST(BurstStep, TooFewSamplesOrEmptyIntervalsSayNothing) {
  Series s;
  s.add(3000, 1);
  s.add(60, 1);
  EXPECT_FALSE(s.find());
  EXPECT_FALSE(find_burst_step({}, {}, {}, {}));
  // An empty last interval (no length) is left out, not read as a level of 0.
  Series e;
  e.add(500, 30);
  e.t.push_back(30);
  e.dur.push_back(0);
  e.iops.push_back(0);
  EXPECT_FALSE(find_burst_step(e.t, e.dur, e.iops, {}));
}

TEST(BurstStep, LongBurstsReadInMinutes) {
  BurstStep b;
  b.before_iops = 3500;
  b.after_iops = 120;
  b.burst_s = 1800;
  EXPECT_EQ(describe(b), "burst of 3500 IOPS for 30.0 min, then a baseline of 120 IOPS");
  b.before_iops = 80000;
  b.after_iops = 12800;
  b.burst_s = 95;
  EXPECT_EQ(describe(b), "burst of 80.0k IOPS for 95 s, then a baseline of 12.8k IOPS");
}
