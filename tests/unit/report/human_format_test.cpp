// Numbers for people: what the report, compare and fleet views print for IOPS, latency, bandwidth
// and margins. Never scientific notation ("2e+04"), never a bare percentage in the thousands.
#include "runner/report/human_format.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace diskvet::runner;

TEST(HumanFormat, CountsUseThousandsAndMillionsNeverAnExponent) {
  EXPECT_EQ(human::iops(651700), "651.7k IOPS");
  EXPECT_EQ(human::iops(980), "980 IOPS");
  EXPECT_EQ(human::iops(20000), "20.0k IOPS");
  EXPECT_EQ(human::iops(1.2e6), "1.20M IOPS");
  EXPECT_EQ(human::count(0.5), "0.5");
  EXPECT_EQ(human::count(12.34), "12.3");
  EXPECT_EQ(human::plain(20000), "20000");
  EXPECT_EQ(human::plain(0.0512), "0.0512");
  EXPECT_EQ(human::plain(1e9), "1000000000");
  for (double x : {1e-7, 3e-3, 2e4, 7.5e9, 1e15}) {
    for (const std::string& s : {human::plain(x), human::count(x), human::latency_us(x), human::bandwidth(x)})
      EXPECT_EQ(s.find('e'), std::string::npos) << x << " -> " << s;
  }
}

TEST(HumanFormat, LatencyPicksItsUnitAndKeepsThreeDigits) {
  EXPECT_EQ(human::latency_us(20000), "20 ms");
  EXPECT_EQ(human::latency_us(63.04), "63 us");
  EXPECT_EQ(human::latency_us(115.2), "115 us");
  EXPECT_EQ(human::latency_us(2048), "2.05 ms");
  EXPECT_EQ(human::latency_ns(812), "812 ns");
  EXPECT_EQ(human::latency_ns(1.5e9), "1.5 s");
  EXPECT_EQ(human::latency_ns(std::numeric_limits<double>::quiet_NaN()), "-");
}

TEST(HumanFormat, BandwidthIsDecimalLikeTheDatasheet) {
  EXPECT_EQ(human::bandwidth(979349504), "979 MB/s");
  EXPECT_EQ(human::bandwidth(5.674e9), "5.67 GB/s");
  EXPECT_EQ(human::bandwidth_mbps(5), "5 MB/s");
}

TEST(HumanFormat, MarginOfAMinimumSaysHowManyTimesOrHowFarShort) {
  EXPECT_EQ(human::margin("min", 200, 239099), "1195x the limit");  // was "+119449.5%"
  EXPECT_EQ(human::margin("min", 20000, 66000), "3.3x the limit");
  EXPECT_EQ(human::margin("min", 100, 112), "12% above the limit");
  EXPECT_EQ(human::margin("min", 100, 88), "12% short");
  EXPECT_EQ(human::margin("min", 100, 99.6), "0.4% short");
  EXPECT_EQ(human::margin("min", 100, 100), "at the limit");
  EXPECT_EQ(human::margin("min", 1, 1e9), "over 10000x the limit");
}

TEST(HumanFormat, MarginOfAMaximumSaysUnderOrOver) {
  EXPECT_EQ(human::margin("max", 20000, 63), "317x under the limit");
  EXPECT_EQ(human::margin("max", 100, 88), "12% under the limit");
  EXPECT_EQ(human::margin("max", 100, 112), "12% over the limit");
  EXPECT_EQ(human::margin("max", 100, 330), "3.3x over the limit");
  EXPECT_EQ(human::margin("max", 100, 0), "under the limit");
  EXPECT_EQ(human::margin("max", 0, 5), "-");
  EXPECT_EQ(human::margin("max", -1, 5), "-");
}

TEST(HumanFormat, MetricValueFollowsTheMetricName) {
  EXPECT_EQ(human::metric_value("read.iops", 239099), "239.1k IOPS");
  EXPECT_EQ(human::metric_value("iops", 200), "200 IOPS");
  EXPECT_EQ(human::metric_value("write.bw_mbps", 2411.8), "2.41 GB/s");
  EXPECT_EQ(human::metric_value("read.lat_p99_us", 100000), "100 ms");
  EXPECT_EQ(human::metric_value("total.lat_mean_us", 23.4), "23.4 us");
  EXPECT_EQ(human::metric_value("slowdown_pct", 12), "12");
}

TEST(HumanFormat, DurationsRatiosAndChanges) {
  EXPECT_EQ(human::duration_s(0.5), "0.5 s");
  EXPECT_EQ(human::duration_s(45), "45 s");
  EXPECT_EQ(human::duration_s(725), "12 min 5 s");
  EXPECT_EQ(human::duration_s(3 * 3600 + 120), "3 h 2 min");
  EXPECT_EQ(human::ratio(1.034), "1.03x");
  EXPECT_EQ(human::ratio(12), "12x");
  EXPECT_EQ(human::change_pct(3.44), "+3.4%");
  EXPECT_EQ(human::change_pct(-12.2), "-12%");
  EXPECT_EQ(human::change_pct(0.01), "0%");
}
