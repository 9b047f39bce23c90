// NVMe passthrough (--engine io_uring_cmd): the generic char device found from its block device and
// back over a fake sysfs tree laid out as the nvme driver lays it out, and the commands encoded.
#include "runner/io/nvme_passthrough.hpp"

#include <sys/sysmacros.h>

#include <gtest/gtest.h>

#include "tests/unit/support/fake_sysfs.hpp"

using namespace diskvet;
using namespace diskvet::runner;
namespace fs = std::filesystem;

namespace {

// sys/<link> -> sys/<target>, relative, as the kernel links class and dev entries.
void link(const test::FakeSysfs& sys, const std::string& target, const std::string& link_rel) {
  const fs::path at = sys.sysfs() / link_rel;
  fs::create_directories(at.parent_path());
  fs::create_symlink(fs::relative(sys.sysfs() / target, at.parent_path()), at);
}

// A namespace under controller `ctrl` (sys/devices/pci0000:00/<ctrl>): the disk and, unless
// ng_dev is empty, its generic node beside it, each with its dev file and links.
void add_namespace(const test::FakeSysfs& sys, const std::string& ctrl, const std::string& disk, const std::string& disk_dev,
                   const std::string& ng, const std::string& ng_dev) {
  const std::string dir = "devices/pci0000:00/" + ctrl + "/";
  sys.write(dir + disk + "/dev", disk_dev + "\n");
  sys.write(dir + disk + "/queue/max_hw_sectors_kb", "512\n");
  link(sys, dir + disk, "dev/block/" + disk_dev);
  if (ng_dev.empty()) return;
  sys.write(dir + ng + "/dev", ng_dev + "\n");
  link(sys, dir + ng, "class/nvme-generic/" + ng);
}

SystemRoots roots_of(const test::FakeSysfs& sys) { return {sys.sysfs().string(), sys.dev().string()}; }

// Two controllers, a namespace each: nvme0n1 (259:0, ng0n1 241:0), nvme1n1 (259:1, ng1n1 241:1).
void two_controllers(const test::FakeSysfs& sys) {
  add_namespace(sys, "0000:00:04.0/nvme/nvme0", "nvme0n1", "259:0", "ng0n1", "241:0");
  add_namespace(sys, "0000:00:05.0/nvme/nvme1", "nvme1n1", "259:1", "ng1n1", "241:1");
}

}  // namespace

TEST(NvmePassthrough, TheGenericNodeIsFoundBesideItsBlockDevice) {
  test::FakeSysfs sys;
  two_controllers(sys);
  auto ng = generic_node_of_block(makedev(259, 1), roots_of(sys));
  ASSERT_TRUE(ng) << ng.error().message();
  EXPECT_EQ(ng->name, "ng1n1");
  EXPECT_EQ(ng->path, (sys.dev() / "ng1n1").string());
  EXPECT_EQ(ng->rdev, makedev(241, 1));
}

TEST(NvmePassthrough, AGenericNodeNamedByTheUserIsMappedBackToItsBlockDevice) {
  test::FakeSysfs sys;
  two_controllers(sys);
  auto block = block_of_generic_node(makedev(241, 1), roots_of(sys));
  ASSERT_TRUE(block) << block.error().message();
  EXPECT_EQ(block->name, "nvme1n1");
  EXPECT_EQ(block->path, (sys.dev() / "nvme1n1").string());
  EXPECT_EQ(block->rdev, makedev(259, 1));
  // A char device that is no namespace's generic node stands for nothing.
  auto none = block_of_generic_node(makedev(4, 64), roots_of(sys));
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().exit_code(), 2);
}

TEST(NvmePassthrough, ANamespaceWithoutAGenericNodeIsRefusedSayingWhatToUse) {
  test::FakeSysfs sys;
  add_namespace(sys, "0000:00:04.0/nvme/nvme0", "nvme0n1", "259:0", "ng0n1", "");  // a kernel before 5.13
  auto ng = generic_node_of_block(makedev(259, 0), roots_of(sys));
  ASSERT_FALSE(ng);
  EXPECT_EQ(ng.error().exit_code(), 2);
  EXPECT_NE(ng.error().what.find("ng0n1"), std::string::npos) << ng.error().message();
  EXPECT_NE(ng.error().fix.find("--engine io_uring"), std::string::npos) << ng.error().message();
}

