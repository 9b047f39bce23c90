// Sizes and durations in fio's units: what the CLI and suite files accept, and what no input may do
// (overflow to infinity, or print past an integer's range). The last two were found by fuzzing.
#include <gtest/gtest.h>

#include <string>

#include "common/units.hpp"

using namespace diskvet;

TEST(Units, ParsesFiosSizesAndDurations) {
  EXPECT_EQ(parse_size("4k"), 4096u);
  EXPECT_EQ(parse_size("64KiB"), 65536u);
  EXPECT_EQ(parse_size("1g"), uint64_t{1} << 30);
  EXPECT_EQ(parse_size("4q"), std::nullopt);
  EXPECT_EQ(parse_duration_s("1h30m"), 5400.0);
  EXPECT_EQ(parse_duration_s("250ms"), 0.25);
  EXPECT_EQ(parse_duration_s("soon"), std::nullopt);
}

TEST(Units, DurationThatOverflowsToInfinityIsRejected) {
  std::string huge = "1" + std::string(308, '0');  // 1e308: a double, but not once multiplied to days or added twice
  EXPECT_TRUE(parse_duration_s(huge + "s").has_value());
  EXPECT_EQ(parse_duration_s(huge + "d"), std::nullopt);
  EXPECT_EQ(parse_duration_s(huge + "s" + huge + "s"), std::nullopt);
}

TEST(Units, FormatsDurationsPastAMillionHoursWithoutWrapping) {
  EXPECT_EQ(format_duration(5 * 3600 + 120), "5h02m");
  EXPECT_EQ(format_duration(1.04e21), "1.04e+21s");  // the fuzzer's "288888888888888888h2h"
  auto s = parse_duration_s("288888888888888888h2h");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(format_duration(*s), "1.04e+21s");
}
