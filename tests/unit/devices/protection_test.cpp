// Protection rules against a fake sysfs/proc tree: mounts, holders, swap, root, boot, read-only.
#include "devices/protection.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "devices/discovery.hpp"
#include "devices/host_state.hpp"
#include "tests/unit/devices/fat_image.hpp"
#include "tests/unit/support/fake_sysfs.hpp"

namespace diskvet::devices {
namespace {

using test::FakeSysfs;

// A fake host with one SCSI disk sdb (8:16) and two partitions sdb1 (8:17), sdb2 (8:18).
struct FakeHost {
  FakeSysfs fake;
  std::filesystem::path disk;
  FakeHost() {
    disk = fake.add_disk("pci0000:00/host1/target1:0:0/1:0:0:0", "sdb", "8:16", 1 << 20);
    fake.add_partition(disk, "sdb1", "8:17");
    fake.add_partition(disk, "sdb2", "8:18");
    for (const char* id : {"8:16", "8:17", "8:18"}) {
      std::filesystem::create_directories(fake.sysfs() / "dev" / "block");
      std::string target = std::string(id) == "8:16" ? "" : (std::string(id) == "8:17" ? "/sdb1" : "/sdb2");
      std::filesystem::create_directory_symlink(disk.string() + target, fake.sysfs() / "dev" / "block" / id);
    }
    mountinfo("");
    fake.write_proc("swaps", "Filename\tType\tSize\tUsed\tPriority\n");
    fake.write_proc("cmdline", "BOOT_IMAGE=/vmlinuz quiet\n");
  }
  void mountinfo(const std::string& extra) {
    fake.write_proc("self/mountinfo",
                    "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
                    "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n" + extra);
  }
  HostPaths host() const { return HostPaths{fake.sysfs(), fake.dev(), fake.proc()}; }
  Device device() const {
    auto d = describe_disk(disk, host());
    EXPECT_TRUE(d.has_value());
    return d.value_or(Device{});
  }
  Protection assess() const { return assess_protection(device(), host()); }
};

bool has(const Protection& p, ProtectionClass c, const std::string& words) {
  for (const auto& r : p.reasons)
    if (r.cls == c && r.text.find(words) != std::string::npos) return true;
  return false;
}

TEST(ProtectionRules, LeavesAnUnusedDiskUnprotected) {
  FakeHost h;
  auto p = h.assess();
  EXPECT_FALSE(p.is_protected()) << (p.reasons.empty() ? "" : p.reasons[0].text);
}

TEST(ProtectionRules, RefusesWriteToMountedDevice) {
  FakeHost h;
  h.mountinfo("40 27 8:16 / /data rw - xfs /dev/sdb rw\n");
  EXPECT_TRUE(has(h.assess(), ProtectionClass::mounted, "is mounted at /data"));
}

TEST(ProtectionRules, ProtectsTheDiskWhenAPartitionIsMounted) {
  FakeHost h;
  h.mountinfo("40 27 8:18 / /srv/my\\040data rw shared:1 - ext4 /dev/sdb2 rw\n");
  auto p = h.assess();
  EXPECT_TRUE(has(p, ProtectionClass::mounted, "partition sdb2 is mounted at /srv/my data"));
  EXPECT_FALSE(p.only_overridable());
}

TEST(ProtectionRules, MatchesAMountByItsSourceNodeWhenTheNumberIsAnonymous) {
  FakeHost h;
  // btrfs reports an anonymous device number; the source names the partition.
  h.mountinfo("40 27 0:45 / /home rw - btrfs " + (h.fake.dev() / "sdb1").string() + " rw\n");
  EXPECT_TRUE(has(h.assess(), ProtectionClass::mounted, "partition sdb1 is mounted at /home"));
}

TEST(ProtectionRules, RefusesADiskWithHoldersOnAPartition) {
  FakeHost h;
  std::filesystem::create_directories(h.disk / "sdb1" / "holders" / "dm-3");
  EXPECT_TRUE(has(h.assess(), ProtectionClass::holders, "partition sdb1 is held by dm-3"));
}

TEST(ProtectionRules, RefusesADiskWithHoldersOnTheDisk) {
  FakeHost h;
  std::filesystem::create_directories(h.disk / "holders" / "md0");
  EXPECT_TRUE(has(h.assess(), ProtectionClass::holders, "is held by md0"));
}

TEST(ProtectionRules, RefusesAPartitionInUseAsSwap) {
  FakeHost h;
  h.fake.write_proc("swaps", "Filename\tType\tSize\tUsed\tPriority\n" + (h.fake.dev() / "sdb2").string() +
                                 "  partition\t8388604\t0\t-2\n");
  EXPECT_TRUE(has(h.assess(), ProtectionClass::swap, "partition sdb2 is in use as swap"));
}

TEST(ProtectionRules, RefusesTheDiskBackingTheRootFilesystem) {
  FakeHost h;
  h.fake.write_proc("self/mountinfo", "27 1 8:17 / / rw,relatime - ext4 /dev/sdb1 rw\n");
  auto p = h.assess();
  EXPECT_TRUE(has(p, ProtectionClass::root, "backs the running root filesystem"));
  EXPECT_TRUE(has(p, ProtectionClass::mounted, "partition sdb1 is mounted at /"));
}

TEST(ProtectionRules, RefusesTheDiskBehindARootOnLvm) {
  FakeHost h;
  // dm-0 (254:0) sits on sdb2 and carries the root filesystem.
  auto dm = h.fake.add_disk("virtual", "dm-0", "254:0", 1000);
  std::filesystem::create_directories(dm / "slaves");
  std::filesystem::create_directory_symlink(h.disk / "sdb2", dm / "slaves" / "sdb2");
  std::filesystem::create_directories(h.disk / "sdb2" / "holders" / "dm-0");
  std::filesystem::create_directory_symlink(dm, h.fake.sysfs() / "dev" / "block" / "254:0");
  h.fake.write_proc("self/mountinfo", "27 1 254:0 / / rw - ext4 /dev/mapper/vg-root rw\n");
  auto p = h.assess();
  EXPECT_TRUE(has(p, ProtectionClass::root, "backs the running root filesystem"));
  EXPECT_TRUE(has(p, ProtectionClass::holders, "partition sdb2 is held by dm-0"));
}

TEST(ProtectionRules, RefusesTheBootMedium) {
  FakeHost h;
  h.mountinfo("41 27 8:17 / /boot/efi rw - vfat /dev/sdb1 rw\n");
  EXPECT_TRUE(has(h.assess(), ProtectionClass::boot_medium, "holds the boot medium (/boot/efi)"));
}

TEST(ProtectionRules, RefusesTheDiskMountedWhereTheImageMountsItsMedium) {
  FakeHost h;
  h.mountinfo("41 27 8:16 / /media/boot ro - iso9660 /dev/sdb ro\n");
  auto p = h.assess();
  EXPECT_TRUE(has(p, ProtectionClass::boot_medium, "holds the boot medium (/media/boot)"));
}

// A partition node of the fake host holding `bytes` (a regular file that libblkid probes as it
// would the device).
void put_partition_bytes(const FakeHost& h, const std::string& part, const std::string& bytes) {
  std::ofstream(h.fake.dev() / part, std::ios::binary) << bytes;
}

TEST(ProtectionRules, ProtectsAnUnmountedDiskCarryingTheMediumMarker) {
  FakeHost h;
  test::FatImage fat("DISKVET", 0x0123abcd);
  fat.add_file("diskvet.conf.example", "run=quick\n");
  fat.add_file("diskvet-medium-id", "0123abcd4567ef89\n");
  put_partition_bytes(h, "sdb2", fat.bytes());
  auto p = h.assess();
  EXPECT_TRUE(has(p, ProtectionClass::boot_medium, "holds the boot medium (diskvet medium marker 0123abcd4567ef89 on partition sdb2)"))
      << (p.reasons.empty() ? "no reason" : p.reasons[0].text);
  EXPECT_FALSE(p.only_overridable()) << "no consent may write the boot medium";
}

TEST(ProtectionRules, ADiskvetLabelWithoutTheMarkerIsNotTheBootMedium) {
  FakeHost h;
  test::FatImage fat("DISKVET", 0x0123abcd);  // a reports disk the operator formatted, no marker
  fat.add_file("diskvet.conf", "run=quick\n");
  put_partition_bytes(h, "sdb2", fat.bytes());
  EXPECT_FALSE(has(h.assess(), ProtectionClass::boot_medium, ""));
}

TEST(ProtectionRules, ProtectsThePartitionTheBootLoaderNamesWhateverItsCase) {
  FakeHost h;
  test::FatImage fat("EFIBOOT", 0xabcd1234);
  put_partition_bytes(h, "sdb1", fat.bytes());
  // GRUB prints a FAT serial in lower case, libblkid in upper case.
  h.fake.write_proc("cmdline", "BOOT_IMAGE=/boot/vmlinuz console=ttyS0 diskvet.boot=UUID=abcd-1234\n");
  EXPECT_TRUE(has(h.assess(), ProtectionClass::boot_medium, "diskvet.boot=UUID=abcd-1234 names partition sdb1"));
  h.fake.write_proc("cmdline", "BOOT_IMAGE=/boot/vmlinuz diskvet.boot=LABEL=EFIBOOT\n");
  EXPECT_TRUE(has(h.assess(), ProtectionClass::boot_medium, "diskvet.boot=LABEL=EFIBOOT names partition sdb1"));
  h.fake.write_proc("cmdline", "BOOT_IMAGE=/boot/vmlinuz diskvet.boot=UUID=abcd-9999\n");
  EXPECT_FALSE(has(h.assess(), ProtectionClass::boot_medium, "")) << "a spec naming another volume protects nothing here";
}

TEST(ProtectionRules, ReportsAProgramWritingAPartitionWithoutOpeningTheDisk) {
  FakeHost h;
  auto pid = h.fake.proc() / "4242";
  std::filesystem::create_directories(pid / "fd");
  std::filesystem::create_symlink(h.fake.dev() / "sdb1", pid / "fd" / "3");
  std::filesystem::create_symlink(h.fake.dev() / "sdb2", pid / "fd" / "4");
  h.fake.write_proc("4242/fdinfo/3", "pos:\t0\nflags:\t0100002\nmnt_id:\t25\n");  // O_RDWR
  h.fake.write_proc("4242/fdinfo/4", "pos:\t0\nflags:\t0100000\nmnt_id:\t25\n");  // O_RDONLY
  h.fake.write_proc("4242/comm", "mkfs.ext4\n");
  auto p = h.assess();
  EXPECT_TRUE(has(p, ProtectionClass::busy, "partition sdb1 is open for writing by pid 4242 (mkfs.ext4)"));
  EXPECT_FALSE(has(p, ProtectionClass::busy, "partition sdb2")) << "a reader does not make the disk busy";
  EXPECT_FALSE(p.only_overridable());
}

TEST(ProtectionRules, RefusesAReadOnlyDisk) {
  FakeHost h;
  h.fake.write(std::filesystem::relative(h.disk / "ro", h.fake.sysfs()).string(), "1\n");
  EXPECT_TRUE(has(h.assess(), ProtectionClass::read_only, "is read-only"));
}

TEST(ProtectionRules, AlwaysProtectsDeviceMapperAndMd) {
  FakeHost h;
  h.fake.add_disk("virtual", "dm-1", "254:1", 1000);
  auto d = describe_disk(h.fake.sysfs() / "block" / "dm-1", h.host());
  ASSERT_TRUE(d);
  EXPECT_EQ(d->kind, DeviceKind::dm);
  EXPECT_TRUE(has(assess_protection(*d, h.host()), ProtectionClass::stacked, "is a dm device"));
}

TEST(ProtectionRules, FailsClosedWithoutMountinfo) {
  FakeHost h;
  std::filesystem::remove(h.fake.proc() / "self" / "mountinfo");
  EXPECT_TRUE(has(h.assess(), ProtectionClass::unprobed, "mountinfo"));
}

TEST(ProtectionRules, DiscoveryCopiesTheAssessmentIntoTheDevice) {
  FakeHost h;
  h.mountinfo("40 27 8:16 / /data rw - xfs /dev/sdb rw\n");
  DiscoveryOptions o;
  o.host = h.host();
  o.use_udev = false;
  o.read_health = false;
  auto all = discover(o);
  ASSERT_TRUE(all);
  ASSERT_EQ(all->size(), 1u);
  EXPECT_TRUE(all->front().is_protected);
  EXPECT_FALSE(all->front().protection_overridable);
  EXPECT_EQ(all->front().protection_reasons.at(0), "is mounted at /data");
}

TEST(HostState, ParsesMountinfoWithOptionalFieldsAndEscapes) {
  auto m = parse_mountinfo("36 35 98:0 /mnt1 /mnt\\0402 rw,noatime master:1 shared:2 - ext3 /dev/root rw,errors=continue\n");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].dev_id, "98:0");
  EXPECT_EQ(m[0].mountpoint, "/mnt 2");
  EXPECT_EQ(m[0].fstype, "ext3");
  EXPECT_EQ(m[0].source, "/dev/root");
}

