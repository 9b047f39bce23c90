// The consent matrix: every protection class against every form of consent, and consent on a host
// where one serial or WWN names several disks (NVMe namespaces of one controller, multipath paths).
#include "devices/consent.hpp"

#include <gtest/gtest.h>

#include "devices/identity.hpp"

namespace diskvet::devices {
namespace {

Device disk() {
  Device d;
  d.path = "/dev/sdz";
  d.name = "sdz";
  d.serial = "ZA1B2C3";
  d.wwn = "naa.5000c500a1b2c3d4";
  return d;
}

Protection protected_by(ProtectionClass c) { return Protection{{{c, "reason"}}}; }

// The device alone on its host.
Status check(const Device& d, const Protection& p, const Consent& c) { return check_consent(d, p, c, {d}); }

const std::vector<std::string> kEveryForm[] = {
    {}, {"/dev/sdz"}, {"sdz"}, {"ZA1B2C3"}, {"naa.5000c500a1b2c3d4"}, {"0x5000C500A1B2C3D4"}, {"all-unprotected"},
    {"/dev/sdz", "ZA1B2C3", "all-unprotected"},
};

TEST(Consent, UnprotectedDiskNeedsSomeConsentThatNamesIt) {
  EXPECT_FALSE(check(disk(), {}, Consent{}));
  EXPECT_FALSE(check(disk(), {}, Consent{{"/dev/sdy", "OTHER-SERIAL"}}));
  for (const char* id : {"/dev/sdz", "sdz", "ZA1B2C3", "naa.5000c500a1b2c3d4", "all-unprotected"})
    EXPECT_TRUE(check(disk(), {}, Consent{{id}})) << id;
}

TEST(Consent, RefusalWithoutConsentNamesTheDeviceAndTheFix) {
  auto s = check(disk(), {}, Consent{});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::safety);
  EXPECT_EQ(s.error().subject, "/dev/sdz");
  EXPECT_NE(s.error().fix.find("--destroy-data /dev/sdz"), std::string::npos);
}

TEST(Consent, PartitionTableOrSignatureIsOverriddenOnlyBySerialOrWwn) {
  for (auto c : {ProtectionClass::partition_table, ProtectionClass::signature}) {
    Protection p = protected_by(c);
    EXPECT_TRUE(check(disk(), p, Consent{{"ZA1B2C3"}}));
    EXPECT_TRUE(check(disk(), p, Consent{{"naa.5000c500a1b2c3d4"}}));
    EXPECT_TRUE(check(disk(), p, Consent{{"0x5000C500A1B2C3D4"}}));
    EXPECT_FALSE(check(disk(), p, Consent{{"/dev/sdz"}}));
    EXPECT_FALSE(check(disk(), p, Consent{{"sdz"}}));
    EXPECT_FALSE(check(disk(), p, Consent{{"all-unprotected"}}));
    EXPECT_FALSE(check(disk(), p, Consent{{"/dev/sdz", "all-unprotected"}}));
    EXPECT_FALSE(check(disk(), p, Consent{}));
  }
}

TEST(Consent, OverridableRefusalTellsWhichIdsWouldDo) {
  auto s = check(disk(), protected_by(ProtectionClass::partition_table), Consent{{"/dev/sdz"}});
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().fix.find("ZA1B2C3"), std::string::npos);
  EXPECT_NE(s.error().what.find("reason"), std::string::npos);
}

TEST(Consent, SignatureOnADiskWithoutSerialOrWwnCannotBeOverridden) {
  Device d = disk();
  d.serial.clear();
  d.wwn.clear();
  for (const auto& ids : kEveryForm) EXPECT_FALSE(check(d, protected_by(ProtectionClass::signature), Consent{ids}));
}

TEST(Consent, HardProtectionIsRefusedWhateverTheConsent) {
  for (auto c : {ProtectionClass::mounted, ProtectionClass::holders, ProtectionClass::swap, ProtectionClass::root,
                 ProtectionClass::boot_medium, ProtectionClass::read_only, ProtectionClass::busy,
                 ProtectionClass::stacked, ProtectionClass::unprobed}) {
    for (const auto& ids : kEveryForm) {
      auto s = check(disk(), protected_by(c), Consent{ids});
      EXPECT_FALSE(s) << static_cast<int>(c);
      if (!s) {
        EXPECT_NE(s.error().what.find("whatever the consent"), std::string::npos);
      }
    }
  }
}

TEST(Consent, HardProtectionWinsOverAnOverridableOne) {
  Protection p{{{ProtectionClass::signature, "carries a filesystem signature (ext4)"},
                {ProtectionClass::mounted, "is mounted at /data"}}};
  EXPECT_FALSE(check(disk(), p, Consent{{"ZA1B2C3"}}));
  EXPECT_FALSE(p.only_overridable());
}

TEST(Consent, OnlyPartitionAndSignatureClassesAreOverridable) {
  EXPECT_TRUE(overridable(ProtectionClass::partition_table));
  EXPECT_TRUE(overridable(ProtectionClass::signature));
  EXPECT_FALSE(overridable(ProtectionClass::mounted));
  EXPECT_FALSE(overridable(ProtectionClass::unprobed));
}

