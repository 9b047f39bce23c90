// Counters that must add up (issue 26): a drive's host-write counter against what was sent to it,
// the kernel's per-device sector counts that say what was sent, and SATA's attribute 241.
#include "devices/write_accounting.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "devices/disk_stats.hpp"
#include "devices/smartctl.hpp"
#include "tests/unit/support/fake_sysfs.hpp"

namespace diskvet::devices {
namespace {

constexpr uint64_t kMiB = 1u << 20;

// An NVMe snapshot: Data Units Written and the kernel's sectors written, for the namespace and for
// every namespace of its controller.
Health nvme(uint64_t data_units, uint64_t host_sectors, uint64_t device_sectors) {
  Health h;
  h.known = true;
  h.source = "nvme";
  h.data_units_written = data_units;
  h.host_sectors_written = host_sectors;
  h.device_sectors_written = device_sectors;
  return h;
}

// The counter as a drive keeps it: whole thousands of 512-byte units, rounded up.
uint64_t units(uint64_t bytes) { return (bytes / 512 + 999) / 1000; }

TEST(WriteAccounting, AgreesWhenTheDriveCountedWhatTheHostSent) {
  const uint64_t before = 5'000'000'000, sent = 64 * kMiB;
  auto a = account_writes(nvme(units(before), before / 512, 0), nvme(units(before + sent), (before + sent) / 512, sent / 512), sent);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->result, WriteCount::agrees);
  EXPECT_FALSE(a->fails());
  EXPECT_EQ(a->counter, "NVMe Data Units Written");
  EXPECT_EQ(a->sent_source, "kernel");
  EXPECT_EQ(a->sent_bytes, sent);
  EXPECT_EQ(a->tolerance_bytes, kNvmeDataUnitBytes);
  EXPECT_FALSE(a->other_writer_bytes);
  EXPECT_NE(a->words.find("within one counter unit"), std::string::npos) << a->words;
}

TEST(WriteAccounting, RoundingOfBothReadingsIsNeverAFinding) {
  // 1 byte short of a unit boundary before, 1 sector past one after: the readings round up to a
  // difference one unit more than what was written, and a few sectors can read as a whole unit.
  for (uint64_t before_sectors : {999u, 1000u, 1001u, 1999u})
    for (uint64_t sent_sectors : {1u, 8u, 999u, 1000u, 1001u, 125'000u}) {
      const uint64_t after_sectors = before_sectors + sent_sectors;
      auto a = account_writes(nvme((before_sectors + 999) / 1000, before_sectors, 0), nvme((after_sectors + 999) / 1000, after_sectors, sent_sectors),
                              sent_sectors * 512);
      ASSERT_TRUE(a);
      EXPECT_EQ(a->result, WriteCount::agrees) << before_sectors << " + " << sent_sectors << ": " << a->words;
    }
}

TEST(WriteAccounting, NamesADriveThatCountedLessThanItWasSent) {
  const uint64_t sent = 64'000'000'000;  // 64.0 GB sent, 12.0 GB counted
  auto a = account_writes(nvme(100, 0, 0), nvme(100 + 12'000'000'000 / kNvmeDataUnitBytes, sent / 512, sent / 512), sent);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->result, WriteCount::counted_less);
  EXPECT_TRUE(a->fails());
  EXPECT_NE(a->words.find("counted 11.2GiB written for 59.6GiB"), std::string::npos) << a->words;
  EXPECT_NE(a->words.find("compression, deduplication or a counter that lies"), std::string::npos) << a->words;
}

TEST(WriteAccounting, NamesADriveThatCountedFarMoreThanThisHostSent) {
  // Someone this host cannot see wrote 32 MiB (NVMe passthrough, another host): the kernel and
  // diskvet agree on 16 MiB, the drive counted 48.
  const uint64_t sent = 16 * kMiB, drive = 48 * kMiB;
  auto a = account_writes(nvme(0, 0, 0), nvme(units(drive), sent / 512, sent / 512), sent);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->result, WriteCount::counted_more);
  EXPECT_FALSE(a->other_writer_bytes);  // the host itself sent only diskvet's writes
  EXPECT_NE(a->words.find("a writer this host cannot see"), std::string::npos) << a->words;
}

TEST(WriteAccounting, AnotherWriterOnThisHostIsNamedAndTheDriveIsNotBlamed) {
  // A second program wrote 64 MiB through the kernel: the drive counted it and so did the kernel.
  const uint64_t diskvet = 16 * kMiB, other = 64 * kMiB;
  auto a = account_writes(nvme(0, 0, 0), nvme(units(diskvet + other), (diskvet + other) / 512, (diskvet + other) / 512), diskvet);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->result, WriteCount::agrees);
  ASSERT_TRUE(a->other_writer_bytes);
  EXPECT_EQ(*a->other_writer_bytes, other);
  EXPECT_NE(a->other_writer.find("another program wrote 64MiB"), std::string::npos) << a->other_writer;
}

TEST(WriteAccounting, WritesToOtherNamespacesOfTheControllerAreNotAnotherWriterOfThisOne) {
  // Two namespaces of one controller tested side by side: the controller counts both.
  const uint64_t mine = 16 * kMiB, neighbour = 16 * kMiB;
  auto a = account_writes(nvme(0, 0, 0), nvme(units(mine + neighbour), (mine + neighbour) / 512, mine / 512), mine);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->result, WriteCount::agrees);
  EXPECT_FALSE(a->other_writer_bytes);
}

TEST(WriteAccounting, WithoutTheKernelsCountDiskvetsBytesAreTheReference) {
  Health before = nvme(0, 0, 0), after = nvme(units(8 * kMiB), 0, 0);
  before.host_sectors_written.reset();
  after.host_sectors_written.reset();
  before.device_sectors_written.reset();
  after.device_sectors_written.reset();
  auto a = account_writes(before, after, 64 * kMiB);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->sent_source, "diskvet");
  EXPECT_EQ(a->result, WriteCount::counted_less);
}

