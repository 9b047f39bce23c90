// SNIA PTS steady-state detector on synthetic series.
#include "runner/analysis/steady_state.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace diskvet::runner;

TEST(SteadyState, IsAttainedWhenTheLastFiveRoundsAreFlat) {
  // Fresh-out-of-box decay, then a plateau around 10000 with small noise.
  std::vector<double> v = {30000, 22000, 16000, 12500, 10400, 10100, 9950, 10050, 9980, 10020};
  auto r = detect_steady_state(v, SteadyCriteria{});
  ASSERT_TRUE(r.attained);
  ASSERT_TRUE(r.window);
  EXPECT_EQ(r.window->rounds, 5u);
  EXPECT_LE(r.window->excursion_pct, 20);
  EXPECT_LE(r.window->slope_change_pct, 10);
  // The first steady window ends no later than the plateau's fifth round, and not before decay ends.
  EXPECT_GE(r.window->first_round, 3u);
  EXPECT_LE(r.rounds_used, 10u);
}

TEST(SteadyState, IsNeverAttainedOnASteadilyFallingSeries) {
  std::vector<double> v;
  for (int i = 0; i < 25; ++i) v.push_back(20000 - 600.0 * i);
  auto r = detect_steady_state(v, SteadyCriteria{});
  EXPECT_FALSE(r.attained);
  EXPECT_EQ(r.rounds_used, 25u);
  EXPECT_EQ(r.history.size(), 21u);
}

TEST(SteadyState, GivesUpAfterTwentyFiveRounds) {
  std::vector<double> v;
  for (int i = 0; i < 25; ++i) v.push_back(i % 2 ? 5000 : 15000);  // wild swings
  for (int i = 0; i < 10; ++i) v.push_back(10000);                  // flat, but too late
  auto r = detect_steady_state(v, SteadyCriteria{});
  EXPECT_FALSE(r.attained);
  EXPECT_EQ(r.rounds_used, 25u);
}

TEST(SteadyState, FailsOnSlopeAloneWhenTheExcursionIsWithinLimits) {
  // A steady climb of 4% of the mean per round: max-min = 16% (< 20%) but the line changes 16% (> 10%).
  std::vector<double> v = {9200, 9600, 10000, 10400, 10800};
  auto a = assess_window(v, SteadyCriteria{});
  EXPECT_TRUE(a.excursion_ok);
  EXPECT_FALSE(a.slope_ok);
  EXPECT_FALSE(a.steady);
  EXPECT_NEAR(a.excursion_pct, 16.0, 1e-9);
  EXPECT_NEAR(a.slope_change_pct, 16.0, 1e-9);
}

TEST(SteadyState, FailsOnExcursionAloneWhenTheSlopeIsFlat) {
  // One dip in the middle: the best-fit line is flat, but max-min is 30% of the mean.
  std::vector<double> v = {10500, 10500, 7500, 10500, 10500};
  auto a = assess_window(v, SteadyCriteria{});
  EXPECT_TRUE(a.slope_ok);
  EXPECT_NEAR(a.slope_change_pct, 0.0, 1e-9);
  EXPECT_FALSE(a.excursion_ok);
  EXPECT_FALSE(a.steady);
}

TEST(SteadyState, SlopeOnlyModeIgnoresExcursionsAsCacheWarmupDoes) {
  std::vector<double> v = {10500, 10500, 7500, 10500, 10500};
  SteadyCriteria c;
  c.check_excursion = false;
  EXPECT_TRUE(assess_window(v, c).steady);
}

TEST(SteadyState, IsNotAttainedWithFewerRoundsThanAWindow) {
  std::vector<double> v = {10000, 10000, 10000, 10000};
  EXPECT_FALSE(detect_steady_state(v, SteadyCriteria{}).attained);
}

TEST(SteadyState, AllZeroRoundsAreNeverSteady) {
  std::vector<double> v(5, 0.0);
  EXPECT_FALSE(assess_window(v, SteadyCriteria{}).steady);
}

TEST(SteadyState, ALimitMetExactlyIsSteadyAsPtsSaysNoMoreThan) {
  // PTS 2.1: range "no more than 20%" and slope "within 10%" of the window's average.
  auto range = assess_window(std::vector<double>{9000, 11000, 10000, 10000, 10000}, SteadyCriteria{});
  EXPECT_NEAR(range.excursion_pct, 20.0, 1e-12);
  EXPECT_TRUE(range.steady);
  auto slope = assess_window(std::vector<double>{9500, 9750, 10000, 10250, 10500}, SteadyCriteria{});
  EXPECT_NEAR(slope.slope_change_pct, 10.0, 1e-12);
  EXPECT_TRUE(slope.steady);
  auto over = assess_window(std::vector<double>{9490, 9745, 10000, 10255, 10510}, SteadyCriteria{});
  EXPECT_FALSE(over.steady);
}

TEST(SteadyState, WithoutSteadyStateTheLastWindowIsTheLastFiveOfTwentyFiveRounds) {
  // PTS: not steady by round 25, the measurement window is rounds 21..25 (and the report says so).
  std::vector<double> v;
  for (int i = 0; i < 30; ++i) v.push_back(i % 2 ? 5000 : 15000);
  auto r = detect_steady_state(v, SteadyCriteria{});
  ASSERT_FALSE(r.attained);
  ASSERT_TRUE(r.window);
  EXPECT_EQ(r.window->first_round, 20u);
  EXPECT_EQ(r.window->rounds, 5u);
}
