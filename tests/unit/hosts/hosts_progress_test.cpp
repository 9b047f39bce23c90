// The live progress of a multi-host run rendered as pure functions: elapsed and remaining time,
// each host's state and last IOPS, the merged IOPS; one line for logs, a block for a terminal; the
// pace of plain lines.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "runner/hosts/hosts_progress.hpp"

namespace diskvet::runner {
namespace {

HostsProgress three_hosts() {
  HostsProgress p;
  p.what = "read: randread 4 KiB QD1 x1, round 2 of at most 25";
  p.elapsed_s = 12;
  p.planned_s = 31;
  p.hosts = {{"h1", HostState::running, 600000}, {"h2", HostState::lost, 500000}, {"h3", HostState::preparing, std::nullopt}};
  p.merged_iops = 1.1e6;
  return p;
}

TEST(HostsProgress, OneLineHasTimesStatesAndIops) {
  const std::string l = render_progress_line(three_hosts());
  EXPECT_EQ(l,
            "read: randread 4 KiB QD1 x1, round 2 of at most 25 12s/31s (19s left) | 3 hosts: 1 running, 1 preparing, 1 lost"
            " | last run 1.10M IOPS (h1 600.0k, h2 lost, h3 -)");
}

TEST(HostsProgress, ASizedRunHasNoRemainingTimeAndNoIopsBeforeTheFirstRun) {
  HostsProgress p;
  p.what = "precondition: write 128 KiB QD32 x1";
  p.elapsed_s = 75;
  p.hosts = {{"h1", HostState::running, std::nullopt}};
  EXPECT_EQ(render_progress_line(p), "precondition: write 128 KiB QD32 x1 1m15s | 1 host: 1 running");
}

TEST(HostsProgress, AFinishedRunGivesItsOwnIops) {
  HostsProgress p = three_hosts();
  p.finished = true;
  p.hosts[0].state = p.hosts[2].state = HostState::done;
  const std::string l = render_progress_line(p);
  EXPECT_NE(l.find("finished after 12s | 3 hosts: 2 done, 1 lost | this run 1.10M IOPS"), std::string::npos) << l;
  EXPECT_EQ(l.find("left"), std::string::npos) << l;
}

TEST(HostsProgress, LinesAreCutToTheTerminalWidth) {
  EXPECT_EQ(render_progress_line(three_hosts(), 20).size(), 20u);
  for (const auto& l : render_progress_block(three_hosts(), 12, 30)) EXPECT_LE(l.size(), 30u) << l;
}

TEST(HostsProgress, TheBlockHasALinePerHost) {
  const auto lines = render_progress_block(three_hosts());
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_NE(lines[0].find("last run 1.10M IOPS merged"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1], "  h1               running       600.0k IOPS last run");
  EXPECT_EQ(lines[2], "  h2               lost          500.0k IOPS last run");
  EXPECT_EQ(lines[3], "  h3               preparing          - IOPS");
}

TEST(HostsProgress, ManyHostsFoldIntoACountedLine) {
  HostsProgress p;
  p.what = "t";
  for (int i = 0; i < 32; ++i) p.hosts.push_back({fmt::format("h{}", i + 1), i == 20 ? HostState::lost : HostState::running, std::nullopt});
  const auto lines = render_progress_block(p, 12);
  ASSERT_EQ(lines.size(), 13u) << "the header, 11 hosts, and one line for the other 21";
  EXPECT_EQ(lines.back(), "  ... 21 more: 20 running, 1 lost");
  EXPECT_NE(lines[0].find("32 hosts: 31 running, 1 lost"), std::string::npos) << lines[0];
}

TEST(HostsProgress, PlainLinesComeEveryIntervalAndWhenARunFinishes) {
  ProgressPacer pacer(10);
  EXPECT_TRUE(pacer.due(0.1, false)) << "the first report";
  EXPECT_FALSE(pacer.due(5, false));
  EXPECT_FALSE(pacer.due(10.05, false));
  EXPECT_TRUE(pacer.due(10.2, false));
  EXPECT_TRUE(pacer.due(11, true)) << "a finished run is always reported";
  EXPECT_FALSE(pacer.due(12, false));
  EXPECT_TRUE(pacer.due(21, false));
}

}  // namespace
}  // namespace diskvet::runner
