// Judging the health series polled during a burn-in against the snapshot before it.
#include <gtest/gtest.h>

#include "runner/run/health_poller.hpp"

using namespace diskvet;
using namespace diskvet::runner;

namespace {

HealthSample sample(double t_s, uint8_t warning, uint64_t media, double temp_c) {
  HealthSample s;
  s.t_s = t_s;
  s.utc = "T+" + std::to_string(static_cast<int>(t_s));
  s.health.known = true;
  s.health.critical_warning = warning;
  s.health.media_errors = media;
  s.health.temperature_c = temp_c;
  return s;
}

}  // namespace

TEST(HealthSeries, AnUnchangedSeriesHasNoFinding) {
  devices::Health before = sample(0, 0, 2, 40).health;
  std::vector<HealthSample> s = {sample(0, 0, 2, 40), sample(60, 0, 2, 45), sample(120, 0, 2, 50)};
  EXPECT_TRUE(judge_health_series(before, s, 70.0).empty());
}

TEST(HealthSeries, ANewCriticalWarningIsReportedWithTheTimeFirstSeen) {
  devices::Health before = sample(0, 0, 0, 40).health;
  std::vector<HealthSample> s = {sample(0, 0, 0, 40), sample(60, 0x02, 0, 45), sample(120, 0x02, 0, 45)};
  auto f = judge_health_series(before, s, std::nullopt);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].find("critical warning 0x02"), std::string::npos) << f[0];
  EXPECT_NE(f[0].find("at 60 s (T+60)"), std::string::npos) << f[0];
}

TEST(HealthSeries, AWarningAlreadySetBeforeTheRunIsNotNew) {
  devices::Health before = sample(0, 0x01, 0, 40).health;
  std::vector<HealthSample> s = {sample(60, 0x01, 0, 40)};
  EXPECT_TRUE(judge_health_series(before, s, std::nullopt).empty());
}

TEST(HealthSeries, NewMediaErrorsAndOverheatingAreEachReportedOnce) {
  devices::Health before = sample(0, 0, 5, 40).health;
  std::vector<HealthSample> s = {sample(60, 0, 5, 65), sample(120, 0, 8, 75), sample(180, 0, 9, 80)};
  auto f = judge_health_series(before, s, 70.0);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_NE(f[0].find("3 new media errors"), std::string::npos) << f[0];
  EXPECT_NE(f[0].find("at 120 s"), std::string::npos) << f[0];
  EXPECT_NE(f[1].find("temperature 75 C over the profile's max_temp_c 70 C"), std::string::npos) << f[1];
}

TEST(HealthSeries, ThePollerSamplesAtOnceAndOnFinish) {
  int reads = 0;
  HealthPoller p([&](const devices::Device&) -> std::optional<devices::Health> {
    ++reads;
    return sample(0, 0, 0, 40).health;
  }, devices::Device{}, 3600);
  auto series = p.finish();
  EXPECT_EQ(series.size(), 2u);  // the first poll and the last; the hour between never came
  EXPECT_EQ(reads, 2);
}
