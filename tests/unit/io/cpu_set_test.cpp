// CPU sets for job placement: fio's cpus_allowed syntax, printing, and the split policy.
#include <gtest/gtest.h>

#include "runner/io/cpu_set.hpp"

using namespace diskvet::runner;

TEST(CpuSet, ParsesSinglesAndRangesIntoSortedUniqueCpus) {
  auto s = CpuSet::parse("6,0-3,2");
  ASSERT_TRUE(s) << s.error().message();
  EXPECT_EQ(s->cpus, (std::vector<uint32_t>{0, 1, 2, 3, 6}));
  EXPECT_EQ(s->to_string(), "0-3,6");
}

TEST(CpuSet, RefusesWhatIsNotACpuOrARange) {
  for (const char* bad : {"", "a", "1-", "-1", "3-1", "1,,2", "0-99999", "1.5"}) {
    auto s = CpuSet::parse(bad);
    EXPECT_FALSE(s) << bad;
    if (!s) {
      EXPECT_NE(s.error().message().find("--cpus-allowed"), std::string::npos) << s.error().message();
    }
  }
}

// A long list of overlapping ranges (a CLI value or a suite key, so outside input) is the set of
// its CPUs, each once; it used to list every CPU of every range first (10^8 for a megabyte).
TEST(CpuSet, ManyOverlappingRangesAreTheirUnion) {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "0-1023,";
  text += "5";
  auto s = CpuSet::parse(text);
  ASSERT_TRUE(s) << s.error().message();
  EXPECT_EQ(s->cpus.size(), 1024u);
  EXPECT_EQ(s->to_string(), "0-1023");
}

TEST(CpuSet, SplitGivesEachJobOneCpuRoundRobinAndSharedGivesAllOfThem) {
  auto s = CpuSet::parse("2,4,5");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->for_job(0, CpuPolicy::split).cpus, (std::vector<uint32_t>{2}));
  EXPECT_EQ(s->for_job(1, CpuPolicy::split).cpus, (std::vector<uint32_t>{4}));
  EXPECT_EQ(s->for_job(3, CpuPolicy::split).cpus, (std::vector<uint32_t>{2}));
  EXPECT_EQ(s->for_job(3, CpuPolicy::shared).cpus, s->cpus);
  EXPECT_TRUE(CpuSet{}.for_job(1, CpuPolicy::split).empty());
}

TEST(CpuSet, TheProcessMayRunSomewhere) {
  CpuSet now = CpuSet::allowed_now();
  ASSERT_FALSE(now.empty());
  auto again = CpuSet::parse(now.to_string());
  ASSERT_TRUE(again);
  EXPECT_EQ(again->cpus, now.cpus);
}
