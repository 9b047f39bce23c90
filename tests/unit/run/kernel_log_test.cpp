// The kernel's word on a device: /dev/kmsg records parsed, lines matched to the tested device by its
// kernel names, the kinds that matter named, and a reset failing the device. Sample lines are the
// drivers' real formats.
#include "runner/run/kernel_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "runner/run/watchdog_findings.hpp"

using namespace diskvet::runner;

TEST(KernelLog, ParsesAKmsgRecordsLevelSequenceTimeAndTextWithoutItsDictionary) {
  auto r = parse_kmsg_record("4,1523,61234567,-;nvme nvme0: I/O 952 QID 1 timeout, aborting\n SUBSYSTEM=nvme\n DEVICE=c242:0\n");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->level, 4);
  EXPECT_EQ(r->seq, 1523u);
  EXPECT_EQ(r->ts_us, 61234567u);
  EXPECT_EQ(r->text, "nvme nvme0: I/O 952 QID 1 timeout, aborting");
  // The facility rides in the upper bits of the first field (here kern=0 vs user=1<<3).
  EXPECT_EQ(parse_kmsg_record("14,2,3,-;hello")->level, 6);
  EXPECT_EQ(parse_kmsg_record("6,2,3,-,caller=T1;x")->text, "x");
  EXPECT_FALSE(parse_kmsg_record("no prefix here"));
  EXPECT_FALSE(parse_kmsg_record("x,2,3,-;bad level"));
}

TEST(KernelLog, NamesTheKindOfTheDriversRealLines) {
  EXPECT_EQ(kernel_event_kind("nvme nvme0: I/O 952 QID 1 timeout, aborting"), "timeout");
  EXPECT_EQ(kernel_event_kind("nvme nvme0: Abort status: 0x0"), "abort");
  EXPECT_EQ(kernel_event_kind("nvme nvme0: resetting controller"), "controller-reset");
  EXPECT_EQ(kernel_event_kind("nvme nvme0: I/O 5 QID 2 timeout, reset controller"), "controller-reset");
  EXPECT_EQ(kernel_event_kind("blk_update_request: I/O error, dev loop3, sector 2048 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 0"),
            "io-error");
  EXPECT_EQ(kernel_event_kind("I/O error, dev nvme0n1, sector 8192 op 0x1:(WRITE) flags 0x8800 phys_seg 1 prio class 2"), "io-error");
  EXPECT_EQ(kernel_event_kind("ata3: hard resetting link"), "link-reset");
  EXPECT_EQ(kernel_event_kind("ata3.00: exception Emask 0x0 SAct 0x1 SErr 0x0 action 0x6 frozen"), "abort");
  EXPECT_FALSE(kernel_event_kind("loop3: detected capacity change from 0 to 32768"));
  EXPECT_FALSE(kernel_event_kind("nvme nvme0: 2/0/0 default/read/poll queues"));
}

TEST(KernelLog, MatchesADeviceOnlyByAWholeKernelName) {
  std::vector<std::string> nvme = kernel_names("nvme0n1", "nvme0", "");
  EXPECT_EQ(named_device("nvme nvme0: I/O 952 QID 1 timeout, aborting", nvme), "nvme0");
  EXPECT_EQ(named_device("I/O error, dev nvme0n1, sector 8192 op 0x1:(WRITE)", nvme), "nvme0n1");
  EXPECT_FALSE(named_device("nvme nvme1: resetting controller", nvme)) << "another controller";
  EXPECT_FALSE(named_device("I/O error, dev nvme0n12, sector 0", nvme)) << "another namespace";
  std::vector<std::string> loop = kernel_names("loop3", "", "");
  EXPECT_EQ(named_device("blk_update_request: I/O error, dev loop3, sector 2048", loop), "loop3");
  EXPECT_FALSE(named_device("blk_update_request: I/O error, dev loop30, sector 2048", loop));
  EXPECT_FALSE(named_device("blk_update_request: I/O error, dev loop13, sector 2048", loop));
}

TEST(KernelLog, AnAtaDiskIsKnownByItsLinkAndScsiAddressToo) {
  auto names = kernel_names("sda", "", "/sys/devices/pci0000:00/0000:00:1f.2/ata3/host2/target2:0:0/2:0:0:0/block/sda");
  EXPECT_EQ(names, (std::vector<std::string>{"sda", "ata3", "2:0:0:0"}));
  EXPECT_EQ(named_device("ata3: hard resetting link", names), "ata3");
  EXPECT_EQ(named_device("ata3.00: failed command: READ FPDMA QUEUED", names), "ata3");
  EXPECT_EQ(named_device("sd 2:0:0:0: [sda] tag#3 timing out command, waited 180s", names), "sda");
  EXPECT_FALSE(named_device("ata13: hard resetting link", names));
}