// One controller, serial S4EWNX0R123456, with two namespaces: 1 blank, 2 formatted (ext4).
constexpr const char* kCtrlSerial = "S4EWNX0R123456";

Device namespace_of(uint32_t nsid) {
  Device d;
  d.path = "/dev/nvme0n" + std::to_string(nsid);
  d.name = "nvme0n" + std::to_string(nsid);
  d.kind = DeviceKind::nvme;
  d.serial = kCtrlSerial;
  d.wwn = "eui.525400000000000" + std::to_string(nsid);
  d.nvme_controller = "nvme0";
  d.nvme_nsid = nsid;
  return d;
}

const Protection kExt4{{{ProtectionClass::signature, "carries a filesystem signature (ext4)"}}};

std::vector<Device> two_namespaces() { return {namespace_of(1), namespace_of(2)}; }

TEST(ConsentNamespaces, BareSerialOfAControllerWithTwoNamespacesConsentsToNeither) {
  auto host = two_namespaces();
  for (const auto& [d, p] : {std::pair{host[0], Protection{}}, std::pair{host[1], kExt4}}) {
    auto s = check_consent(d, p, Consent{{kCtrlSerial}}, host);
    ASSERT_FALSE(s) << d.path;
    EXPECT_EQ(s.error().kind, ErrorKind::safety);
    // The refusal lists the exact id of each namespace.
    EXPECT_NE(s.error().fix.find("/dev/nvme0n1: S4EWNX0R123456/1"), std::string::npos) << s.error().fix;
    EXPECT_NE(s.error().fix.find("/dev/nvme0n2: S4EWNX0R123456/2"), std::string::npos) << s.error().fix;
    EXPECT_NE(s.error().what.find("several devices"), std::string::npos) << s.error().what;
  }
}

TEST(ConsentNamespaces, SerialSlashNsidConsentsToThatNamespaceOnly) {
  auto host = two_namespaces();
  EXPECT_TRUE(check_consent(host[0], {}, Consent{{"S4EWNX0R123456/1"}}, host));
  EXPECT_FALSE(check_consent(host[1], kExt4, Consent{{"S4EWNX0R123456/1"}}, host));
  EXPECT_FALSE(check_consent(host[1], {}, Consent{{"S4EWNX0R123456/1"}}, host)) << "even if namespace 2 were blank";
  EXPECT_TRUE(check_consent(host[1], kExt4, Consent{{"S4EWNX0R123456/2"}}, host)) << "overrides the signature of its own namespace";
  EXPECT_FALSE(check_consent(host[0], {}, Consent{{"S4EWNX0R123456/2"}}, host));
}

TEST(ConsentNamespaces, NamespaceIdMustBeExact) {
  auto host = two_namespaces();
  for (const char* id : {"S4EWNX0R123456/", "S4EWNX0R123456/1x", "S4EWNX0R123456/3", "S4EWNX0R12345/1", "/1", "S4EWNX0R123456/-1"})
    EXPECT_FALSE(check_consent(host[0], {}, Consent{{id}}, host)) << id;
  Device sata = disk();  // "SERIAL/NSID" names NVMe namespaces only
  EXPECT_FALSE(identifies(sata, "ZA1B2C3/1"));
}

TEST(ConsentNamespaces, TheNamespacesOwnWwnConsentsToItOnly) {
  auto host = two_namespaces();
  EXPECT_TRUE(check_consent(host[1], kExt4, Consent{{"eui.5254000000000002"}}, host));
  EXPECT_FALSE(check_consent(host[0], {}, Consent{{"eui.5254000000000002"}}, host));
}

TEST(ConsentNamespaces, BareSerialConsentsWhenTheControllerHasOneNamespace) {
  Device only = namespace_of(1);
  EXPECT_TRUE(check_consent(only, kExt4, Consent{{kCtrlSerial}}, {only}));
  EXPECT_TRUE(check_consent(only, kExt4, Consent{{kCtrlSerial}}, {})) << "host_disks need not hold the device itself";
}

TEST(ConsentNamespaces, AllUnprotectedNeverReachesTheFormattedNamespace) {
  auto host = two_namespaces();
  EXPECT_TRUE(check_consent(host[0], {}, Consent{{"all-unprotected", kCtrlSerial}}, host));
  EXPECT_FALSE(check_consent(host[1], kExt4, Consent{{"all-unprotected", kCtrlSerial}}, host));
}

TEST(ConsentNamespaces, SharedSerialBesideTheDevicesOwnPathNamesThatDevice) {
  auto host = two_namespaces();
  Consent c{{kCtrlSerial, "/dev/nvme0n2"}};
  EXPECT_TRUE(check_consent(host[1], kExt4, c, host));
  EXPECT_FALSE(check_consent(host[0], kExt4, c, host));
}

