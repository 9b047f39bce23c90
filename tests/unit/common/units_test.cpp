// Sizes and durations in fio's units, read and printed (common/units.hpp).
#include "common/units.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace diskvet;

TEST(Units, SizesUseFiosPowersOf1024) {
  EXPECT_EQ(parse_size("4k"), 4096u);
  EXPECT_EQ(parse_size("4K"), 4096u);
  EXPECT_EQ(parse_size("4KiB"), 4096u);
  EXPECT_EQ(parse_size("64kb"), 65536u);
  EXPECT_EQ(parse_size("1g"), 1u << 30);
  EXPECT_EQ(parse_size("512"), 512u);
  EXPECT_EQ(parse_size("1.5m"), 1536u * 1024);
  EXPECT_FALSE(parse_size("4x"));
  EXPECT_FALSE(parse_size(""));
  EXPECT_FALSE(parse_size("-4k"));
  EXPECT_FALSE(parse_size("k"));
}

TEST(Units, DurationsAcceptFiosSuffixes) {
  EXPECT_EQ(parse_duration_s("10"), 10.0);
  EXPECT_EQ(parse_duration_s("10s"), 10.0);
  EXPECT_EQ(parse_duration_s("250ms"), 0.25);
  EXPECT_EQ(parse_duration_s("2m"), 120.0);
  EXPECT_EQ(parse_duration_s("1h30m"), 5400.0);
  EXPECT_FALSE(parse_duration_s("soon"));
  EXPECT_FALSE(parse_duration_s("5q"));
}

// Found by fuzzing: sums past a double's range were returned as an infinite duration.
TEST(Units, DurationThatOverflowsToInfinityIsRejected) {
  std::string huge = "1" + std::string(308, '0');  // 1e308: a double, but not once in days or added twice
  EXPECT_TRUE(parse_duration_s(huge + "s").has_value());
  EXPECT_FALSE(parse_duration_s(huge + "d"));
  EXPECT_FALSE(parse_duration_s(huge + "s" + huge + "s"));
}

// Found by fuzzing: "288888888888888888h2h" (1.04e21 s) was cast to a 64-bit integer to print it.
TEST(Units, FormatsDurationsPastAMillionHoursWithoutWrapping) {
  EXPECT_EQ(format_duration(5 * 3600 + 120), "5h02m");
  auto s = parse_duration_s("288888888888888888h2h");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(format_duration(*s), "1.04e+21s");
}

TEST(Units, FormattingIsReadable) {
  EXPECT_EQ(format_bytes(4096), "4KiB");
  EXPECT_EQ(format_bytes(1536), "1.50KiB");
  EXPECT_EQ(format_ns(812), "812ns");
  EXPECT_EQ(format_ns(12'400), "12.4us");
  EXPECT_EQ(format_duration(725), "12m05s");
}
