// Decoding the OCP SMART / Health Information Extended log (C0h).
#include "devices/nvme_ocp_log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>

#include "devices/little_endian.hpp"

namespace diskvet::devices {

namespace {

// The Log Page GUID as the page holds it (little-endian: the GUID's last byte first).
constexpr std::array<uint8_t, 16> kOcpSmartLogGuid = {0xc5, 0xaf, 0x10, 0x28, 0xea, 0xbf, 0xf2, 0xa4,
                                                      0x9c, 0x4f, 0x6f, 0x7c, 0xc9, 0x14, 0xd5, 0xaf};
constexpr size_t kGuidOffset = 496;
constexpr size_t kVersionOffset = 494;

}  // namespace

OcpSmartLogReading parse_ocp_smart_log(std::span<const uint8_t> buf) {
  if (buf.size() < kOcpSmartLogBytes)
    return {std::nullopt, fmt::format("log page C0h is {} bytes, shorter than the OCP SMART log's {}", buf.size(), kOcpSmartLogBytes)};
  const auto guid = buf.subspan(kGuidOffset, kOcpSmartLogGuid.size());
  if (!std::equal(guid.begin(), guid.end(), kOcpSmartLogGuid.begin()))
    return {std::nullopt, "log page C0h is not the OCP SMART / Health Information Extended log (its Log Page GUID is another's)"};
  // 128-bit counters: bytes above the low 64 bits are zero for any drive that exists (2^64 bytes is 16 EiB).
  if (le<uint64_t>(buf, 8) != 0 || le<uint64_t>(buf, 24) != 0)
    return {std::nullopt, "the OCP SMART log's Physical Media Units counters are past 2^64 bytes"};
  return {OcpSmartLog{le<uint64_t>(buf, 0), le<uint64_t>(buf, 16), le<uint16_t>(buf, kVersionOffset)}, ""};
}

std::optional<uint8_t> ocp_uuid_index(std::span<const uint8_t> uuid_list) {
  constexpr size_t kHeader = 32, kEntry = 32, kUuidAt = 16, kEntries = 127;
  for (size_t i = 0; i < kEntries; ++i) {
    const size_t at = kHeader + i * kEntry + kUuidAt;
    if (at + kOcpUuid.size() > uuid_list.size()) return std::nullopt;
    const auto uuid = uuid_list.subspan(at, kOcpUuid.size());
    if (std::equal(uuid.begin(), uuid.end(), kOcpUuid.begin())) return static_cast<uint8_t>(i + 1);
    if (std::all_of(uuid.begin(), uuid.end(), [](uint8_t b) { return b == 0; })) return std::nullopt;
  }
  return std::nullopt;
}

void read_ocp_smart_log(NvmeSelfTestAdmin& admin, NvmeLogSupport support, Health& h) {
  h.ocp_physical_bytes_written.reset();
  constexpr std::string_view kNone = "the drive has no OCP SMART / Health Information Extended log";
  if (!support.lists_log_pages) {
    h.ocp_log_absent = fmt::format("{} that it lists (it has no Supported Log Pages log, and vendor-specific page C0h is not asked for blind)", kNone);
    return;
  }
  const auto listed = admin.log_page(kSupportedLogPagesId, kSupportedLogPagesBytes, 0);
  if (!listed || listed->size() < kSupportedLogPagesBytes || !(le<uint32_t>(*listed, size_t{kOcpSmartLogId} * 4) & 1)) {
    h.ocp_log_absent = fmt::format("{} (its Supported Log Pages log {})", kNone, listed ? "does not list page C0h" : "could not be read");
    return;
  }
  uint8_t uuid_index = 0;
  if (support.uuid_list)
    if (const auto list = admin.uuid_list())
      if (const auto i = ocp_uuid_index(*list)) uuid_index = *i;
  const std::string with = uuid_index ? fmt::format(" with the OCP UUID's index {}", uuid_index) : std::string();
  auto page = admin.log_page(kOcpSmartLogId, kOcpSmartLogBytes, uuid_index);
  if (!page) {
    h.ocp_log_absent = fmt::format("{} (log page C0h is listed but could not be read{})", kNone, with);
    return;
  }
  const OcpSmartLogReading r = parse_ocp_smart_log(*page);
  if (!r.log) {
    h.ocp_log_absent = r.absent + (with.empty() ? "" : " (read" + with + ")");
    return;
  }
  h.ocp_physical_bytes_written = r.log->physical_bytes_written;
  h.ocp_log_absent.clear();
}

}  // namespace diskvet::devices