TEST(WriteAccounting, NothingIsJudgedWithoutACounter) {
  Health h;
  h.known = true;
  EXPECT_FALSE(account_writes(h, h, 64 * kMiB));
  EXPECT_FALSE(account_writes(nvme(0, 0, 0), h, 64 * kMiB));  // the counter could not be read after the run
}

TEST(WriteAccounting, TakesSataAttribute241InTheUnitSmartctlNames) {
  auto parse = [](const char* name, uint64_t raw) {
    return parse_smartctl_json(fmt::format(R"({{"smart_status": {{"passed": true}}, "logical_block_size": 4096,
      "ata_smart_attributes": {{"table": [{{"id": 241, "name": "{}", "raw": {{"value": {}}}}}]}}}})",
                                           name, raw));
  };
  auto lbas = parse("Total_LBAs_Written", 1000);
  ASSERT_TRUE(lbas);
  EXPECT_EQ(lbas->ata_written_units, 1000u);
  EXPECT_EQ(lbas->ata_written_unit_bytes, 4096u);
  auto mib32 = parse("Host_Writes_32MiB", 3);
  ASSERT_TRUE(mib32);
  EXPECT_EQ(mib32->ata_written_unit_bytes, 32 * kMiB);
  auto unknown = parse("Vendor_Specific_241", 3);  // a unit nobody named is never guessed
  ASSERT_TRUE(unknown);
  EXPECT_FALSE(unknown->ata_written_units);

  Health before = *mib32, after = *mib32;
  after.ata_written_units = 3 + 1;  // 32 MiB counted, 256 MiB sent
  auto a = account_writes(before, after, 256 * kMiB);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->counter, "ATA attribute 241 Host_Writes_32MiB");
  EXPECT_EQ(a->tolerance_bytes, 32 * kMiB);
  EXPECT_EQ(a->result, WriteCount::counted_less);
}

TEST(WriteAccounting, ATotalLbasWrittenCounterIsTakenInLogicalBlocksUnlessItAddsUpIn32MiBUnits) {
  auto lbas = [](uint64_t raw) {
    auto h = parse_smartctl_json(fmt::format(R"({{"smart_status": {{"passed": true}}, "logical_block_size": 512,
      "ata_smart_attributes": {{"table": [{{"id": 241, "name": "Total_LBAs_Written", "raw": {{"value": {}}}}}]}}}})",
                                             raw));
    EXPECT_TRUE(h);
    return h.value_or(Health{});
  };
  // A drive that counts what its name says: the assumption is stated.
  auto exact = account_writes(lbas(1000), lbas(1000 + 64 * kMiB / 512), 64 * kMiB);
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->result, WriteCount::agrees);
  EXPECT_NE(exact->words.find("(attribute 241 taken in 512-byte logical blocks, as its name says)"), std::string::npos) << exact->words;
  // 20 units for 640 MiB sent: 1/65536 of the count in 512-byte blocks, exactly 32 MiB each.
  auto units = account_writes(lbas(1000), lbas(1020), 640 * kMiB);
  ASSERT_TRUE(units);
  EXPECT_EQ(units->result, WriteCount::agrees) << units->words;
  EXPECT_EQ(units->unit_bytes, 32 * kMiB);
  EXPECT_EQ(units->counted_bytes, 640 * kMiB);
  EXPECT_NE(units->words.find("this drive counts attribute 241 in 32 MiB units, not the 512-byte logical blocks its name says (its growth, 20 units, "
                              "is 1/65536 of the 512-byte blocks sent)"),
            std::string::npos)
      << units->words;
  // Two units for 64 MiB could be chance: judged in logical blocks, and it counted less.
  auto few = account_writes(lbas(1000), lbas(1002), 64 * kMiB);
  ASSERT_TRUE(few);
  EXPECT_EQ(few->result, WriteCount::counted_less);
  EXPECT_EQ(few->unit_bytes, 512u);
  // 20 units that are not the 32 MiB count of what was sent (here 1 GiB) stay a counter that lies.
  EXPECT_EQ(account_writes(lbas(1000), lbas(1020), 1024 * kMiB)->result, WriteCount::counted_less);
}