TEST(HostState, AnEmptyMountSourceStaysEmptyAndTheOptionsStayOptions) {
  auto m = parse_mountinfo("40 35 0:45 / /x rw,relatime - tmpfs  rw,size=1024k\n"
                           "41 35 8:1 / /y rw - ext4 /dev/sda1 rw,errors=remount-ro\n");
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].fstype, "tmpfs");
  EXPECT_EQ(m[0].source, "");
  EXPECT_EQ(m[0].super_options, "rw,size=1024k");
  EXPECT_EQ(m[1].source, "/dev/sda1");
  EXPECT_EQ(m[1].super_options, "rw,errors=remount-ro");
}

TEST(HostState, ParsesSwapsAndSkipsTheHeader) {
  auto s = parse_swaps("Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n/dev/sda3   partition\t1\t0\t-2\n/swapfile  file  1 0 -3\n");
  EXPECT_EQ(s, (std::vector<std::string>{"/dev/sda3", "/swapfile"}));
}

TEST(HostState, DecodesEveryCharacterTheKernelEscapesInMountinfoAndSwaps) {
  // show_mountinfo() and /proc/swaps write space, tab, newline and backslash as \ooo.
  auto m = parse_mountinfo("40 27 8:17 / /a\\040b\\011c\\012d\\134e rw shared:1 - ext4 /dev/disk/by-label/my\\040disk rw\n");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].mountpoint, "/a b\tc\nd\\e");
  EXPECT_EQ(m[0].source, "/dev/disk/by-label/my disk");
  EXPECT_EQ(m[0].dev_id, "8:17");
  auto s = parse_swaps("Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n/swap\\040file file 1 0 -2\n");
  EXPECT_EQ(s, (std::vector<std::string>{"/swap file"}));
}

TEST(HostState, ReadsKernelCommandLineValues) {
  EXPECT_EQ(cmdline_value("BOOT_IMAGE=/vmlinuz root=UUID=1234-abcd ro quiet", "root"), "UUID=1234-abcd");
  EXPECT_EQ(cmdline_value("rootwait diskvet.boot=LABEL=DISKVET", "diskvet.boot"), "LABEL=DISKVET");
  EXPECT_EQ(cmdline_value("rootwait quiet", "root"), "");
}

}  // namespace
}  // namespace diskvet::devices
