// The NVMe Error Information log (log page 01h, NVM Express Base Specification 2.0, "Error
// Information"): 64-byte entries, newest first, each naming the command that failed (submission
// queue and command id), its status, the LBA and namespace. Decoded from raw bytes by a pure
// function and judged: media and data-integrity errors FAIL; commands the drive refused because a
// tool asked for something it does not do (probing) are listed and do not.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "devices/device.hpp"

namespace diskvet::devices {

inline constexpr size_t kErrorLogEntryBytes = 64;

struct NvmeErrorEntry {
  uint64_t error_count = 0;  // unique per entry, grows over the drive's life; 0: an empty entry
  uint16_t sqid = 0;         // 0: the admin queue
  uint16_t cmdid = 0;
  uint16_t status = 0;       // the completion's Status Field (bits 15:1 of the entry's word; the phase tag dropped)
  uint16_t parameter_error_location = 0;  // FFFFh: not applicable
  uint64_t lba = 0;
  uint32_t nsid = 0;
  uint8_t vendor_specific_page = 0;       // a vendor log page with more about it; 0: none
  uint8_t transport_type = 0;
  uint64_t command_specific = 0;
  uint8_t sct() const { return static_cast<uint8_t>((status >> 8) & 0x7); }  // Status Code Type
  uint8_t sc() const { return static_cast<uint8_t>(status & 0xff); }         // Status Code
  bool do_not_retry() const { return status & 0x4000; }
};

// Every non-empty entry of a log page buffer (whole entries only; a trailing partial one is ignored).
std::vector<NvmeErrorEntry> parse_error_log(std::span<const uint8_t> buf);

// The status in the specification's words: "Unrecovered Read Error (SCT 2h, SC 81h)".
std::string nvme_error_status_words(uint8_t sct, uint8_t sc);

// How an entry is judged, and why in words.
struct ErrorJudgement {
  bool fails = false;
  std::string why;
};
// Media and data integrity errors (SCT 2h: write fault, unrecovered read, end-to-end guard,
// application and reference tag checks) and the controller's own failures (data transfer error,
// internal error) FAIL; so does every status not named below (fail closed). Refusals a probe
// causes (Invalid Command Opcode, Invalid Field in Command, Invalid Namespace or Format, LBA Out of
// Range, Invalid Log Page, Feature not saveable or changeable), aborts the host asked for, and
// compare or deallocated-block answers do not.
ErrorJudgement judge_error_entry(const NvmeErrorEntry& e);

// One entry in words for the report: count, queue and command, status, namespace and LBA.
std::string describe_error_entry(const NvmeErrorEntry& e);

// The entries of a log read after a run that the run added: error count above the SMART log's
// Number of Error Information Log Entries before it.
std::vector<NvmeErrorEntry> entries_since(const std::vector<NvmeErrorEntry>& log, uint64_t count_before);

// What a run added to the error log: the SMART log's count of entries before and after it, and the
// entries the log read after it still holds. Entries counted but gone from the log (it keeps only
// its last ELPE + 1) cannot be judged harmless: they FAIL, as does a count that grew while the log
// could not be read.
struct ErrorLogFinding {
  NvmeErrorEntry entry;
  std::string words;  // describe_error_entry
  ErrorJudgement judgement;
};
struct ErrorLogReview {
  uint64_t new_entries = 0;
  std::vector<ErrorLogFinding> entries;  // oldest first
  uint64_t unseen = 0;
  std::vector<std::string> problems;     // each FAILs the device
  std::vector<std::string> notes;        // listed with why they do not
};
// nullopt when the count is unknown before or after (no NVMe SMART log).
std::optional<ErrorLogReview> review_error_log(const Health& before, const Health& after);

}  // namespace diskvet::devices
