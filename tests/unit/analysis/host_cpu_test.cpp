// The host's CPU split from /proc/stat contents: user, system, hard and soft interrupts.
#include "runner/analysis/host_cpu.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

using namespace diskvet::runner;

namespace {
// Two readings 1000 ticks apart (10 s of one CPU at USER_HZ 100), as /proc/stat prints them.
const char* kBefore =
    "cpu  1000 50 2000 90000 100 300 700 0 0 0\n"
    "cpu0 500 25 1000 45000 50 150 350 0 0 0\n"
    "intr 12345 0 0\n";
const char* kAfter =
    "cpu  1100 50 2200 90400 100 350 800 0 0 0\n"
    "cpu0 550 25 1100 45200 50 175 400 0 0 0\n";
}  // namespace

TEST(HostCpu, ParsesTheAggregateLineOnly) {
  auto t = parse_proc_stat(kBefore);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->user, 1000u);
  EXPECT_EQ(t->nice, 50u);
  EXPECT_EQ(t->system, 2000u);
  EXPECT_EQ(t->idle, 90000u);
  EXPECT_EQ(t->irq, 300u);
  EXPECT_EQ(t->softirq, 700u);
  EXPECT_FALSE(parse_proc_stat("cpu0 1 2 3 4 5 6 7 8\n"));
  EXPECT_FALSE(parse_proc_stat("intr 1 2 3\n"));
  EXPECT_FALSE(parse_proc_stat(""));
}

TEST(HostCpu, SplitsTheWindowIntoUserSystemAndInterruptTime) {
  auto a = parse_proc_stat(kBefore), b = parse_proc_stat(kAfter);
  ASSERT_TRUE(a && b);
  // Between the readings: 100 user, 200 system, 50 irq, 100 softirq ticks busy (450), 400 idle: 850 in all.
  HostCpuShare s = host_cpu_share(*a, *b, 100);
  EXPECT_NEAR(s.busy_pct, 450.0 / 850 * 100, 1e-9);
  EXPECT_NEAR(s.user_pct, 100.0 / 850 * 100, 1e-9);
  EXPECT_NEAR(s.system_pct, 200.0 / 850 * 100, 1e-9);
  EXPECT_NEAR(s.irq_pct, 50.0 / 850 * 100, 1e-9);
  EXPECT_NEAR(s.softirq_pct, 100.0 / 850 * 100, 1e-9);
  EXPECT_NEAR(s.system_s, 2.0, 1e-9);
  EXPECT_NEAR(s.irq_s, 0.5, 1e-9);
  EXPECT_NEAR(s.softirq_s, 1.0, 1e-9);
  EXPECT_NEAR(s.user_s, 1.0, 1e-9);
  // The shares of one window add up to the busy share.
  EXPECT_NEAR(s.user_pct + s.system_pct + s.irq_pct + s.softirq_pct + s.steal_pct, s.busy_pct, 1e-9);
}

TEST(HostCpu, ReadsAFileLikeProcStat) {
  const std::string path = (std::filesystem::temp_directory_path() / ("diskvet-proc-stat-" + std::to_string(getpid()))).string();
  std::ofstream(path) << kAfter;
  auto t = read_host_cpu(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->softirq, 800u);
  EXPECT_FALSE(read_host_cpu(path));
  EXPECT_TRUE(read_host_cpu());  // the real one
}
