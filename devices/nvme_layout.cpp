// NVMe Identify and log pages decoded through libnvme's typed structures (<nvme/types.h>): the
// structure holds each field's offset and width, as the spec lays it out; this file only converts
// from little endian and decodes units and bits. Only the types are used, not libnvme's ioctls.
#include "devices/nvme_layout.hpp"

#include <endian.h>
#include <nvme/types.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>
#include <type_traits>

namespace diskvet::devices {

static_assert(sizeof(nvme_id_ctrl) == kIdentifyBytes && sizeof(nvme_id_ns) == kIdentifyBytes && sizeof(nvme_ns_list) == kIdentifyBytes);
static_assert(sizeof(nvme_smart_log) == kLogPageBytes && sizeof(nvme_firmware_slot) == kLogPageBytes &&
              sizeof(nvme_sanitize_log_page) == kLogPageBytes);

namespace {

// The buffer as libnvme's structure, or nullopt when it is shorter. Copied, not cast: the caller's
// bytes need not be aligned for the structure.
template <typename T>
std::optional<T> as(std::span<const uint8_t> b) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (b.size() < sizeof(T)) return std::nullopt;
  T s;
  std::memcpy(&s, b.data(), sizeof s);
  return s;
}

// libnvme gives the SMART log's 16-byte counters and its 2-byte composite temperature (at an odd
// offset) as byte arrays, not integers, so these two are read here byte by byte.
template <size_t N>
uint64_t le_bytes(const uint8_t (&b)[N], size_t from = 0, size_t count = N) {
  uint64_t v = 0;
  for (size_t i = 0; i < count && i < 8; ++i) v |= uint64_t{b[from + i]} << (8 * i);
  return v;
}

// A 128-bit counter; saturates at 2^64-1 rather than wrapping (no real drive gets there).
uint64_t le128(const uint8_t (&b)[16]) {
  if (le_bytes(b, 8, 8) != 0) return std::numeric_limits<uint64_t>::max();
  return le_bytes(b, 0, 8);
}

// ASCII fields are space padded (Base Spec 1.5, "ASCII string").
template <size_t N>
std::string ascii(const char (&field)[N]) {
  std::string s(field, N);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.pop_back();
  size_t start = s.find_first_not_of(' ');
  return start == std::string::npos ? std::string() : s.substr(start);
}

template <size_t N>
std::string hex_or_empty(const uint8_t (&b)[N]) {
  std::string s;
  for (uint8_t byte : b) s += fmt::format("{:02x}", byte);
  return std::any_of(std::begin(b), std::end(b), [](uint8_t byte) { return byte != 0; }) ? s : std::string();
}

double kelvin_to_c(uint64_t k) { return static_cast<double>(k) - 273.15; }

}  // namespace

// Identify Controller data structure (Base Spec 2.0, Figure 275).
std::optional<NvmeController> parse_identify_controller(std::span<const uint8_t> b) {
  auto id = as<nvme_id_ctrl>(b);
  if (!id) return std::nullopt;
  NvmeController c;
  c.vendor_id = le16toh(id->vid);
  c.serial = ascii(id->sn);
  c.model = ascii(id->mn);
  c.firmware = ascii(id->fr);
  c.cmic = id->cmic;
  c.oacs = le16toh(id->oacs);
  c.warning_temp_k = le16toh(id->wctemp);
  c.critical_temp_k = le16toh(id->cctemp);
  c.sanicap = le32toh(id->sanicap);
  c.namespace_count = le32toh(id->nn);
  c.error_log_entries = static_cast<uint16_t>(id->elpe + 1);
  c.edstt_min = le16toh(id->edstt);
  c.fna = id->fna;
  return c;
}

