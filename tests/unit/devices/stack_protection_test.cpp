// Rule 2 of the gate on fake sysfs trees with the stack's facts given: loop devices over disks,
// partitions and files, loop devices over the target, siblings sharing a backing file, writers by
// device number through any node, shared writable mappings, and loop devices that do not answer.
#include <gtest/gtest.h>

#include <filesystem>

#include "devices/discovery.hpp"
#include "devices/host_state.hpp"
#include "devices/protection.hpp"
#include "devices/stack_facts.hpp"
#include "tests/unit/support/fake_sysfs.hpp"

namespace diskvet::devices {
namespace {

using test::FakeSysfs;
namespace fs = std::filesystem;

constexpr const char* kBaseMounts =
    "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
    "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n";

// sdb (8:16) with partitions sdb1 (8:17) and sdb2 (8:18); loop devices loop3..loop5 (7:3..7:5).
struct StackHost {
  FakeSysfs fake;
  fs::path disk;
  StackFacts facts;
  StackHost() {
    disk = fake.add_disk("pci0000:00/host1/target1:0:0/1:0:0:0", "sdb", "8:16", 1 << 20);
    fake.add_partition(disk, "sdb1", "8:17");
    fake.add_partition(disk, "sdb2", "8:18");
    link("8:16", disk);
    link("8:17", disk / "sdb1");
    link("8:18", disk / "sdb2");
    for (int n = 3; n <= 5; ++n) {
      std::string name = "loop" + std::to_string(n), id = "7:" + std::to_string(n);
      auto dir = fake.add_disk("virtual", name, id, 1 << 16);
      fake.write("devices/virtual/block/" + name + "/loop/backing_file", "/images/" + name + ".img\n");
      link(id, dir);
    }
    fake.write_proc("self/mountinfo", kBaseMounts);
    fake.write_proc("swaps", "Filename\tType\tSize\tUsed\tPriority\n");
    fake.write_proc("cmdline", "BOOT_IMAGE=/vmlinuz quiet\n");
    facts.mounts = parse_mountinfo(kBaseMounts);
  }
  void link(const std::string& id, const fs::path& dir) {
    fs::create_directories(fake.sysfs() / "dev" / "block");
    fs::create_directory_symlink(dir, fake.sysfs() / "dev" / "block" / id);
  }
  void mount(const std::string& line) {
    for (auto& m : parse_mountinfo(line)) facts.mounts.push_back(m);
  }
  LoopBacking& loop_over_device(int n, const std::string& backing_id, uint64_t offset = 0) {
    facts.loops.push_back({"loop" + std::to_string(n), "7:" + std::to_string(n), true, {}, {}, backing_id, offset, 0,
                           "/dev/" + backing_id});
    return facts.loops.back();
  }
  LoopBacking& loop_over_file(int n, FileId file) {
    facts.loops.push_back({"loop" + std::to_string(n), "7:" + std::to_string(n), true, {}, file, {}, 0, 0, "/images/shared.img"});
    return facts.loops.back();
  }
  HostPaths host() const { return HostPaths{fake.sysfs(), fake.dev(), fake.proc()}; }
  Protection assess(const std::string& name) const {
    auto d = describe_disk(fake.sysfs() / "block" / name, host());
    EXPECT_TRUE(d.has_value()) << name;
    return assess_protection(d.value_or(Device{}), host(), ProtectionProbes{.signatures = false, .facts = &facts});
  }
};

std::string all(const Protection& p) {
  std::string out;
  for (const auto& r : p.reasons) out += r.text + "\n";
  return out;
}

bool has(const Protection& p, ProtectionClass c, const std::string& words) {
  for (const auto& r : p.reasons)
    if (r.cls == c && r.text.find(words) != std::string::npos) return true;
  return false;
}

TEST(StackProtection, ABlankLoopDeviceOverAnUnusedFileStaysWritable) {
  StackHost h;
  h.loop_over_file(3, {0x31, 1001});
  auto p = h.assess("loop3");
  EXPECT_FALSE(p.is_protected()) << all(p);
}

TEST(StackProtection, ALoopDeviceAtAnOffsetOverAMountedDiskIsProtectedAndTheChainNamed) {
  StackHost h;
  h.loop_over_device(3, "8:16", 16ull << 20);
  h.mount("40 27 8:16 / /data rw - ext4 /dev/sdb rw\n");
  auto p = h.assess("loop3");
  EXPECT_TRUE(has(p, ProtectionClass::mounted, "is backed by sdb at offset 16MiB; sdb: is mounted at /data")) << all(p);
  EXPECT_FALSE(p.only_overridable());
}

TEST(StackProtection, ALoopDeviceOverOnePartitionIsProtectedByAnotherPartitionMounted) {
  StackHost h;
  h.loop_over_device(3, "8:18");
  h.mount("40 27 8:17 / /srv rw - ext4 /dev/sdb1 rw\n");
  auto p = h.assess("loop3");
  EXPECT_TRUE(has(p, ProtectionClass::mounted, "is backed by sdb2 (a partition of sdb); sdb: partition sdb1 is mounted at /srv"))
      << all(p);
}

TEST(StackProtection, ALoopDeviceSharingItsBackingFileWithAMountedLoopDeviceIsProtected) {
  StackHost h;
  h.loop_over_file(3, {0x31, 77});
  h.loop_over_file(4, {0x31, 77});
  h.mount("41 27 7:4 / /mnt/image rw - ext4 /dev/loop4 rw\n");
  auto p = h.assess("loop3");
  EXPECT_TRUE(has(p, ProtectionClass::mounted, "shares its backing file /images/shared.img with loop4; loop4: is mounted at /mnt/image"))
      << all(p);
}

TEST(StackProtection, SameInodeNumberOnAnotherFileSystemIsNotTheSameBacking) {
  StackHost h;
  h.loop_over_file(3, {0x31, 77});
  h.loop_over_file(4, {0x32, 77});
  h.mount("41 27 7:4 / /mnt/image rw - ext4 /dev/loop4 rw\n");
  auto p = h.assess("loop3");
  EXPECT_FALSE(p.is_protected()) << all(p);
}

TEST(StackProtection, ADiskIsProtectedByAMountedLoopDeviceOverOneOfItsPartitions) {
  StackHost h;
  h.loop_over_device(5, "8:17", 1 << 20);
  h.mount("42 27 7:5 / /var/lib/vm rw - xfs /dev/loop5 rw\n");
  auto p = h.assess("sdb");
  EXPECT_TRUE(has(p, ProtectionClass::mounted, "loop5 is backed by partition sdb1; loop5: is mounted at /var/lib/vm")) << all(p);
}

TEST(StackProtection, AChainOfLoopDevicesIsFollowedToTheMountedDiskAtItsBottom) {
  StackHost h;
  h.loop_over_device(3, "7:4");
  h.loop_over_device(4, "8:16");
  h.mount("40 27 8:18 / /home rw - ext4 /dev/sdb2 rw\n");
  auto p = h.assess("loop3");
  EXPECT_TRUE(has(p, ProtectionClass::mounted, "is backed by loop4; loop4 is backed by sdb; sdb: partition sdb2 is mounted at /home"))
      << all(p);
}

TEST(StackProtection, AWriterThroughANodeOutsideDevIsFoundByDeviceNumber) {
  StackHost h;
  h.facts.writers.push_back({"4242", "qemu-system-x86", "open for writing", "8:16", {}, "/srv/chroot/dev/vdisk"});
  auto p = h.assess("sdb");
  EXPECT_TRUE(has(p, ProtectionClass::busy, "is open for writing by pid 4242 (qemu-system-x86)")) << all(p);
  EXPECT_FALSE(p.only_overridable());
}

TEST(StackProtection, ASharedWritableMappingOfAPartitionProtectsTheDisk) {
  StackHost h;
  h.facts.writers.push_back({"77", "mapper", "mapped shared and writable", "8:18", {}, "/dev/sdb2"});
  auto p = h.assess("sdb");
  EXPECT_TRUE(has(p, ProtectionClass::busy, "partition sdb2 is mapped shared and writable by pid 77 (mapper)")) << all(p);
}

TEST(StackProtection, AProgramWritingTheDiskUnderALoopDeviceProtectsTheLoopDevice) {
  StackHost h;
  h.loop_over_device(3, "8:16");
  h.facts.writers.push_back({"9", "dd", "open for writing", "8:17", {}, "/mnt/c/dev/sdb1"});
  auto p = h.assess("loop3");
  EXPECT_TRUE(has(p, ProtectionClass::busy, "is backed by sdb; sdb: partition sdb1 is open for writing by pid 9 (dd)")) << all(p);
}

TEST(StackProtection, ABackingFileOpenForWritingOrMappedByAnotherProgramProtectsTheLoopDevice) {
  StackHost h;
  h.loop_over_file(3, {0x31, 77});
  h.facts.writers.push_back({"31", "vm", "mapped shared and writable", {}, {0x31, 77}, "/images/shared.img"});
  auto p = h.assess("loop3");
  EXPECT_TRUE(has(p, ProtectionClass::busy, "is backed by /images/shared.img, which is mapped shared and writable by pid 31 (vm)")) << all(p);
}

TEST(StackProtection, ALoopDeviceThatDoesNotSayWhatBacksItIsProtected) {
  StackHost h;
  h.facts.loops.push_back({"loop3", "7:3", false, "did not say what backs it within 2 s", {}, {}, 0, 0, "/mnt/fuse/x.img"});
  auto p = h.assess("loop3");
  EXPECT_TRUE(has(p, ProtectionClass::unprobed, "did not say what backs it within 2 s")) << all(p);
  EXPECT_FALSE(p.only_overridable());
}

TEST(StackProtection, AnUnknownLoopDeviceElsewhereDoesNotProtectAnUnrelatedDisk) {
  StackHost h;
  h.facts.loops.push_back({"loop4", "7:4", false, "did not say what backs it within 2 s", {}, {}, 0, 0, "/mnt/fuse/x.img"});
  auto p = h.assess("sdb");
  EXPECT_FALSE(p.is_protected()) << all(p);
}

TEST(StackProtection, AMountInAnotherNamespaceCountsLikeOneInThisNamespace) {
  StackHost h;
  // gather_stack_facts reads every namespace's mountinfo into facts.mounts; this one is only there.
  h.mount("300 200 8:17 / /container/data rw - ext4 /dev/sdc1 rw\n");
  auto p = h.assess("sdb");
  EXPECT_TRUE(has(p, ProtectionClass::mounted, "partition sdb1 is mounted at /container/data")) << all(p);
}

}  // namespace
}  // namespace diskvet::devices
