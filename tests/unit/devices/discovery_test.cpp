// Discovery against a fake sysfs tree: identity per kind, queue facts, lookups.
#include "devices/discovery.hpp"

#include <gtest/gtest.h>

#include "devices/identity.hpp"
#include "tests/unit/support/fake_sysfs.hpp"

namespace diskvet::devices {
namespace {

using test::FakeSysfs;

DiscoveryOptions fake_options(const FakeSysfs& fake) {
  DiscoveryOptions o;
  o.host = HostPaths{fake.sysfs(), fake.dev(), fake.proc()};
  o.use_udev = false;
  o.assess_protection = false;
  o.read_health = false;
  return o;
}

// An NVMe namespace as the kernel shows it without multipath: block dir under the controller.
std::filesystem::path add_nvme(const FakeSysfs& fake) {
  fake.write("devices/pci0000:00/0000:00:04.0/nvme/nvme0/model", "QEMU NVMe Ctrl                          \n");
  fake.write("devices/pci0000:00/0000:00:04.0/nvme/nvme0/serial", "deadbeef            \n");
  fake.write("devices/pci0000:00/0000:00:04.0/nvme/nvme0/firmware_rev", "8.0.0   \n");
  auto disk = fake.add_disk("pci0000:00/0000:00:04.0/nvme/nvme0", "nvme0n1", "259:0", 2097152, 4096);
  std::filesystem::create_directory_symlink("../..", disk / "device");
  fake.write(std::filesystem::relative(disk, fake.sysfs()).string() + "/wwid", "eui.0025385b71b0a2c1\n");
  fake.write(std::filesystem::relative(disk, fake.sysfs()).string() + "/nsid", "1\n");
  return disk;
}

TEST(Discovery, ReadsNvmeIdentityAndQueueFactsFromSysfs) {
  FakeSysfs fake;
  add_nvme(fake);
  auto all = discover(fake_options(fake));
  ASSERT_TRUE(all) << all.error().message();
  ASSERT_EQ(all->size(), 1u);
  const Device& d = all->front();
  EXPECT_EQ(d.name, "nvme0n1");
  EXPECT_EQ(d.path, (fake.dev() / "nvme0n1").string());
  EXPECT_EQ(d.kind, DeviceKind::nvme);
  EXPECT_EQ(d.model, "QEMU NVMe Ctrl");
  EXPECT_EQ(d.serial, "deadbeef");
  EXPECT_EQ(d.firmware, "8.0.0");
  EXPECT_EQ(d.wwn, "eui.0025385b71b0a2c1");
  EXPECT_EQ(d.nvme_controller, "nvme0");
  EXPECT_EQ(d.nvme_nsid, 1u);
  EXPECT_EQ(d.size_bytes, 2097152ull * 512);
  EXPECT_EQ(d.logical_block_size, 4096u);
  EXPECT_EQ(d.physical_block_size, 4096u);
  EXPECT_EQ(d.write_cache, "write back");
  EXPECT_TRUE(d.discard);
  EXPECT_EQ(d.max_transfer_bytes, 128u * 1024);
  EXPECT_EQ(d.scheduler, "none");
  EXPECT_EQ(d.dev_id, "259:0");
}

// A second namespace on the controller add_nvme made (serial deadbeef).
void add_second_namespace(const FakeSysfs& fake, uint64_t sectors = 2097152) {
  auto disk = fake.add_disk("pci0000:00/0000:00:04.0/nvme/nvme0", "nvme0n2", "259:1", sectors, 4096);
  std::filesystem::create_directory_symlink("../..", disk / "device");
  fake.write(std::filesystem::relative(disk, fake.sysfs()).string() + "/wwid", "eui.0025385b71b0a2c2\n");
  fake.write(std::filesystem::relative(disk, fake.sysfs()).string() + "/nsid", "2\n");
}

TEST(Discovery, ConsentIdOfANamespaceIsSerialSlashNsidWhenTheControllerHasSeveral) {
  FakeSysfs fake;
  add_nvme(fake);
  auto one = discover(fake_options(fake));
  ASSERT_TRUE(one);
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ(one->front().consent_id, "deadbeef") << "the only namespace: its serial names it alone";
  add_second_namespace(fake);
  auto two = discover(fake_options(fake));
  ASSERT_TRUE(two);
  ASSERT_EQ(two->size(), 2u);
  EXPECT_EQ((*two)[0].consent_id, "deadbeef/1");
  EXPECT_EQ((*two)[1].consent_id, "deadbeef/2");
  EXPECT_FALSE(find_device("deadbeef", *two)) << "the serial names two namespaces";
  auto second = find_device("deadbeef/2", *two);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->name, "nvme0n2");
}

TEST(Discovery, AnEmptyNamespaceStillSharesItsControllersSerial) {
  FakeSysfs fake;
  add_nvme(fake);
  add_second_namespace(fake, 0);  // an empty namespace still shares the controller's serial
  auto all = discover(fake_options(fake));
  ASSERT_TRUE(all);
  ASSERT_EQ(all->size(), 1u) << "the list leaves empty disks out";
  EXPECT_EQ(all->front().consent_id, "deadbeef/1") << "but its serial is still shared with the empty namespace";
  auto host = describe_disks(HostPaths{fake.sysfs(), fake.dev(), fake.proc()});
  ASSERT_EQ(host.size(), 2u);
  EXPECT_FALSE(consent_id(host[0], host) == "deadbeef") << "the gate sees the second namespace";
}

TEST(Discovery, FindsTheControllerOfAMultipathNamespaceHead) {
  FakeSysfs fake;
  fake.write("devices/virtual/nvme-subsystem/nvme-subsys0/model", "Acme NVMe\n");
  fake.write("devices/virtual/nvme-subsystem/nvme-subsys0/serial", "S1\n");
  fake.write("devices/virtual/nvme-subsystem/nvme-subsys0/firmware_rev", "1.0\n");
  fake.write("devices/virtual/nvme-subsystem/nvme-subsys0/nvme1/state", "dead\n");
  fake.write("devices/virtual/nvme-subsystem/nvme-subsys0/nvme2/state", "live\n");
  auto head = fake.add_disk("virtual/nvme-subsystem/nvme-subsys0", "nvme1n1", "259:1", 1000);
  std::filesystem::create_directory_symlink("../..", head / "device");
  // The path device behind the head is hidden and must not be listed as a second disk.
  auto path = fake.add_disk("virtual/nvme-subsystem/nvme-subsys0/nvme2", "nvme1c2n1", "259:2", 1000);
  fake.write(std::filesystem::relative(path, fake.sysfs()).string() + "/hidden", "1\n");
  auto all = discover(fake_options(fake));
  ASSERT_TRUE(all);
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ(all->front().name, "nvme1n1");
  EXPECT_EQ(all->front().serial, "S1");
  EXPECT_EQ(all->front().nvme_controller, "nvme2");
}

TEST(Discovery, ReadsScsiSerialFromTheVpdPageAndListsPartitions) {
  FakeSysfs fake;
  std::string dev = "devices/pci0000:00/host0/target0:0:0/0:0:0:0";
  fake.write(dev + "/vendor", "ATA     \n");
  fake.write(dev + "/model", "Samsung SSD 870 \n");
  fake.write(dev + "/rev", "SVT0\n");
  fake.write(dev + "/wwid", "naa.5002538f4231a2b3\n");
  fake.write(dev + "/vpd_pg80", std::string("\x00\x80\x00\x0a  S5Y1NJ0R", 14));
  auto disk = fake.add_disk("pci0000:00/host0/target0:0:0/0:0:0:0", "sda", "8:0", 1000);
  std::filesystem::create_directory_symlink("../..", disk / "device");
  fake.add_partition(disk, "sda1", "8:1");
  fake.add_partition(disk, "sda2", "8:2");
  auto all = discover(fake_options(fake));
  ASSERT_TRUE(all);
  ASSERT_EQ(all->size(), 1u);
  const Device& d = all->front();
  EXPECT_EQ(d.kind, DeviceKind::scsi);
  EXPECT_EQ(d.vendor, "ATA");
  EXPECT_EQ(d.model, "Samsung SSD 870");
  EXPECT_EQ(d.firmware, "SVT0");
  EXPECT_EQ(d.serial, "S5Y1NJ0R");
  EXPECT_EQ(d.partitions, (std::vector<std::string>{"sda1", "sda2"}));
}

TEST(Discovery, ReadsLoopBackingFileAndSkipsUnboundLoops) {
  FakeSysfs fake;
  auto loop = fake.add_disk("virtual", "loop3", "7:3", 2048);
  fake.write(std::filesystem::relative(loop, fake.sysfs()).string() + "/loop/backing_file", "/dev/shm/x.img\n");
  fake.add_disk("virtual", "loop4", "7:4", 0);
  auto all = discover(fake_options(fake));
  ASSERT_TRUE(all);
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ(all->front().kind, DeviceKind::loop);
  EXPECT_EQ(all->front().backing_file, "/dev/shm/x.img");
  auto opts = fake_options(fake);
  opts.include_empty = true;
  EXPECT_EQ(discover(opts)->size(), 2u);
}

TEST(Discovery, PrefersUdevIdentityOverSysfsWhereUdevHasIt) {
  FakeSysfs fake;
  auto disk = fake.add_disk("pci0000:00/host0/target0:0:0/0:0:0:0", "sdc", "8:32", 1000);
  fake.write(std::filesystem::relative(disk, fake.sysfs()).string() + "/device/model", "sysfs model\n");
  UdevProperties udev{{"ID_MODEL_ENC", "Samsung\\x20SSD\\x20870\\x20\\x20"},
                      {"ID_MODEL", "Samsung_SSD_870"},
                      {"ID_SERIAL_SHORT", "S5Y1NJ0R"},
                      {"ID_WWN_WITH_EXTENSION", "0x5002538f4231a2b3"},
                      {"ID_BUS", "ata"},
                      {"ID_PATH", "pci-0000:00:17.0-ata-1"}};
  auto d = describe_disk(fake.sysfs() / "block" / "sdc", HostPaths{fake.sysfs(), fake.dev(), fake.proc()}, udev);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->model, "Samsung SSD 870");
  EXPECT_EQ(d->serial, "S5Y1NJ0R");
  EXPECT_EQ(d->wwn, "0x5002538f4231a2b3");
  EXPECT_EQ(d->bus, "ata");
  EXPECT_EQ(d->id_path, "pci-0000:00:17.0-ata-1");
}