TEST(NvmePassthrough, AGenericNodeOfTheSameNameUnderAnotherControllerIsNotTaken) {
  test::FakeSysfs sys;
  // nvme0n1 under one controller, an ng0n1 under another (names alone would pair them).
  add_namespace(sys, "0000:00:04.0/nvme/nvme0", "nvme0n1", "259:0", "", "");
  add_namespace(sys, "0000:00:05.0/nvme/nvme9", "nvme9n9", "259:9", "ng0n1", "241:0");
  EXPECT_FALSE(generic_node_of_block(makedev(259, 0), roots_of(sys)));
  EXPECT_FALSE(block_of_generic_node(makedev(241, 0), roots_of(sys)));
}

TEST(NvmePassthrough, APartitionOrANonNvmeDiskIsRefused) {
  test::FakeSysfs sys;
  two_controllers(sys);
  const std::string part = "devices/pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1/nvme0n1p1";
  sys.write(part + "/dev", "259:2\n");
  sys.write(part + "/partition", "1\n");
  link(sys, part, "dev/block/259:2");
  auto p = generic_node_of_block(makedev(259, 2), roots_of(sys));
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().what.find("partition"), std::string::npos) << p.error().message();
  auto loop = sys.add_disk("virtual", "loop3", "7:3", 1 << 20);
  link(sys, fs::relative(loop, sys.sysfs()).string(), "dev/block/7:3");
  auto l = generic_node_of_block(makedev(7, 3), roots_of(sys));
  ASSERT_FALSE(l);
  EXPECT_NE(l.error().what.find("not an NVMe namespace"), std::string::npos) << l.error().message();
  EXPECT_FALSE(generic_node_of_block(makedev(8, 0), roots_of(sys)));  // not in sysfs at all
}

TEST(NvmePassthrough, ANodeThatIsNotTheCharDeviceSysfsNamesIsNeverOpened) {
  test::FakeSysfs sys;
  two_controllers(sys);
  auto ng = generic_node_of_block(makedev(259, 0), roots_of(sys));
  ASSERT_TRUE(ng) << ng.error().message();
  // A regular file where the node should be: refused on the descriptor, not used.
  std::ofstream(sys.dev() / "ng0n1") << "not a device";
  auto fd = open_generic_node(*ng, false);
  ASSERT_FALSE(fd);
  EXPECT_EQ(fd.error().exit_code(), 2);
  // A symbolic link is not followed.
  fs::remove(sys.dev() / "ng0n1");
  fs::create_symlink("/dev/null", sys.dev() / "ng0n1");
  EXPECT_FALSE(open_generic_node(*ng, false));
}

TEST(NvmePassthrough, AReadCarriesItsStartingBlockAndZeroBasedCountInTheCommandDwords) {
  const nvme_uring_cmd c = encode_nvme_rw(Direction::read, 1 << 20, 4096, 512, 3, 0x7000);
  EXPECT_EQ(c.opcode, 0x02);
  EXPECT_EQ(c.nsid, 3u);
  EXPECT_EQ(c.addr, 0x7000u);
  EXPECT_EQ(c.data_len, 4096u);
  EXPECT_EQ(c.cdw10, 2048u);  // SLBA: 1 MiB of 512-byte blocks
  EXPECT_EQ(c.cdw11, 0u);
  EXPECT_EQ(c.cdw12, 7u);  // eight blocks, 0-based
  EXPECT_EQ(c.flags, 0);
  EXPECT_EQ(c.metadata, 0u);
  EXPECT_EQ(c.metadata_len, 0u);
  EXPECT_EQ(c.cdw13 | c.cdw14 | c.cdw15 | c.cdw2 | c.cdw3 | c.timeout_ms, 0u);
}

TEST(NvmePassthrough, AWriteBeyondFourBillionBlocksSplitsItsStartingBlockOverTwoDwords) {
  const uint64_t slba = (uint64_t{1} << 32) + 3;
  const nvme_uring_cmd c = encode_nvme_rw(Direction::write, slba * 4096, 65536, 4096, 1, 0x1000);
  EXPECT_EQ(c.opcode, 0x01);
  EXPECT_EQ(c.cdw10, 3u);
  EXPECT_EQ(c.cdw11, 1u);
  EXPECT_EQ(c.cdw12, 15u);
  EXPECT_EQ(c.data_len, 65536u);
}

TEST(NvmePassthrough, TheLargestCommandIsTheQueuesHardwareLimit) {
  test::FakeSysfs sys;
  two_controllers(sys);
  EXPECT_EQ(max_passthrough_bytes(makedev(259, 0), 512, roots_of(sys)), 512u * 1024);
  EXPECT_EQ(max_passthrough_bytes(makedev(8, 0), 512, roots_of(sys)), 0u);  // unknown: not limited here
}