TEST(WriteAccounting, TheKernelCountCoversEveryNamespaceOfTheController) {
  diskvet::test::FakeSysfs fs;
  // nvme0: namespaces 1 and 2 through multipath paths nvme0c0n1 and nvme0c0n2 (their heads nvme0n1
  // and nvme0n2 count nothing before Linux 6.3); nvme1's namespace is another controller's.
  fs.write("class/nvme/nvme0/nvme0c0n1/stat", "1 0 8 0 10 0 1000 0 0 0 0\n");
  fs.write("class/nvme/nvme0/nvme0c0n2/stat", "1 0 8 0 10 0 24 0 0 0 0\n");
  fs.write("class/nvme/nvme0/device/vendor", "0x1b36\n");
  fs.write("block/nvme0n1/stat", "1 0 8 0 0 0 0 0 0 0 0\n");
  fs.write("class/nvme/nvme1/nvme1n1/stat", "1 0 8 0 10 0 7777 0 0 0 0\n");
  fs.write("block/nvme1n1/stat", "1 0 8 0 10 0 7777 0 0 0 0\n");
  fs.write("block/sda/stat", "1 0 8 0 10 0 4242 0 0 0 0\n");
  SectorsWritten w = sectors_written("nvme0n1", "nvme0", fs.sysfs());
  EXPECT_EQ(w.device, 1000u);
  EXPECT_EQ(w.covered, 1024u);
  SectorsWritten single = sectors_written("nvme1n1", "nvme1", fs.sysfs());  // no multipath
  EXPECT_EQ(single.device, 7777u);
  EXPECT_EQ(single.covered, 7777u);
  SectorsWritten sata = sectors_written("sda", "", fs.sysfs());  // no controller: the disk alone
  EXPECT_EQ(sata.device, 4242u);
  EXPECT_EQ(sata.covered, 4242u);
  EXPECT_FALSE(sectors_written("sdz", "", fs.sysfs()).device);
}

// NVMe passthrough writes go around the block layer, whose counters never see them: they are added
// to the kernel's count, and not taken for another program's writes.
TEST(WriteAccounting, PassthroughWritesTheKernelNeverCountedAreAddedToWhatItSent) {
  const uint64_t block = 40 * kMiB, passthrough = 24 * kMiB, sent = block + passthrough;
  auto a = account_writes(nvme(0, 0, 0), nvme(units(sent), block / 512, block / 512), sent, passthrough);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->result, WriteCount::agrees) << a->words;
  EXPECT_EQ(a->sent_bytes, sent);
  EXPECT_EQ(a->passthrough_bytes, passthrough);
  EXPECT_FALSE(a->other_writer_bytes);
  EXPECT_NE(a->words.find("diskvet's NVMe passthrough (24MiB)"), std::string::npos) << a->words;
  // Without saying so, the drive counts more than the kernel sent: the finding the run used to make.
  auto blind = account_writes(nvme(0, 0, 0), nvme(units(sent), block / 512, block / 512), sent);
  ASSERT_TRUE(blind);
  EXPECT_EQ(blind->result, WriteCount::counted_more);
  // Another program's block-layer writes beside passthrough are still found.
  const uint64_t other = 8 * kMiB;
  auto shared = account_writes(nvme(0, 0, 0), nvme(units(sent + other), (block + other) / 512, (block + other) / 512), sent, passthrough);
  ASSERT_TRUE(shared);
  ASSERT_TRUE(shared->other_writer_bytes);
  EXPECT_EQ(*shared->other_writer_bytes, other);
}

}  // namespace
}  // namespace diskvet::devices
