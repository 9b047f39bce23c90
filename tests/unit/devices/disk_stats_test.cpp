// A block device's sysfs counters (fio's disk_util), read by device number from a fake sysfs.
#include "devices/disk_stats.hpp"

#include <gtest/gtest.h>
#include <sys/sysmacros.h>

#include "tests/unit/support/fake_sysfs.hpp"

using namespace diskvet::devices;

TEST(DiskStats, ReadsTheCountersFioReportsAsDiskUtil) {
  diskvet::test::FakeSysfs fs;
  fs.write("dev/block/7:3/stat", "  100  2  800  40  50  1  400  30  0  60  70  0  0  0  0\n");
  fs.write("dev/block/7:3/uevent", "MAJOR=7\nMINOR=3\nDEVNAME=loop3\nDEVTYPE=disk\n");
  auto s = read_disk_stats(makedev(7, 3), fs.sysfs());
  ASSERT_TRUE(s);
  EXPECT_EQ(s->name, "loop3");
  EXPECT_EQ(s->read_ios, 100u);
  EXPECT_EQ(s->read_merges, 2u);
  EXPECT_EQ(s->read_sectors, 800u);
  EXPECT_EQ(s->write_sectors, 400u);
  EXPECT_EQ(s->read_ticks_ms, 40u);
  EXPECT_EQ(s->write_ios, 50u);
  EXPECT_EQ(s->write_merges, 1u);
  EXPECT_EQ(s->write_ticks_ms, 30u);
  EXPECT_EQ(s->io_ticks_ms, 60u);
  EXPECT_EQ(s->in_queue_ms, 70u);
  DiskStats later = *s;
  later.read_ios += 5;
  later.io_ticks_ms += 10;
  later.write_sectors += 2000;
  const DiskStats d = later.since(*s);
  EXPECT_EQ(d.read_ios, 5u);
  EXPECT_EQ(d.io_ticks_ms, 10u);
  EXPECT_EQ(d.write_ios, 0u);
  EXPECT_EQ(d.write_sectors, 2000u);
  EXPECT_EQ(d.name, "loop3");
  EXPECT_FALSE(read_disk_stats(makedev(7, 4), fs.sysfs()));  // no such device
}
