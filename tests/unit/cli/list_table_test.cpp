// The `diskvet list` table: 80 columns whatever the values, every protection reason shown.
#include "cli/list_table.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace diskvet::cli {
namespace {

devices::Device long_device() {
  devices::Device d;
  d.path = "/dev/disk/by-id/nvme-very-long-name-indeed";
  d.kind = devices::DeviceKind::nvme;
  d.model = "SAMSUNG MZQL23T8HCLS-00A07 with a very long model string";
  d.serial = "S64HNE0R123456789012345";
  d.size_bytes = 3840755982336;
  d.logical_block_size = 4096;
  d.physical_block_size = 4096;
  d.is_protected = true;
  d.protection_reasons = {"partition nvme0n1p2 is mounted at /some/really/long/mount/point/that/goes/on/and/on/for/ever",
                          "backs the running root filesystem"};
  return d;
}

TEST(ListTable, KeepsEveryLineWithinEightyColumns) {
  std::istringstream lines(render_device_table({long_device(), devices::Device{}}));
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), kTableWidth) << line;
}

TEST(ListTable, ShowsEveryProtectionReasonOnItsOwnLine) {
  std::string t = render_device_table({long_device()});
  EXPECT_NE(t.find("PROTECTED: partition nvme0n1p2 is mounted at"), std::string::npos) << t;
  EXPECT_NE(t.find("backs the running root filesystem"), std::string::npos) << t;
}

TEST(ListTable, SaysHowToConsentToAnUnprotectedDisk) {
  devices::Device d;
  d.path = "/dev/sdc";
  std::string t = render_device_table({d});
  EXPECT_NE(t.find("writable with --destroy-data /dev/sdc"), std::string::npos) << t;
}

TEST(ListTable, ShowsTheConsentIdOfANamespace) {
  devices::Device free_ns;
  free_ns.path = "/dev/nvme0n1";
  free_ns.consent_id = "S4EWNX0R123456/1";
  devices::Device formatted = free_ns;
  formatted.path = "/dev/nvme0n2";
  formatted.consent_id = "S4EWNX0R123456/2";
  formatted.is_protected = true;
  formatted.protection_overridable = true;
  formatted.protection_reasons = {"carries a filesystem signature (ext4)"};
  std::string t = render_device_table({free_ns, formatted});
  EXPECT_NE(t.find("writable with --destroy-data /dev/nvme0n1 or S4EWNX0R123456/1"), std::string::npos) << t;
  EXPECT_NE(t.find("overridden only by --destroy-data S4EWNX0R123456/2"), std::string::npos) << t;
}

TEST(ListTable, NeverCallsUnknownHealthOk) {
  EXPECT_EQ(health_word(devices::Health{}), "unknown");
  devices::Health h;
  h.known = true;
  EXPECT_EQ(health_word(h), "ok");
  h.problems = {"media errors: 3"};
  EXPECT_EQ(health_word(h), "UNHEALTHY");
}

}  // namespace
}  // namespace diskvet::cli
