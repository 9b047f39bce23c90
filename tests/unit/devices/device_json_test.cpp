// The `diskvet list --json` shape: required members present, unknown health fields absent.
#include "devices/device_json.hpp"

#include <gtest/gtest.h>

namespace diskvet::devices {
namespace {

namespace json = boost::json;

TEST(DeviceJson, HasEveryMemberTheListContractNames) {
  Device d;
  d.path = "/dev/sda";
  d.kind = DeviceKind::scsi;
  d.model = "Acme SSD 1TB";
  d.serial = "ACME0001";
  d.size_bytes = 1000;
  d.is_protected = true;
  d.protection_reasons = {"is mounted at /boot"};
  json::object o = json::value_from(d).as_object();
  for (const char* key : {"path", "kind", "model", "serial", "wwn", "consent_id", "firmware", "size_bytes", "logical_block_size",
                          "physical_block_size", "rotational", "protected", "protection_reasons", "health"})
    EXPECT_TRUE(o.contains(key)) << key;
  EXPECT_EQ(o["kind"].as_string(), "scsi");
  EXPECT_EQ(o["protected"].as_bool(), true);
  EXPECT_EQ(o["protection_reasons"].as_array().at(0).as_string(), "is mounted at /boot");
}

TEST(DeviceJson, LeavesUnknownHealthFieldsOutRatherThanZero) {
  Health h;
  h.known = true;
  h.source = "nvme";
  h.media_errors = 0;
  json::object o = json::value_from(h).as_object();
  EXPECT_EQ(o["media_errors"].as_uint64(), 0u);  // known zero is written
  EXPECT_FALSE(o.contains("temperature_c"));
  EXPECT_FALSE(o.contains("available_spare_pct"));
  EXPECT_TRUE(o["healthy"].as_bool());
}

TEST(DeviceJson, NeverCallsUnknownHealthHealthy) {
  json::object o = json::value_from(Health{}).as_object();
  EXPECT_FALSE(o["known"].as_bool());
  EXPECT_FALSE(o["healthy"].as_bool());
}

TEST(DeviceJson, RoundTripsThroughValueTo) {
  Device d;
  d.path = "/dev/nvme0n1";
  d.name = "nvme0n1";
  d.kind = DeviceKind::nvme;
  d.wwn = "eui.1";
  d.size_bytes = uint64_t{1} << 40;
  d.logical_block_size = 4096;
  d.nvme_controller = "nvme0";
  d.nvme_nsid = 1;
  d.consent_id = "S4EWNX0R123456/1";
  d.protection_reasons = {"has a GPT partition table"};
  d.protection_overridable = true;
  d.health.known = true;
  d.health.temperature_c = 41.5;
  d.health.available_spare_pct = 100;
  d.health.problems = {"critical warning"};
  Device back = json::value_to<Device>(json::value_from(d));
  EXPECT_EQ(back.path, d.path);
  EXPECT_EQ(back.kind, DeviceKind::nvme);
  EXPECT_EQ(back.size_bytes, d.size_bytes);
  EXPECT_EQ(back.logical_block_size, 4096u);
  EXPECT_EQ(back.nvme_nsid, 1u);
  EXPECT_EQ(back.consent_id, "S4EWNX0R123456/1");
  EXPECT_EQ(back.protection_reasons, d.protection_reasons);
  EXPECT_TRUE(back.protection_overridable);
  EXPECT_EQ(back.health.temperature_c, 41.5);
  EXPECT_EQ(back.health.available_spare_pct, 100);
  EXPECT_FALSE(back.health.media_errors.has_value());
  EXPECT_EQ(back.health.problems, d.health.problems);
}

TEST(DeviceJson, LeavesAnOutOfRangeHealthValueUnknown) {
  auto h = json::value_to<Health>(json::parse(R"({"known":true,"available_spare_pct":300})"));
  EXPECT_FALSE(h.available_spare_pct.has_value());
}

}  // namespace
}  // namespace diskvet::devices