// Identify Namespace data structure, NVM Command Set (NVM Command Set Spec 1.0, Figure 97).
std::optional<NvmeNamespace> parse_identify_namespace(std::span<const uint8_t> b) {
  auto ns = as<nvme_id_ns>(b);
  if (!ns) return std::nullopt;
  NvmeNamespace n;
  n.size_blocks = le64toh(ns->nsze);
  n.capacity_blocks = le64toh(ns->ncap);
  n.used_blocks = le64toh(ns->nuse);
  const size_t count = std::min(size_t{ns->nlbaf} + 1, std::size(ns->lbaf));  // NLBAF is 0's based
  const uint8_t flbas = ns->flbas;
  n.metadata_extended = flbas & NVME_NS_FLBAS_META_EXT;
  n.dps = ns->dps;
  // FLBAS bits 3:0 are the format index; bits 6:5 its upper bits when more than 16 formats exist.
  n.lba_format_in_use = static_cast<uint8_t>((flbas & NVME_NS_FLBAS_LOWER_MASK) |
                                             (count > 16 ? ((flbas & NVME_NS_FLBAS_HIGHER_MASK) >> 5) << 4 : 0));
  n.nguid_hex = hex_or_empty(ns->nguid);
  n.eui64_hex = hex_or_empty(ns->eui64);
  for (size_t i = 0; i < count; ++i) {
    const nvme_lbaf& f = ns->lbaf[i];
    NvmeLbaFormat lf;
    lf.metadata_bytes = le16toh(f.ms);
    lf.data_bytes = f.ds >= 9 && f.ds < 32 ? uint32_t{1} << f.ds : 0;  // LBADS below 9 is unsupported
    lf.relative_performance = static_cast<uint8_t>(f.rp & NVME_LBAF_RP_MASK);
    n.lba_formats.push_back(lf);
  }
  return n;
}

// Firmware Slot Information log page, 03h (Base Spec 2.0, Figure 209).
std::optional<NvmeFirmwareSlots> parse_firmware_slot_log(std::span<const uint8_t> b) {
  auto fw = as<nvme_firmware_slot>(b);
  if (!fw) return std::nullopt;
  NvmeFirmwareSlots s;
  s.active_slot = fw->afi & 0x7;             // AFI bits 2:0
  s.next_reset_slot = (fw->afi >> 4) & 0x7;  // AFI bits 6:4
  for (const auto& revision : fw->frs) s.revisions.push_back(ascii(revision));  // FRS1..FRS7
  return s;
}

// Sanitize Status log page, 81h (Base Spec 2.0, "Sanitize Status").
std::optional<NvmeSanitizeStatus> parse_sanitize_log(std::span<const uint8_t> b) {
  auto log = as<nvme_sanitize_log_page>(b);
  if (!log) return std::nullopt;
  NvmeSanitizeStatus s;
  s.progress = le16toh(log->sprog);
  const uint16_t sstat = le16toh(log->sstat);
  s.state = sstat & NVME_SANITIZE_SSTAT_STATUS_MASK;
  s.global_data_erased = sstat & NVME_SANITIZE_SSTAT_GLOBAL_DATA_ERASED;
  s.cdw10 = le32toh(log->scdw10);
  s.overwrite_s = le32toh(log->eto);
  s.block_erase_s = le32toh(log->etbe);
  s.crypto_erase_s = le32toh(log->etce);
  return s;
}

// Namespace List (Base Spec 2.0, 4.4.2): up to 1024 NSIDs in increasing order, zero filled after the last.
std::optional<std::vector<uint32_t>> parse_namespace_list(std::span<const uint8_t> b) {
  auto list = as<nvme_ns_list>(b);
  if (!list) return std::nullopt;
  std::vector<uint32_t> ids;
  for (__le32 le : list->ns) {
    uint32_t id = le32toh(le);
    if (id == 0) break;
    ids.push_back(id);
  }
  return ids;
}

// SMART / Health Information log page, 02h (Base Spec 2.0, Figure 207).
std::optional<Health> parse_smart_log(std::span<const uint8_t> b, const NvmeController* ctrl) {
  auto log = as<nvme_smart_log>(b);
  if (!log) return std::nullopt;
  Health h;
  h.known = true;
  h.source = "nvme";
  h.critical_warning = log->critical_warning;
  if (uint64_t composite_k = le_bytes(log->temperature)) h.temperature_c = kelvin_to_c(composite_k);
  h.available_spare_pct = log->avail_spare;
  h.available_spare_threshold_pct = log->spare_thresh;
  h.percentage_used = log->percent_used;  // may exceed 100 (vendor-specific ceiling 255)
  h.data_units_read = le128(log->data_units_read);  // thousands of 512-byte units
  h.data_units_written = le128(log->data_units_written);
  h.media_errors = le128(log->media_errors);  // Media and Data Integrity Errors
  h.error_log_entries = le128(log->num_err_log_entries);
  h.warning_temp_time_min = le32toh(log->warning_temp_time);
  h.critical_temp_time_min = le32toh(log->critical_comp_time);
  uint64_t transitions = uint64_t{le32toh(log->thm_temp1_trans_count)} + le32toh(log->thm_temp2_trans_count);
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