// Two paths of one LUN (no dm-multipath): the same serial and WWN on /dev/sdb and /dev/sdc.
std::vector<Device> two_paths() {
  Device a = disk(), b = disk();
  a.path = "/dev/sdb", a.name = "sdb";
  b.path = "/dev/sdc", b.name = "sdc";
  return {a, b};
}

TEST(ConsentMultipath, SharedSerialOrWwnAloneConsentsToNoPath) {
  auto host = two_paths();
  for (const char* id : {"ZA1B2C3", "naa.5000c500a1b2c3d4", "0x5000C500A1B2C3D4"})
    for (const auto& d : host) {
      auto s = check_consent(d, kExt4, Consent{{id}}, host);
      ASSERT_FALSE(s) << id << " " << d.path;
      EXPECT_NE(s.error().fix.find("/dev/sdb: its path together with"), std::string::npos) << s.error().fix;
      EXPECT_NE(s.error().fix.find("/dev/sdc: its path together with"), std::string::npos) << s.error().fix;
      EXPECT_FALSE(check_consent(d, {}, Consent{{id}}, host)) << id << " " << d.path;
    }
}

TEST(ConsentMultipath, PathWithTheSharedWwnOverridesASignature) {
  auto host = two_paths();
  EXPECT_TRUE(check_consent(host[0], kExt4, Consent{{"/dev/sdb", "naa.5000c500a1b2c3d4"}}, host));
  EXPECT_FALSE(check_consent(host[1], kExt4, Consent{{"/dev/sdb", "naa.5000c500a1b2c3d4"}}, host));
  EXPECT_FALSE(check_consent(host[0], kExt4, Consent{{"/dev/sdb"}}, host));
}

TEST(Identity, ConsentIdNamesTheDeviceAlone) {
  auto ns = two_namespaces();
  EXPECT_EQ(consent_id(ns[0], ns), "S4EWNX0R123456/1");
  EXPECT_EQ(consent_id(ns[1], ns), "S4EWNX0R123456/2");
  EXPECT_EQ(consent_id(ns[0], {ns[0]}), kCtrlSerial);
  auto paths = two_paths();
  EXPECT_EQ(consent_id(paths[0], paths), "") << "only its path names one path of a LUN";
  Device other = disk();
  other.path = "/dev/sdd", other.serial = "OTHER", other.wwn = "naa.5000c500ffffffff";
  EXPECT_EQ(consent_id(paths[0], {paths[0], other}), "ZA1B2C3");
}

TEST(Identity, SameMediumIsTheSameWwnNotTheSameController) {
  auto ns = two_namespaces();
  EXPECT_FALSE(same_medium(ns[0], ns[1]));
  auto paths = two_paths();
  EXPECT_TRUE(same_medium(paths[0], paths[1]));
  Device a = paths[0], b = paths[1];
  a.wwn.clear(), b.wwn.clear();
  EXPECT_TRUE(same_medium(a, b)) << "no WWN: the same serial";
  b.serial = "OTHER";
  EXPECT_FALSE(same_medium(a, b));
}

}  // namespace
}  // namespace diskvet::devices

namespace diskvet::devices {
namespace {

Consent resolved_ids(std::vector<ConsentId> ids) {
  Consent c;
  for (auto& id : ids) {
    c.ids.push_back(id.text);
    c.resolved.push_back(std::move(id));
  }
  return c;
}

// Rule 1: a path in --destroy-data names the device it resolved to when diskvet started, by device
// number; the device's own node name is not looked at again.
TEST(ConsentIdentity, APathNamesTheDeviceNumberItResolvedToNotItsWords) {
  Device d = disk();
  d.dev_id = "8:16";
  EXPECT_TRUE(check(d, {}, resolved_ids({{"/dev/disk/by-id/anything", true, true, "8:16", {}, {}}})));
  EXPECT_FALSE(check(d, {}, resolved_ids({{"/dev/sdz", true, true, "8:32", {}, {}}})))
      << "the words are the device's path, but they named another device when resolved";
  EXPECT_FALSE(check(d, {}, resolved_ids({{"/dev/sdz", true, true, {}, {0x5, 9}, {}}}))) << "they named a file";
}

TEST(ConsentIdentity, AnIdRefusedAtResolutionRefusesEveryWriteWhateverElseIsGiven) {
  Device d = disk();
  d.dev_id = "8:16";
  auto s = check(d, {}, resolved_ids({{"ZA1B2C3", false, false, {}, {}, {}},
                                      {"/proc/self/fd/3", true, true, {}, {}, "resolves through /proc/PID/fd or /dev/fd"}}));
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().what.find("/proc/self/fd/3"), std::string::npos) << s.error().what;
}

TEST(ConsentIdentity, ProcSelfFdIsRefusedWhenResolved) {
  EXPECT_FALSE(resolve_consent_id("/proc/self/fd/0").refused.empty());
  EXPECT_FALSE(resolve_consent_id("/dev/fd/1").refused.empty());
  EXPECT_TRUE(resolve_consent_id("/dev/null").refused.empty());
  EXPECT_TRUE(resolve_consent_id("ZA1B2C3").refused.empty());
}

}  // namespace
}  // namespace diskvet::devices