TEST(KernelLog, OnlyAResetFailsADeviceByItself) {
  EXPECT_TRUE(fails_device("controller-reset"));
  EXPECT_TRUE(fails_device("link-reset"));
  EXPECT_FALSE(fails_device("timeout"));  // the stall it belongs to is judged by the watchdog
  EXPECT_FALSE(fails_device("io-error"));  // diskvet's own I/O errors fail the device already
}

TEST(KernelLog, AWatchKeepsOnlyTheLinesAboutItsDeviceWrittenAfterItStarted) {
  // A regular file stands in for /dev/kmsg (which gives one record per read): the watch starts at
  // its end, so only the record appended afterwards is read, whole.
  auto path = std::filesystem::temp_directory_path() / ("kmsg-test-" + std::to_string(getpid()));
  { std::ofstream(path) << "old record\n"; }
  KernelLogWatch watch({"nvme0n1", "nvme0"}, path.c_str());
  { std::ofstream(path, std::ios::app) << "4,9,61000000,-;nvme nvme0: resetting controller"; }
  KernelLog log = watch.finish();
  std::filesystem::remove(path);
  ASSERT_TRUE(log.read);
  ASSERT_EQ(log.lines.size(), 1u);
  EXPECT_EQ(log.lines[0].kind, "controller-reset");
  EXPECT_EQ(log.lines[0].device, "nvme0");
  EXPECT_DOUBLE_EQ(log.lines[0].kernel_s, 61.0);
}

TEST(KernelLog, AnUnreadableLogIsSaidNeverSilentlyEmpty) {
  KernelLogWatch watch({"loop3"}, "/nonexistent/kmsg");
  KernelLog log = watch.finish();
  EXPECT_FALSE(log.read);
  EXPECT_NE(log.note.find("not read"), std::string::npos) << log.note;
}

TEST(WatchdogFindings, AStallFailsTheDeviceNamingItsLbaAndHowLongItWasOut) {
  Measurement m;
  m.workload.io_timeout_s = 2;
  m.stalls.push_back({Direction::write, 1u << 20, 3.5, 5.02, true});
  m.stall_count = 1;
  WatchdogRecord w;
  w.add("write-pass", m, 4096);
  auto problems = watchdog_problems(w, std::nullopt, {});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("LBA 256"), std::string::npos) << problems[0];
  EXPECT_NE(problems[0].find("out 5.02 s"), std::string::npos) << problems[0];
  EXPECT_NE(problems[0].find("write-pass"), std::string::npos) << problems[0];
}

TEST(WatchdogFindings, AProfileMayAllowACountOfStallsButNeverAnAbandonedRun) {
  Measurement m;
  m.workload.io_timeout_s = 2;
  m.stalls.push_back({Direction::read, 0, 1, 3, true});
  m.stall_count = 1;
  WatchdogRecord w;
  w.add("t", m, 512);
  EXPECT_TRUE(watchdog_problems(w, 1, {}).empty());
  EXPECT_EQ(watchdog_problems(w, 0, {}).size(), 1u);
  Measurement hung;
  hung.workload.io_timeout_s = 2;
  hung.stalls.push_back({Direction::read, 4096, 1, 4.1, false});
  hung.stall_count = 1;
  hung.abandoned = true;
  w.add("t2", hung, 512);
  auto problems = watchdog_problems(w, 5, {});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("abandoned"), std::string::npos) << problems[0];
  EXPECT_NE(problems[0].find("LBA 8"), std::string::npos) << problems[0];
}

TEST(WatchdogFindings, AControllerResetInTheKernelLogFailsTheDevice) {
  KernelLog k;
  k.read = true;
  k.lines.push_back({100, 3, 4, "timeout", "nvme0", "nvme nvme0: I/O 952 QID 1 timeout, aborting"});
  EXPECT_TRUE(watchdog_problems({}, std::nullopt, k).empty()) << "a timeout line alone is evidence, not a verdict";
  k.lines.push_back({101, 4, 4, "controller-reset", "nvme0", "nvme nvme0: resetting controller"});
  auto problems = watchdog_problems({}, std::nullopt, k);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("resetting controller"), std::string::npos) << problems[0];
}