TEST(Discovery, DoesNotListPartitionsAsDisks) {
  FakeSysfs fake;
  auto disk = fake.add_disk("virtual", "vdb", "252:16", 1000);
  fake.add_partition(disk, "vdb1", "252:17");
  EXPECT_FALSE(describe_disk(disk / "vdb1", HostPaths{fake.sysfs(), fake.dev(), fake.proc()}));
}

TEST(Discovery, FailsWithAFixWhenSysfsIsMissing) {
  DiscoveryOptions o;
  o.host.sysfs = "/nonexistent-diskvet-sysfs";
  o.use_udev = false;
  auto all = discover(o);
  ASSERT_FALSE(all);
  EXPECT_NE(all.error().message().find("sysfs"), std::string::npos);
}

TEST(FindDevice, FindsByPathNameSerialAndWwnInAnyNotation) {
  Device a;
  a.path = "/dev/sda";
  a.name = "sda";
  a.serial = "S5Y1NJ0R";
  a.wwn = "naa.5002538f4231a2b3";
  Device b;
  b.path = "/dev/sdb";
  b.name = "sdb";
  b.serial = "OTHER";
  std::vector<Device> all{a, b};
  for (const char* id : {"/dev/sda", "sda", "S5Y1NJ0R", "naa.5002538f4231a2b3", "0x5002538F4231A2B3"}) {
    auto d = find_device(id, all);
    ASSERT_TRUE(d) << id;
    EXPECT_EQ(d->path, "/dev/sda") << id;
  }
  EXPECT_FALSE(find_device("S5Y1NJ0", all));  // a prefix of a serial is not the serial
  EXPECT_FALSE(find_device("", all));
}

