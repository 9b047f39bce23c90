// NVMe data structures parsed from raw little-endian byte buffers, exactly as a controller returns
// them (NVM Express Base Specification 2.0; NVM Command Set Specification 1.0 for Identify
// Namespace). Pure functions: unit tests feed buffers built byte by byte from the spec's layouts.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "devices/device.hpp"

namespace diskvet::devices {

inline constexpr size_t kIdentifyBytes = 4096;
inline constexpr size_t kLogPageBytes = 512;  // SMART / Health (02h), Firmware Slot (03h), Sanitize Status (81h)

struct NvmeController {
  uint16_t vendor_id = 0;
  std::string serial, model, firmware;
  uint8_t cmic = 0;         // Controller Multi-Path I/O and Namespace Sharing Capabilities
  uint16_t oacs = 0;        // Optional Admin Command Support
  uint8_t fna = 0;          // Format NVM Attributes
  uint32_t sanicap = 0;     // Sanitize Capabilities
  uint16_t warning_temp_k = 0;   // WCTEMP, kelvin; 0: not reported
  uint16_t critical_temp_k = 0;  // CCTEMP, kelvin
  uint32_t namespace_count = 0;  // NN
  uint16_t error_log_entries = 1;  // ELPE + 1: how many Error Information log entries the controller keeps
  uint16_t edstt_min = 0;   // EDSTT: the extended device self-test's time in minutes; 0: not reported
  bool format_supported() const { return oacs & 0x2; }          // OACS bit 1
  bool firmware_download_supported() const { return oacs & 0x4; }  // OACS bit 2
  bool namespace_management() const { return oacs & 0x8; }      // OACS bit 3
  bool self_test_supported() const { return oacs & 0x10; }       // OACS bit 4: Device Self-test
  bool sanitize_crypto_erase() const { return sanicap & 0x1; }
  bool sanitize_block_erase() const { return sanicap & 0x2; }
  bool sanitize_overwrite() const { return sanicap & 0x4; }
  bool may_have_other_controllers() const { return cmic & 0x2; }  // CMIC bit 1
  bool format_applies_to_all_namespaces() const { return fna & 0x1; }        // FNA bit 0
  bool secure_erase_applies_to_all_namespaces() const { return fna & 0x2; }  // FNA bit 1
  bool format_crypto_erase_supported() const { return fna & 0x4; }           // FNA bit 2
};

struct NvmeLbaFormat {
  uint32_t data_bytes = 0;      // 2^LBADS
  uint16_t metadata_bytes = 0;  // MS
  uint8_t relative_performance = 0;  // RP: 0 best .. 3 degraded
};

struct NvmeNamespace {
  uint64_t size_blocks = 0;      // NSZE
  uint64_t capacity_blocks = 0;  // NCAP
  uint64_t used_blocks = 0;      // NUSE
  std::vector<NvmeLbaFormat> lba_formats;
  uint8_t lba_format_in_use = 0;  // FLBAS index
  bool metadata_extended = false;  // FLBAS bit 4: metadata at the end of each block (Format NVM's MSET)
  uint8_t dps = 0;                 // End-to-end Data Protection Type Settings (PI type bits 2:0, bit 3 first bytes)
  std::string nguid_hex, eui64_hex;  // empty when all zero
  uint32_t block_bytes() const {
    return lba_format_in_use < lba_formats.size() ? lba_formats[lba_format_in_use].data_bytes : 0;
  }
};

struct NvmeFirmwareSlots {
  uint8_t active_slot = 0;      // 1..7
  uint8_t next_reset_slot = 0;  // 0: not set
  std::vector<std::string> revisions;  // slots 1..7; empty string: slot empty
};

// Sanitize Status log page, 81h (Base Spec 2.0, "Sanitize Status").
inline constexpr uint32_t kNoEstimate = 0xffffffff;
struct NvmeSanitizeStatus {
  uint16_t progress = 0;  // SPROG: fraction done, numerator over 65536 (while in progress)
  uint8_t state = 0;      // SSTAT bits 2:0: 0 never sanitized, 1 done, 2 in progress, 3 failed, 4 done without deallocation
  bool global_data_erased = false;  // SSTAT bit 8
  uint32_t cdw10 = 0;     // SCDW10: the Sanitize command that started the most recent operation
  uint32_t overwrite_s = kNoEstimate, block_erase_s = kNoEstimate, crypto_erase_s = kNoEstimate;  // ETO, ETBE, ETCE
};

// Each returns nullopt when the buffer is shorter than the structure.
std::optional<NvmeController> parse_identify_controller(std::span<const uint8_t> buf);
std::optional<NvmeNamespace> parse_identify_namespace(std::span<const uint8_t> buf);
std::optional<NvmeFirmwareSlots> parse_firmware_slot_log(std::span<const uint8_t> buf);
std::optional<NvmeSanitizeStatus> parse_sanitize_log(std::span<const uint8_t> buf);
// A Namespace List (Identify CNS 02h active, 10h allocated): ascending NSIDs, ended by a zero.
std::optional<std::vector<uint32_t>> parse_namespace_list(std::span<const uint8_t> buf);
// SMART / Health Information (log page 02h) into Health (known, source "nvme"); the controller's
// WCTEMP/CCTEMP fill the thresholds when given. Problems are not judged here (evaluate_health).
std::optional<Health> parse_smart_log(std::span<const uint8_t> buf, const NvmeController* ctrl = nullptr);

// Words for the Critical Warning bits (Base Spec 2.0, Figure 207, byte 0).
std::vector<std::string> critical_warning_words(uint8_t bits);

}  // namespace diskvet::devices
