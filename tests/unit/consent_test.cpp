// The consent matrix: every protection class against every form of consent.
#include "devices/consent.hpp"

#include <gtest/gtest.h>

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

const std::vector<std::string> kEveryForm[] = {
    {}, {"/dev/sdz"}, {"sdz"}, {"ZA1B2C3"}, {"naa.5000c500a1b2c3d4"}, {"0x5000C500A1B2C3D4"}, {"all-unprotected"},
    {"/dev/sdz", "ZA1B2C3", "all-unprotected"},
};

TEST(Consent, UnprotectedDiskNeedsSomeConsentThatNamesIt) {
  EXPECT_FALSE(check_consent(disk(), {}, Consent{}));
  EXPECT_FALSE(check_consent(disk(), {}, Consent{{"/dev/sdy", "OTHER-SERIAL"}}));
  for (const char* id : {"/dev/sdz", "sdz", "ZA1B2C3", "naa.5000c500a1b2c3d4", "all-unprotected"})
    EXPECT_TRUE(check_consent(disk(), {}, Consent{{id}})) << id;
}

TEST(Consent, RefusalWithoutConsentNamesTheDeviceAndTheFix) {
  auto s = check_consent(disk(), {}, Consent{});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::safety);
  EXPECT_EQ(s.error().subject, "/dev/sdz");
  EXPECT_NE(s.error().fix.find("--destroy-data /dev/sdz"), std::string::npos);
}

TEST(Consent, PartitionTableOrSignatureIsOverriddenOnlyBySerialOrWwn) {
  for (auto c : {ProtectionClass::partition_table, ProtectionClass::signature}) {
    Protection p = protected_by(c);
    EXPECT_TRUE(check_consent(disk(), p, Consent{{"ZA1B2C3"}}));
    EXPECT_TRUE(check_consent(disk(), p, Consent{{"naa.5000c500a1b2c3d4"}}));
    EXPECT_TRUE(check_consent(disk(), p, Consent{{"0x5000C500A1B2C3D4"}}));
    EXPECT_FALSE(check_consent(disk(), p, Consent{{"/dev/sdz"}}));
    EXPECT_FALSE(check_consent(disk(), p, Consent{{"sdz"}}));
    EXPECT_FALSE(check_consent(disk(), p, Consent{{"all-unprotected"}}));
    EXPECT_FALSE(check_consent(disk(), p, Consent{{"/dev/sdz", "all-unprotected"}}));
    EXPECT_FALSE(check_consent(disk(), p, Consent{}));
  }
}

TEST(Consent, OverridableRefusalTellsWhichIdsWouldDo) {
  auto s = check_consent(disk(), protected_by(ProtectionClass::partition_table), Consent{{"/dev/sdz"}});
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().fix.find("ZA1B2C3"), std::string::npos);
  EXPECT_NE(s.error().what.find("reason"), std::string::npos);
}

TEST(Consent, SignatureOnADiskWithoutSerialOrWwnCannotBeOverridden) {
  Device d = disk();
  d.serial.clear();
  d.wwn.clear();
  for (const auto& ids : kEveryForm) EXPECT_FALSE(check_consent(d, protected_by(ProtectionClass::signature), Consent{ids}));
}

TEST(Consent, HardProtectionIsRefusedWhateverTheConsent) {
  for (auto c : {ProtectionClass::mounted, ProtectionClass::holders, ProtectionClass::swap, ProtectionClass::root,
                 ProtectionClass::boot_medium, ProtectionClass::read_only, ProtectionClass::busy,
                 ProtectionClass::stacked, ProtectionClass::unprobed}) {
    for (const auto& ids : kEveryForm) {
      auto s = check_consent(disk(), protected_by(c), Consent{ids});
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
  EXPECT_FALSE(check_consent(disk(), p, Consent{{"ZA1B2C3"}}));
  EXPECT_FALSE(p.only_overridable());
}

TEST(Consent, OnlyPartitionAndSignatureClassesAreOverridable) {
  EXPECT_TRUE(overridable(ProtectionClass::partition_table));
  EXPECT_TRUE(overridable(ProtectionClass::signature));
  EXPECT_FALSE(overridable(ProtectionClass::mounted));
  EXPECT_FALSE(overridable(ProtectionClass::unprobed));
}

}  // namespace
}  // namespace diskvet::devices