TEST(FindDevice, RefusesAnIdThatNamesSeveralDisks) {
  Device a, b;
  a.path = "/dev/nvme0n1";
  b.path = "/dev/nvme0n2";
  a.serial = b.serial = "SHARED";
  auto d = find_device("SHARED", std::vector<Device>{a, b});
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().what.find("/dev/nvme0n2"), std::string::npos);
}

TEST(Identity, NormalizesWwnNotations) {
  EXPECT_EQ(normalize_wwn("naa.5000C500A1B2C3D4"), "5000c500a1b2c3d4");
  EXPECT_EQ(normalize_wwn("0x5000c500a1b2c3d4"), "5000c500a1b2c3d4");
  EXPECT_EQ(normalize_wwn("eui.0025385B71B0A2C1"), "0025385b71b0a2c1");
}

TEST(DeviceKindNames, RoundTrip) {
  for (auto k : {DeviceKind::nvme, DeviceKind::scsi, DeviceKind::virtio, DeviceKind::loop, DeviceKind::zram,
                 DeviceKind::md, DeviceKind::dm, DeviceKind::other})
    EXPECT_EQ(parse_device_kind(to_string(k)), k);
  EXPECT_FALSE(parse_device_kind("floppy"));
}

}  // namespace
}  // namespace diskvet::devices
