// Whether --hipri may poll a target's queue: read from the device's own queue in a fake sysfs.
#include "runner/io/poll_queues.hpp"

#include <sys/sysmacros.h>

#include <gtest/gtest.h>

#include "tests/unit/support/fake_sysfs.hpp"

using namespace diskvet;
using namespace diskvet::runner;

namespace {

// sys/dev/block/MAJ:MIN -> the node, as the kernel links it.
void link_dev(const test::FakeSysfs& fs, const std::filesystem::path& node, const std::string& dev_id) {
  std::filesystem::create_directories(fs.sysfs() / "dev" / "block");
  std::filesystem::create_symlink(std::filesystem::path("../..") / std::filesystem::relative(node, fs.sysfs()),
                                  fs.sysfs() / "dev" / "block" / dev_id);
}

TargetInfo block_target(const std::string& path, unsigned maj, unsigned min) {
  TargetInfo t;
  t.path = path;
  t.block_device = true;
  t.rdev = makedev(maj, min);
  return t;
}

}  // namespace

TEST(PollQueues, ADeviceWhoseQueuePollsIsAccepted) {
  test::FakeSysfs fs;
  auto disk = fs.add_disk("pci0000:00/nvme/nvme0", "nvme0n1", "259:0", 1 << 20);
  fs.write(std::filesystem::relative(disk, fs.sysfs()).string() + "/queue/io_poll", "1\n");
  link_dev(fs, disk, "259:0");
  EXPECT_TRUE(check_poll_queues(block_target("/dev/nvme0n1", 259, 0), fs.sysfs().string()));
}

TEST(PollQueues, ADeviceWithoutPollQueuesIsRefusedNamingTheDriverSetting) {
  test::FakeSysfs fs;
  auto disk = fs.add_disk("virtual", "loop3", "7:3", 1 << 20);
  fs.write(std::filesystem::relative(disk, fs.sysfs()).string() + "/queue/io_poll", "0\n");
  link_dev(fs, disk, "7:3");
  auto s = check_poll_queues(block_target("/dev/loop3", 7, 3), fs.sysfs().string());
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().exit_code(), 2);
  EXPECT_EQ(s.error().subject, "/dev/loop3");
  EXPECT_NE(s.error().what.find("/sys/block/loop3/queue/io_poll is 0"), std::string::npos) << s.error().message();
  EXPECT_NE(s.error().fix.find("nvme.poll_queues"), std::string::npos) << s.error().message();
}

TEST(PollQueues, APartitionIsJudgedByItsDisksQueue) {
  test::FakeSysfs fs;
  auto disk = fs.add_disk("pci0000:00/nvme/nvme0", "nvme0n1", "259:0", 1 << 20);
  fs.add_partition(disk, "nvme0n1p1", "259:1");
  link_dev(fs, disk / "nvme0n1p1", "259:1");
  const std::string io_poll = std::filesystem::relative(disk, fs.sysfs()).string() + "/queue/io_poll";
  fs.write(io_poll, "0\n");
  EXPECT_FALSE(check_poll_queues(block_target("/dev/nvme0n1p1", 259, 1), fs.sysfs().string()));
  fs.write(io_poll, "1\n");
  EXPECT_TRUE(check_poll_queues(block_target("/dev/nvme0n1p1", 259, 1), fs.sysfs().string()));
}

TEST(PollQueues, AFileOrAnUnreadableQueueIsRefused) {
  test::FakeSysfs fs;
  TargetInfo file;
  file.path = "/srv/test.img";
  auto s = check_poll_queues(file, fs.sysfs().string());
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().what.find("not a block device"), std::string::npos) << s.error().message();
  // No sysfs entry at all (a device gone, or sysfs not mounted): never taken as "polls".
  EXPECT_FALSE(check_poll_queues(block_target("/dev/nvme9n1", 259, 9), fs.sysfs().string()));
}
