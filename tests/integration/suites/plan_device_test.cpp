// Issue 23 on a device with 4 KiB logical sectors (root, a loop device): a suite whose second test
// asks for 512-byte blocks loads (512 is a valid block size) but cannot run on this device; the run
// is refused, exit 2, before its first test writes, and the device is byte for byte unchanged.
#include <sys/mount.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "tests/support/run_lab.hpp"

using diskvet::testing::RunLab;

namespace {

std::string read_device(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

class PlanOnDevice : public RunLab {};

TEST_F(PlanOnDevice, ASecondTestWithBlocksSmallerThanTheSectorsRefusesTheRunBeforeTheFirstWrites) {
  SKIP_UNLESS_LOOP_DEVICES();
  std::string dev = make_loop(64u << 20, 4096);
  ASSERT_FALSE(dev.empty());
  write_file("sectors.json", R"({
    "name": "sectors", "region": "16m",
    "probe": {"enabled": false}, "precondition": {"enabled": false}, "steady_state": {"enabled": false},
    "warmup": {"enabled": false},
    "defaults": {"runtime": "0.3s", "ramp": "0s", "engine": "psync", "interval": "0.1s"},
    "tests": [
      {"id": "writes", "workloads": [{"rw": "randwrite", "bs": "4k", "iodepth": 1}]},
      {"id": "small-blocks", "workloads": [{"rw": "randread", "bs": "512", "iodepth": 1}]}]})");
  // Data on the device first (not zeros), so "unchanged" is a statement about data; written and
  // read through the device node, whose cache diskvet's O_DIRECT writes would invalidate.
  {
    std::ofstream out(dev, std::ios::binary | std::ios::in | std::ios::out);
    out << std::string(16u << 20, 'k');
  }
  const std::string before = read_device(dev);
  int rc = diskvet("run --suite " + file("sectors.json").string() + " --device " + dev + " --destroy-data " + dev + " --profile none -q --out " +
                   file("r.json").string());
  const std::string said = log();
  EXPECT_EQ(rc, 2) << said;
  EXPECT_NE(said.find("small-blocks"), std::string::npos) << said;
  EXPECT_NE(said.find("4096"), std::string::npos) << said;
  EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 1) << said;
  EXPECT_TRUE(read_device(dev) == before) << "the first test wrote the device of a run that could not finish";
  EXPECT_FALSE(std::filesystem::exists(file("r.json")));
}

// An --out on a read-only mount: the directory exists, so the old up-front check passed and the run
// wrote the device before failing to create the report (exit 3). Now refused before, exit 2.
TEST_F(PlanOnDevice, AnOutOnAReadOnlyMountIsRefusedBeforeTheDeviceIsWritten) {
  SKIP_UNLESS_LOOP_DEVICES();
  std::string dev = make_loop(64u << 20);
  ASSERT_FALSE(dev.empty());
  const std::filesystem::path ro = file("ro");
  std::filesystem::create_directories(ro);
  if (::mount("tmpfs", ro.c_str(), "tmpfs", MS_RDONLY, "size=1m") != 0) GTEST_SKIP() << "cannot mount a tmpfs here";
  {
    std::ofstream out(dev, std::ios::binary | std::ios::in | std::ios::out);
    out << std::string(8u << 20, 'r');
  }
  const std::string before = read_device(dev);
  int rc = diskvet("run --suite quick --device " + dev + " --destroy-data " + dev + " --duration 0.3s --profile none -q --out " +
                   (ro / "r.json").string());
  ::umount(ro.c_str());
  const std::string said = log();
  EXPECT_EQ(rc, 2) << said;
  EXPECT_NE(said.find("Read-only file system"), std::string::npos) << said;
  EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 1) << said;
  EXPECT_TRUE(read_device(dev) == before) << "the device was written for a run whose report could not be written";
}
