// What a pause of diskvet itself explains (runner/io/measurement.hpp): a stall is the device's only
// for the time it was out while diskvet ran; and the length of a ramp's buckets (ramp_bucket_s).
#include "runner/io/measurement.hpp"

#include <gtest/gtest.h>

namespace diskvet::runner {
namespace {

Stall stall(double submit_s, double out_s) { return Stall{Direction::read, 4096, submit_s, out_s, true}; }

TEST(PausedStalls, AStallAPauseExplainsIsRemovedAndOneOutLongerAnywayStays) {
  // diskvet stopped from 10 s to 130 s; io_timeout 30 s.
  const std::vector<Pause> pauses{{10, 120}};
  std::vector<Stall> stalls{
      stall(9.5, 121),   // out across the whole pause, 1 s of it while diskvet ran: the pause's
      stall(9, 150),     // 30 s while diskvet ran, exactly the timeout: the pause's
      stall(5, 160),     // 40 s while diskvet ran: the device's
      stall(200, 45),    // after the pause: the device's
      stall(120, 40),    // from inside the pause, 30 s after it: the pause's
  };
  EXPECT_EQ(excuse_paused_stalls(stalls, pauses, 30), 3u);
  ASSERT_EQ(stalls.size(), 2u);
  EXPECT_DOUBLE_EQ(stalls[0].submit_s, 5);
  EXPECT_DOUBLE_EQ(stalls[1].submit_s, 200);
}

TEST(PausedStalls, WithoutAPauseEveryStallStandsAndTwoPausesAddUp) {
  std::vector<Stall> stalls{stall(0, 50)};
  EXPECT_EQ(excuse_paused_stalls(stalls, {}, 30), 0u);
  EXPECT_EQ(stalls.size(), 1u);
  // Out 50 s, of which 2 x 10 s paused: 30 s the device's, within the timeout.
  EXPECT_EQ(excuse_paused_stalls(stalls, {{5, 10}, {20, 10}}, 30), 1u);
  EXPECT_TRUE(stalls.empty());
}

TEST(RampReport, RampBucketsAreTheIntervalOrCoarserSoARampHoldsAtMostFourHundred) {
  EXPECT_DOUBLE_EQ(ramp_bucket_s(15, 1), 1);
  EXPECT_DOUBLE_EQ(ramp_bucket_s(31 * 60, 1), 5);  // 372 buckets
  EXPECT_DOUBLE_EQ(ramp_bucket_s(3600, 1), 10);
  EXPECT_DOUBLE_EQ(ramp_bucket_s(10, 0.05), 0.05);
  EXPECT_DOUBLE_EQ(ramp_bucket_s(100, 0.05), 0.5);
  EXPECT_LE(31 * 60 / ramp_bucket_s(31 * 60, 1), kMaxRampSamples);
}

}  // namespace
}  // namespace diskvet::runner
