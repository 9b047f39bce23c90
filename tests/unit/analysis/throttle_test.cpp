// The throttling detector on synthetic interval series and health polls.
#include "runner/analysis/throttle.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace diskvet::runner;

namespace {

struct Series {
  std::vector<double> t, dur, iops;
  void add(double value, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      t.push_back(static_cast<double>(t.size()));
      dur.push_back(1);
      iops.push_back(value + static_cast<double>(i % 3));  // a little noise
    }
  }
  std::vector<SlowdownEvent> detect(const SlowdownCriteria& c = {}) const { return detect_slowdowns(t, dur, iops, c); }
};

}  // namespace

TEST(Throttling, SteadyIopsHaveNoSlowdown) {
  Series s;
  s.add(1000, 300);
  EXPECT_TRUE(s.detect().empty());
}

TEST(Throttling, ADropOfHalfForTwentySecondsIsOneEventWithItsTimesAndDepth) {
  Series s;
  s.add(1000, 60);
  s.add(500, 20);
  s.add(1000, 60);
  auto e = s.detect();
  ASSERT_EQ(e.size(), 1u);
  EXPECT_DOUBLE_EQ(e[0].start_s, 60);
  EXPECT_DOUBLE_EQ(e[0].end_s, 80);
  EXPECT_NEAR(e[0].max_drop_pct, 50, 0.5);
  EXPECT_NEAR(e[0].median_iops, 1001, 1.5);
  EXPECT_TRUE(e[0].recovered);
}

TEST(Throttling, ADipShorterThanTheMinimumDurationIsNoEvent) {
  Series s;
  s.add(1000, 60);
  s.add(500, 5);
  s.add(1000, 60);
  EXPECT_TRUE(s.detect().empty());
}

TEST(Throttling, ADropOfLessThanThirtyPercentIsNoEvent) {
  Series s;
  s.add(1000, 60);
  s.add(750, 60);
  EXPECT_TRUE(s.detect().empty());
}

TEST(Throttling, ALongSlowdownDoesNotDragItsOwnBaselineDown) {
  Series s;
  s.add(1000, 30);
  s.add(400, 200);  // longer than the median window
  auto e = s.detect();
  ASSERT_EQ(e.size(), 1u);
  EXPECT_DOUBLE_EQ(e[0].end_s, 230);
  EXPECT_FALSE(e[0].recovered);
}

TEST(Throttling, NewThermalTransitionsDuringASlowdownMakeItThermal) {
  Series s;
  s.add(1000, 60);
  s.add(300, 30);
  s.add(1000, 30);
  auto e = s.detect();
  ASSERT_EQ(e.size(), 1u);
  std::vector<HealthPoint> h = {{0, 50.0, 3, 70.0}, {60, 68.0, 3, 70.0}, {75, 72.0, 9, 70.0}, {120, 60.0, 9, 70.0}};
  explain_slowdown(e[0], h, false);
  EXPECT_EQ(e[0].cause, "thermal throttling");
  EXPECT_EQ(e[0].thermal_transitions, 6u);
  EXPECT_EQ(e[0].max_temp_c, 72.0);
}

TEST(Throttling, AWriteSlowdownThatNeverRecoversWithNoHeatIsACacheExhausted) {
  Series s;
  s.add(1000, 60);
  s.add(300, 60);
  auto e = s.detect();
  ASSERT_EQ(e.size(), 1u);
  std::vector<HealthPoint> h = {{0, 40.0, 0, 70.0}, {60, 41.0, 0, 70.0}, {100, 42.0, 0, 70.0}};
  explain_slowdown(e[0], h, true);
  EXPECT_EQ(e[0].cause, "write cache exhausted");
  // The same slowdown of reads has no cause the evidence names.
  explain_slowdown(e[0], h, false);
  EXPECT_EQ(e[0].cause, "unexplained");
}

TEST(Throttling, ZeroIopsForTwentySecondsIsAStallNotACacheEvenForWrites) {
  // The VM lab's hung drive: 4 I/Os out for 60 s, nothing completed for 20 s, then on again.
  Series s;
  s.add(1000, 60);
  for (int i = 0; i < 20; ++i) {
    s.t.push_back(static_cast<double>(s.t.size()));
    s.dur.push_back(1);
    s.iops.push_back(0);
  }
  s.add(1000, 30);
  auto e = s.detect();
  ASSERT_EQ(e.size(), 1u);
  std::vector<HealthPoint> h = {{0, 40.0, 0, 70.0}, {70, 41.0, 0, 70.0}};
  explain_slowdown(e[0], h, true);
  EXPECT_EQ(e[0].cause, "stall");
  EXPECT_NE(e[0].evidence.find("fell to 0"), std::string::npos) << e[0].evidence;
  // A stall that never ends is still a stall, not a full write cache.
  e[0].recovered = false;
  explain_slowdown(e[0], h, true);
  EXPECT_EQ(e[0].cause, "stall");
}

TEST(Throttling, NearZeroIsAShareOfTheBaselineWithAFloorOfOneIops) {
  EXPECT_TRUE(near_zero(0, 1000));
  EXPECT_TRUE(near_zero(9, 1000));
  EXPECT_FALSE(near_zero(50, 1000));
  EXPECT_TRUE(near_zero(1, 20)) << "one I/O a second against 20 is near nothing";
  EXPECT_FALSE(near_zero(2, 20));
}

TEST(Throttling, HeatWithoutAStallIsThrottlingWhateverTheWorkload) {
  Series s;
  s.add(1000, 60);
  s.add(300, 60);  // slowed and stayed slow, writes: would be a full cache but for the heat
  auto e = s.detect();
  ASSERT_EQ(e.size(), 1u);
  std::vector<HealthPoint> h = {{0, 60.0, 0, 70.0}, {70, 71.0, 0, 70.0}};
  explain_slowdown(e[0], h, true);
  EXPECT_EQ(e[0].cause, "thermal throttling");
}
