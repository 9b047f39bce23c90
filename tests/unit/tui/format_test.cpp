// The TUI's text shapes: truncation, progress bar, sparkline, ETA and rates.
#include <gtest/gtest.h>

#include "tui/format.hpp"

using namespace diskvet::tui;

TEST(TuiFormat, FitCutsLongTextWithATildeAndPadsShortText) {
  EXPECT_EQ(fit("/dev/nvme10n1", 8), "/dev/nv~");
  EXPECT_EQ(fit("sda", 5, true), "sda  ");
  EXPECT_EQ(fit("sda", 5), "sda");
  EXPECT_EQ(fit("abc", 0), "");
}

TEST(TuiFormat, ProgressBarHasTheRequestedWidthAndClampsTheFraction) {
  EXPECT_EQ(progress_bar(0.5, 20), "[######.......]  50%");
  EXPECT_EQ(progress_bar(0.5, 20).size(), 20u);
  EXPECT_EQ(progress_bar(1.7, 20), "[#############] 100%");
  EXPECT_EQ(progress_bar(-1, 20), "[.............]   0%");
  EXPECT_EQ(progress_bar(0.0 / 0.0, 12).size(), 12u);
}

TEST(TuiFormat, SparklineScalesToTheLargestAndKeepsTheNewestValues) {
  EXPECT_EQ(sparkline({}, 4), "    ");
  EXPECT_EQ(sparkline({0, 100}, 4), "   #");
  std::string s = sparkline({1, 2, 3, 4, 5, 6, 7, 8, 9, 100}, 3);
  EXPECT_EQ(s.size(), 3u);
  EXPECT_EQ(s.back(), '#');
  EXPECT_EQ(s.front(), '.');  // 8/100 of the top: the lowest non-zero level
}

TEST(TuiFormat, EtaSaysWhenItIsUnknown) {
  EXPECT_EQ(eta_text(std::nullopt), "ETA --");
  EXPECT_EQ(eta_text(65.0), "ETA 1m05s");
  EXPECT_EQ(eta_text(12.0), "ETA 12s");
}

TEST(TuiFormat, RatesUseShortUnits) {
  EXPECT_EQ(rate_text(950), "950");
  EXPECT_EQ(rate_text(12345), "12.3k");
  EXPECT_EQ(rate_text(1234567), "1.23M");
  EXPECT_EQ(mbps_text(512e6), "512.0 MB/s");
}

TEST(TuiFormat, LatencyTakesTheUnitThatFitsAndDashesWhenUnmeasured) {
  EXPECT_EQ(latency_text(0), "--");
  EXPECT_EQ(latency_text(80), "80.0us");
  EXPECT_EQ(latency_text(1250), "1.25ms");
  EXPECT_EQ(latency_text(2e6), "2.00s");
}
