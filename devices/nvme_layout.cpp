// Byte-offset parsing of NVMe Identify and log pages; offsets are the spec's, cited per structure.
#include "devices/nvme_layout.hpp"

#include <fmt/format.h>

#include <limits>

namespace diskvet::devices {

namespace {

uint64_t le(std::span<const uint8_t> b, size_t off, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint64_t{b[off + i]} << (8 * i);
  return v;
}

// A 128-bit counter; saturates at 2^64-1 rather than wrapping (no real drive gets there).
uint64_t le128(std::span<const uint8_t> b, size_t off) {
  if (le(b, off + 8, 8) != 0) return std::numeric_limits<uint64_t>::max();
  return le(b, off, 8);
}

// ASCII fields are space padded (Base Spec 1.5, "ASCII string").
std::string ascii(std::span<const uint8_t> b, size_t off, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += static_cast<char>(b[off + i]);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.pop_back();
  size_t start = s.find_first_not_of(' ');
  return start == std::string::npos ? std::string() : s.substr(start);
}

std::string hex_or_empty(std::span<const uint8_t> b, size_t off, size_t n) {
  std::string s;
  bool any = false;
  for (size_t i = 0; i < n; ++i) {
    s += fmt::format("{:02x}", b[off + i]);
    any = any || b[off + i];
  }
  return any ? s : std::string();
}

double kelvin_to_c(uint64_t k) { return static_cast<double>(k) - 273.15; }

}  // namespace

// Identify Controller data structure (Base Spec 2.0, Figure 275).
std::optional<NvmeController> parse_identify_controller(std::span<const uint8_t> b) {
  if (b.size() < kIdentifyBytes) return std::nullopt;
  NvmeController c;
  c.vendor_id = static_cast<uint16_t>(le(b, 0, 2));      // VID, bytes 1:0
  c.serial = ascii(b, 4, 20);                            // SN, bytes 23:04
  c.model = ascii(b, 24, 40);                            // MN, bytes 63:24
  c.firmware = ascii(b, 64, 8);                          // FR, bytes 71:64
  c.cmic = b[76];                                        // CMIC, byte 76
  c.oacs = static_cast<uint16_t>(le(b, 256, 2));         // OACS, bytes 257:256
  c.warning_temp_k = static_cast<uint16_t>(le(b, 266, 2));   // WCTEMP, bytes 267:266
  c.critical_temp_k = static_cast<uint16_t>(le(b, 268, 2));  // CCTEMP, bytes 269:268
  c.sanicap = static_cast<uint32_t>(le(b, 328, 4));      // SANICAP, bytes 331:328
  c.namespace_count = static_cast<uint32_t>(le(b, 516, 4));  // NN, bytes 519:516
  c.fna = b[524];                                        // FNA, byte 524
  return c;
}

// Identify Namespace data structure, NVM Command Set (NVM Command Set Spec 1.0, Figure 97).
std::optional<NvmeNamespace> parse_identify_namespace(std::span<const uint8_t> b) {
  if (b.size() < kIdentifyBytes) return std::nullopt;
  NvmeNamespace n;
  n.size_blocks = le(b, 0, 8);      // NSZE
  n.capacity_blocks = le(b, 8, 8);  // NCAP
  n.used_blocks = le(b, 16, 8);     // NUSE
  size_t count = size_t{b[25]} + 1;  // NLBAF is 0's based
  if (count > 64) count = 64;
  uint8_t flbas = b[26];
  n.metadata_extended = flbas & 0x10;  // FLBAS bit 4
  n.dps = b[29];                       // DPS, byte 29
  // FLBAS bits 3:0 are the format index; bits 6:5 its upper bits when more than 16 formats exist.
  n.lba_format_in_use = static_cast<uint8_t>((flbas & 0x0f) | (count > 16 ? ((flbas >> 5) & 0x3) << 4 : 0));
  n.nguid_hex = hex_or_empty(b, 104, 16);  // NGUID, bytes 119:104
  n.eui64_hex = hex_or_empty(b, 120, 8);   // EUI64, bytes 127:120
  for (size_t i = 0; i < count; ++i) {
    uint32_t f = static_cast<uint32_t>(le(b, 128 + 4 * i, 4));  // LBAF0 at bytes 131:128
    uint8_t lbads = static_cast<uint8_t>((f >> 16) & 0xff);
    NvmeLbaFormat lf;
    lf.metadata_bytes = static_cast<uint16_t>(f & 0xffff);
    lf.data_bytes = lbads >= 9 && lbads < 32 ? uint32_t{1} << lbads : 0;  // LBADS below 9 is unsupported
    lf.relative_performance = static_cast<uint8_t>((f >> 24) & 0x3);
    n.lba_formats.push_back(lf);
  }
  return n;
}

// Firmware Slot Information log page, 03h (Base Spec 2.0, Figure 209).
std::optional<NvmeFirmwareSlots> parse_firmware_slot_log(std::span<const uint8_t> b) {
  if (b.size() < kLogPageBytes) return std::nullopt;
  NvmeFirmwareSlots s;
  s.active_slot = b[0] & 0x7;             // AFI bits 2:0
  s.next_reset_slot = (b[0] >> 4) & 0x7;  // AFI bits 6:4
  for (size_t slot = 0; slot < 7; ++slot) s.revisions.push_back(ascii(b, 8 + 8 * slot, 8));  // FRS1 at 15:8
  return s;
}

// Sanitize Status log page, 81h (Base Spec 2.0, "Sanitize Status").
std::optional<NvmeSanitizeStatus> parse_sanitize_log(std::span<const uint8_t> b) {
  if (b.size() < kLogPageBytes) return std::nullopt;
  NvmeSanitizeStatus s;
  s.progress = static_cast<uint16_t>(le(b, 0, 2));  // SPROG, bytes 1:0
  uint16_t sstat = static_cast<uint16_t>(le(b, 2, 2));  // SSTAT, bytes 3:2
  s.state = sstat & 0x7;
  s.global_data_erased = sstat & 0x100;
  s.cdw10 = static_cast<uint32_t>(le(b, 4, 4));           // SCDW10, bytes 7:4
  s.overwrite_s = static_cast<uint32_t>(le(b, 8, 4));     // ETO, bytes 11:8
  s.block_erase_s = static_cast<uint32_t>(le(b, 12, 4));  // ETBE, bytes 15:12
  s.crypto_erase_s = static_cast<uint32_t>(le(b, 16, 4)); // ETCE, bytes 19:16
  return s;
}

// Namespace List (Base Spec 2.0, 4.4.2): up to 1024 NSIDs in increasing order, zero filled after the last.
std::optional<std::vector<uint32_t>> parse_namespace_list(std::span<const uint8_t> b) {
  if (b.size() < kIdentifyBytes) return std::nullopt;
  std::vector<uint32_t> ids;
  for (size_t off = 0; off + 4 <= kIdentifyBytes; off += 4) {
    uint32_t id = static_cast<uint32_t>(le(b, off, 4));
    if (id == 0) break;
    ids.push_back(id);
  }
  return ids;
}

// SMART / Health Information log page, 02h (Base Spec 2.0, Figure 207).
std::optional<Health> parse_smart_log(std::span<const uint8_t> b, const NvmeController* ctrl) {
  if (b.size() < kLogPageBytes) return std::nullopt;
  Health h;
  h.known = true;
  h.source = "nvme";
  h.critical_warning = b[0];
  uint64_t composite_k = le(b, 1, 2);  // bytes 2:1, kelvin
  if (composite_k) h.temperature_c = kelvin_to_c(composite_k);
  h.available_spare_pct = b[3];
  h.available_spare_threshold_pct = b[4];
  h.percentage_used = b[5];  // may exceed 100 (vendor-specific ceiling 255)
  h.data_units_read = le128(b, 32);      // thousands of 512-byte units
  h.data_units_written = le128(b, 48);
  h.media_errors = le128(b, 160);        // Media and Data Integrity Errors
  h.error_log_entries = le128(b, 176);   // Number of Error Information Log Entries
  h.warning_temp_time_min = static_cast<uint32_t>(le(b, 192, 4));
  h.critical_temp_time_min = static_cast<uint32_t>(le(b, 196, 4));
  // Thermal Management Temperature 1 and 2 Transition Counts, bytes 219:216 and 223:220.
  uint64_t transitions = le(b, 216, 4) + le(b, 220, 4);
  h.thermal_transitions = static_cast<uint32_t>(std::min<uint64_t>(transitions, UINT32_MAX));
  if (ctrl && ctrl->warning_temp_k) h.warning_temp_c = kelvin_to_c(ctrl->warning_temp_k);
  if (ctrl && ctrl->critical_temp_k) h.critical_temp_c = kelvin_to_c(ctrl->critical_temp_k);
  return h;
}

std::vector<std::string> critical_warning_words(uint8_t bits) {
  static constexpr const char* kBits[] = {
      "available spare below threshold",           // bit 0
      "temperature beyond a threshold",            // bit 1
      "reliability degraded by media or internal errors",  // bit 2
      "media placed in read-only mode",            // bit 3
      "volatile memory backup device failed",      // bit 4
      "persistent memory region read-only or unreliable",  // bit 5
  };
  std::vector<std::string> out;
  for (int i = 0; i < 8; ++i)
    if (bits & (1u << i)) out.push_back(i < 6 ? kBits[i] : fmt::format("reserved warning bit {}", i));
  return out;
}

}  // namespace diskvet::devices
