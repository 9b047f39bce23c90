// The OCP Datacenter NVMe SSD Specification's SMART / Health Information Extended log (log page C0h,
// 512 bytes; "SMART Cloud Attributes" in OCP 1.0): Physical Media Units Written (bytes 15:0) and
// Read (31:16) in bytes, the Log Page Version (495:494) and the Log Page GUID (511:496,
// AFD514C97C6F4F9CA4F2BFEA2810AFC5h) that tells it from another vendor's page C0h. Decoded from raw
// bytes by a pure function (fuzzed); read over the NvmeSelfTestAdmin interface, so its reading is
// tested over handmade pages.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "devices/device.hpp"
#include "devices/nvme_self_test.hpp"

namespace diskvet::devices {

inline constexpr uint8_t kOcpSmartLogId = 0xc0;
inline constexpr size_t kOcpSmartLogBytes = 512;

struct OcpSmartLog {
  uint64_t physical_bytes_written = 0;
  uint64_t physical_bytes_read = 0;
  uint16_t version = 0;
};

// The log, or why the bytes are not one in words (too short, another vendor's page C0h, a counter
// past 2^64 bytes).
struct OcpSmartLogReading {
  std::optional<OcpSmartLog> log;
  std::string absent;
};
OcpSmartLogReading parse_ocp_smart_log(std::span<const uint8_t> buf);

inline constexpr uint8_t kSupportedLogPagesId = 0x00;
inline constexpr size_t kSupportedLogPagesBytes = 1024;  // 256 entries of 4 bytes, one per log identifier

inline constexpr size_t kUuidListBytes = 4096;  // Identify CNS 17h: 32 reserved bytes, then 127 entries of 32
// The OCP Datacenter NVMe SSD Specification's UUID (C194D55B-E094-4794-A21D-29998F56BE6F) as the UUID
// List holds it.
inline constexpr std::array<uint8_t, 16> kOcpUuid = {0xc1, 0x94, 0xd5, 0x5b, 0xe0, 0x94, 0x47, 0x94,
                                                     0xa2, 0x1d, 0x29, 0x99, 0x8f, 0x56, 0xbe, 0x6f};
// The UUID index (1-127) of the OCP UUID in an Identify UUID List, nullopt when the list does not hold
// it (the list ends at its first all-zero UUID) or is short.
std::optional<uint8_t> ocp_uuid_index(std::span<const uint8_t> uuid_list);

// What Identify Controller says of the controller's log pages.
struct NvmeLogSupport {
  bool lists_log_pages = false;  // LPA bit 5: the Supported Log Pages log (00h)
  bool uuid_list = false;        // CTRATT bit 9: the UUID List (Identify CNS 17h) and UUID indexes
};

// Reads page C0h over `admin` into h.ocp_physical_bytes_written, or h.ocp_log_absent with why not.
// Page C0h is vendor specific, and a controller without it refuses the command and logs the
// refusal in its Error Information log, which every run would then list: so it is asked for only
// when the controller lists its log pages (Identify Controller LPA bit 5: the Supported Log Pages
// log, 00h, NVM Express Base Specification 2.0) and lists C0h there (LSUPP, bit 0 of entry C0h).
// A controller with UUID lists may hold several vendors' pages C0h: the page is read with the OCP
// UUID's index, as the OCP specification asks, when its UUID List holds it (else with none, and
// the page's GUID decides).
void read_ocp_smart_log(NvmeSelfTestAdmin& admin, NvmeLogSupport support, Health& h);

}  // namespace diskvet::devices
