// The OCP SMART / Health Information Extended log (devices/nvme_ocp_log.hpp) over handmade pages, read
// through the admin-command interface's fake, and the write amplification it gives over a run
// (devices/write_accounting.hpp): evidence, never a verdict.
#include "devices/nvme_ocp_log.hpp"

#include <gtest/gtest.h>

#include <span>
#include <vector>

#include "devices/write_accounting.hpp"

namespace diskvet::devices {
namespace {

constexpr uint8_t kGuid[16] = {0xc5, 0xaf, 0x10, 0x28, 0xea, 0xbf, 0xf2, 0xa4, 0x9c, 0x4f, 0x6f, 0x7c, 0xc9, 0x14, 0xd5, 0xaf};

// A C0h page as an OCP 2.0 drive returns it: Physical Media Units Written and Read (bytes, 128-bit
// little-endian), Log Page Version 3, the OCP GUID.
std::vector<uint8_t> ocp_page(uint64_t written_bytes, uint64_t read_bytes = 0) {
  std::vector<uint8_t> p(kOcpSmartLogBytes, 0);
  for (size_t i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(written_bytes >> (8 * i));
  for (size_t i = 0; i < 8; ++i) p[16 + i] = static_cast<uint8_t>(read_bytes >> (8 * i));
  p[494] = 3;
  std::copy(std::begin(kGuid), std::end(kGuid), p.begin() + 496);
  return p;
}

// A controller whose Get Log Page answers the Supported Log Pages log (listing C0h when it has a
// page C0h) and page C0h, with the page given; none: it refuses C0h.
struct FakeAdmin final : NvmeSelfTestAdmin {
  std::optional<std::vector<uint8_t>> c0;
  std::optional<std::vector<uint8_t>> uuids;  // the UUID List, when the controller has one
  std::vector<uint8_t> asked;
  std::vector<uint8_t> uuid_indexes;  // of each page C0h asked for
  std::optional<NvmeController> identify() override { return NvmeController{}; }
  int device_self_test(uint8_t) override { return 0; }
  std::optional<std::vector<uint8_t>> self_test_log() override { return std::nullopt; }
  std::optional<std::vector<uint8_t>> uuid_list() override { return uuids; }
  std::optional<std::vector<uint8_t>> log_page(uint8_t lid, size_t bytes, uint8_t uuid_index) override {
    asked.push_back(lid);
    if (lid == kOcpSmartLogId) uuid_indexes.push_back(uuid_index);
    if (lid == kSupportedLogPagesId) {
      std::vector<uint8_t> listed(kSupportedLogPagesBytes, 0);
      listed[0x02 * 4] = 1;  // the SMART / Health Information log
      if (c0) listed[kOcpSmartLogId * 4] = 1;
      return listed;
    }
    if (lid != kOcpSmartLogId || !c0) return std::nullopt;
    EXPECT_EQ(bytes, kOcpSmartLogBytes);
    return c0;
  }
};

TEST(OcpSmartLog, DecodesPhysicalMediaUnitsWrittenFromAnOcpPage) {
  const OcpSmartLogReading r = parse_ocp_smart_log(ocp_page(3ull << 40, 7ull << 30));
  ASSERT_TRUE(r.log) << r.absent;
  EXPECT_EQ(r.log->physical_bytes_written, 3ull << 40);
  EXPECT_EQ(r.log->physical_bytes_read, 7ull << 30);
  EXPECT_EQ(r.log->version, 3u);
}

TEST(OcpSmartLog, AnotherVendorsPageC0hOrAShortPageIsNotTakenForIt) {
  std::vector<uint8_t> vendor = ocp_page(1u << 20);
  vendor[500] ^= 0xff;  // the GUID of some other vendor-specific C0h page
  const OcpSmartLogReading other = parse_ocp_smart_log(vendor);
  EXPECT_FALSE(other.log);
  EXPECT_NE(other.absent.find("not the OCP SMART"), std::string::npos);
  EXPECT_FALSE(parse_ocp_smart_log(std::vector<uint8_t>(256, 0)).log);
  std::vector<uint8_t> huge = ocp_page(0);
  huge[8] = 1;  // the counter's upper 64 bits
  EXPECT_FALSE(parse_ocp_smart_log(huge).log);
}

TEST(OcpSmartLog, IsReadThroughTheAdminInterfaceWhenTheDriveListsIt) {
  FakeAdmin ocp;
  ocp.c0 = ocp_page(5ull << 30);
  Health h;
  read_ocp_smart_log(ocp, NvmeLogSupport{true, false}, h);
  EXPECT_EQ(ocp.asked, (std::vector<uint8_t>{0x00, 0xc0}));
  EXPECT_EQ(h.ocp_physical_bytes_written, 5ull << 30);
  EXPECT_TRUE(h.ocp_log_absent.empty());
  EXPECT_EQ(ocp.uuid_indexes, std::vector<uint8_t>{0});  // no UUID List: no index
}

// A UUID List entry: 32 bytes from byte 32, the UUID at bytes 31:16 of each.
void put_uuid(std::vector<uint8_t>& list, size_t index, std::span<const uint8_t> uuid) {
  std::copy(uuid.begin(), uuid.end(), list.begin() + static_cast<std::ptrdiff_t>(32 + (index - 1) * 32 + 16));
}

TEST(OcpSmartLog, ADriveWithUuidListsIsAskedWithTheOcpUuidsIndex) {
  // Two vendors' UUIDs, the OCP one third: page C0h with UUID index 3.
  std::vector<uint8_t> list(kUuidListBytes, 0);
  const std::vector<uint8_t> vendor_a(16, 0x11), vendor_b(16, 0x22);
  put_uuid(list, 1, vendor_a);
  put_uuid(list, 2, vendor_b);
  put_uuid(list, 3, kOcpUuid);
  EXPECT_EQ(ocp_uuid_index(list), 3);
  FakeAdmin ocp;
  ocp.c0 = ocp_page(6ull << 30);
  ocp.uuids = list;
  Health h;
  read_ocp_smart_log(ocp, NvmeLogSupport{true, true}, h);
  EXPECT_EQ(ocp.uuid_indexes, std::vector<uint8_t>{3});
  EXPECT_EQ(h.ocp_physical_bytes_written, 6ull << 30);
  // The OCP UUID after the list's end (an all-zero entry) is not in it: no index, the GUID decides.
  std::vector<uint8_t> ended(kUuidListBytes, 0);
  put_uuid(ended, 1, vendor_a);
  put_uuid(ended, 3, kOcpUuid);
  EXPECT_FALSE(ocp_uuid_index(ended));
  EXPECT_FALSE(ocp_uuid_index(std::span<const uint8_t>(list).first(100)));  // short
  FakeAdmin without;
  without.c0 = ocp_page(6ull << 30);
  without.uuids = ended;
  read_ocp_smart_log(without, NvmeLogSupport{true, true}, h);
  EXPECT_EQ(without.uuid_indexes, std::vector<uint8_t>{0});
  EXPECT_EQ(h.ocp_physical_bytes_written, 6ull << 30);
  // A controller that says it has UUID lists but cannot read one: no index either.
  FakeAdmin unreadable;
  unreadable.c0 = ocp_page(1);
  read_ocp_smart_log(unreadable, NvmeLogSupport{true, true}, h);
  EXPECT_EQ(unreadable.uuid_indexes, std::vector<uint8_t>{0});
}

TEST(OcpSmartLog, ADriveThatDoesNotListItIsNeverAskedForItAndSaysSo) {
  // Asking blind would make a drive without page C0h log a refusal in its error log at every read.
  FakeAdmin listed_without;
  Health h;
  h.ocp_physical_bytes_written = 1;  // an older reading is not kept
  read_ocp_smart_log(listed_without, NvmeLogSupport{true, false}, h);
  EXPECT_EQ(listed_without.asked, std::vector<uint8_t>{0x00});
  EXPECT_FALSE(h.ocp_physical_bytes_written);
  EXPECT_NE(h.ocp_log_absent.find("has no OCP SMART / Health Information Extended log (its Supported Log Pages log does not list page C0h)"),
            std::string::npos)
      << h.ocp_log_absent;
  FakeAdmin unlisted;  // QEMU 7.2's controller: Identify Controller LPA bit 5 clear
  unlisted.c0 = ocp_page(5ull << 30);
  read_ocp_smart_log(unlisted, NvmeLogSupport{false, false}, h);
  EXPECT_TRUE(unlisted.asked.empty());
  EXPECT_FALSE(h.ocp_physical_bytes_written);
  EXPECT_NE(h.ocp_log_absent.find("has no OCP SMART / Health Information Extended log that it lists"), std::string::npos) << h.ocp_log_absent;
}

Health nvme(uint64_t data_units, std::optional<uint64_t> physical_bytes) {
  Health h;
  h.known = true;
  h.data_units_written = data_units;
  h.ocp_physical_bytes_written = physical_bytes;
  if (!physical_bytes) h.ocp_log_absent = "the drive has no OCP SMART / Health Information Extended log (log page C0h could not be read)";
  return h;
}

TEST(WriteAmplification, IsTheMediaBytesOverTheHostBytesTheDriveCounted) {
  // 2,000 data units (1,024,000,000 bytes) from the host, twice that to the media.
  const auto w = write_amplification(nvme(100, 1000), nvme(2100, 1000 + 2'048'000'000));
  ASSERT_TRUE(w);
  EXPECT_TRUE(w->available);
  EXPECT_EQ(w->host_bytes, 1'024'000'000u);
  EXPECT_EQ(w->physical_bytes, 2'048'000'000u);
  ASSERT_TRUE(w->factor);
  EXPECT_DOUBLE_EQ(*w->factor, 2.0);
  EXPECT_EQ(w->words.rfind("2.00: the drive wrote", 0), 0u) << w->words;
  EXPECT_NE(w->words.find("evidence, not judged"), std::string::npos);
}

TEST(WriteAmplification, ADriveWithoutTheOcpLogSaysSoAndADriveWithoutNvmeCountersHasNone) {
  const auto w = write_amplification(nvme(100, std::nullopt), nvme(200, std::nullopt));
  ASSERT_TRUE(w);
  EXPECT_FALSE(w->available);
  EXPECT_FALSE(w->factor);
  EXPECT_NE(w->words.find("no OCP SMART"), std::string::npos);
  const auto idle = write_amplification(nvme(100, 4096), nvme(100, 8192));  // nothing counted from the host
  ASSERT_TRUE(idle);
  EXPECT_TRUE(idle->available);
  EXPECT_FALSE(idle->factor);
  EXPECT_FALSE(write_amplification(Health{}, Health{})) << "a SATA drive or a loop device keeps no Data Units Written";
}

}  // namespace
}  // namespace diskvet::devices
