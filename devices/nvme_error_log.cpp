// Decoding and judging NVMe Error Information log entries.
#include "devices/nvme_error_log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "devices/little_endian.hpp"

namespace diskvet::devices {

namespace {

struct StatusName {
  uint8_t sct, sc;
  const char* words;
};

// NVM Express Base Specification 2.0, "Generic Command Status Values", "Command Specific Status
// Values" and "Media and Data Integrity Errors"; NVM Command Set Specification 1.0 for LBA ones.
constexpr StatusName kStatusNames[] = {
    {0, 0x00, "Successful Completion"},
    {0, 0x01, "Invalid Command Opcode"},
    {0, 0x02, "Invalid Field in Command"},
    {0, 0x03, "Command ID Conflict"},
    {0, 0x04, "Data Transfer Error"},
    {0, 0x05, "Commands Aborted due to Power Loss Notification"},
    {0, 0x06, "Internal Error"},
    {0, 0x07, "Command Abort Requested"},
    {0, 0x08, "Command Aborted due to SQ Deletion"},
    {0, 0x09, "Command Aborted due to Failed Fused Command"},
    {0, 0x0a, "Command Aborted due to Missing Fused Command"},
    {0, 0x0b, "Invalid Namespace or Format"},
    {0, 0x0c, "Command Sequence Error"},
    {0, 0x0d, "Invalid SGL Segment Descriptor"},
    {0, 0x15, "Operation Denied"},
    {0, 0x1d, "Sanitize In Progress"},
    {0, 0x20, "Namespace is Write Protected"},
    {0, 0x21, "Command Interrupted"},
    {0, 0x80, "LBA Out of Range"},
    {0, 0x81, "Capacity Exceeded"},
    {0, 0x82, "Namespace Not Ready"},
    {1, 0x02, "Invalid Queue Identifier"},
    {1, 0x06, "Invalid Firmware Slot"},
    {1, 0x07, "Invalid Firmware Image"},
    {1, 0x09, "Invalid Log Page"},
    {1, 0x0a, "Invalid Format"},
    {1, 0x0d, "Feature Identifier Not Saveable"},
    {1, 0x0e, "Feature Not Changeable"},
    {1, 0x0f, "Feature Not Namespace Specific"},
    {1, 0x1d, "Device Self-test In Progress"},
    {1, 0x80, "Conflicting Attributes"},
    {1, 0x81, "Invalid Protection Information"},
    {1, 0x82, "Attempted Write to Read Only Range"},
    {2, 0x80, "Write Fault"},
    {2, 0x81, "Unrecovered Read Error"},
    {2, 0x82, "End-to-end Guard Check Error"},
    {2, 0x83, "End-to-end Application Tag Check Error"},
    {2, 0x84, "End-to-end Reference Tag Check Error"},
    {2, 0x85, "Compare Failure"},
    {2, 0x86, "Access Denied"},
    {2, 0x87, "Deallocated or Unwritten Logical Block"},
    {3, 0x00, "Internal Path Error"},
    {3, 0x01, "Asymmetric Access Persistent Loss"},
    {3, 0x02, "Asymmetric Access Inaccessible"},
    {3, 0x03, "Asymmetric Access Transition"},
};

constexpr const char* kSctWords[] = {"generic", "command specific", "media and data integrity", "path related", "", "", "", "vendor specific"};

const char* name_of(uint8_t sct, uint8_t sc) {
  for (const auto& n : kStatusNames)
    if (n.sct == sct && n.sc == sc) return n.words;
  return nullptr;
}

}  // namespace

std::vector<NvmeErrorEntry> parse_error_log(std::span<const uint8_t> buf) {
  std::vector<NvmeErrorEntry> out;
  for (size_t off = 0; off + kErrorLogEntryBytes <= buf.size(); off += kErrorLogEntryBytes) {
    auto b = buf.subspan(off, kErrorLogEntryBytes);
    NvmeErrorEntry e;
    e.error_count = le<uint64_t>(b, 0);
    if (e.error_count == 0) continue;  // an entry never filled
    e.sqid = le<uint16_t>(b, 8);
    e.cmdid = le<uint16_t>(b, 10);
    e.status = static_cast<uint16_t>(le<uint16_t>(b, 12) >> 1);  // bit 0 is the phase tag
    e.parameter_error_location = le<uint16_t>(b, 14);
    e.lba = le<uint64_t>(b, 16);
    e.nsid = le<uint32_t>(b, 24);
    e.vendor_specific_page = b[28];
    e.transport_type = b[29];
    e.command_specific = le<uint64_t>(b, 32);
    out.push_back(e);
  }
  return out;
}

std::string nvme_error_status_words(uint8_t sct, uint8_t sc) {
  const char* name = name_of(sct, sc);
  const char* type = kSctWords[sct & 0x7];
  if (name) return fmt::format("{} (SCT {:x}h, SC {:02x}h)", name, sct, sc);
  return fmt::format("{}status (SCT {:x}h, SC {:02x}h)", *type ? fmt::format("{} ", type) : std::string("reserved "), sct, sc);
}

ErrorJudgement judge_error_entry(const NvmeErrorEntry& e) {
  const uint8_t sct = e.sct(), sc = e.sc();
  if (sct == 2 && sc >= 0x80 && sc <= 0x84) return {true, "a media or data integrity error: the drive lost or could not keep data"};
  if (sct == 0 && (sc == 0x04 || sc == 0x06)) return {true, "the controller failed the command itself"};
  const bool probe = (sct == 0 && (sc == 0x01 || sc == 0x02 || sc == 0x0b || sc == 0x80)) ||
                     (sct == 1 && (sc == 0x02 || sc == 0x09 || sc == 0x0d || sc == 0x0e || sc == 0x0f));
  if (probe)
    return {false, "a command the drive refused because it asked for something the drive does not do (tools and the kernel probe optional "
                   "features and limits this way): not a fault of the drive"};
  if (sct == 0 && (sc == 0x07 || sc == 0x08)) return {false, "the host aborted the command (a timeout or a queue deleted on reset): the stall, if any, is judged from the I/O itself"};
  if (sct == 2 && sc >= 0x85 && sc <= 0x87) return {false, "an answer about the data asked for (a miscompare, access rules, an unwritten block), not a media fault"};
  return {true, "a status diskvet does not know to be harmless (fail closed)"};
}

std::string describe_error_entry(const NvmeErrorEntry& e) {
  std::string s = fmt::format("error {}: {}, {} command id {:#06x}", e.error_count, nvme_error_status_words(e.sct(), e.sc()),
                              e.sqid == 0 ? std::string("admin") : fmt::format("I/O queue {}", e.sqid), e.cmdid);
  if (e.nsid && e.nsid != 0xffffffff) s += fmt::format(", namespace {}", e.nsid);
  if (e.sct() == 2 || e.lba) s += fmt::format(", LBA {}", e.lba);
  if (e.parameter_error_location != 0xffff && e.parameter_error_location)
    s += fmt::format(", parameter at byte {} bit {}", e.parameter_error_location & 0xff, (e.parameter_error_location >> 8) & 0x7);
  if (e.do_not_retry()) s += ", do not retry";
  return s;
}

std::optional<ErrorLogReview> review_error_log(const Health& before, const Health& after) {
  if (!before.error_log_entries || !after.error_log_entries) return std::nullopt;
  ErrorLogReview r;
  r.new_entries = *after.error_log_entries > *before.error_log_entries ? *after.error_log_entries - *before.error_log_entries : 0;
  if (r.new_entries == 0) return r;
  if (!after.error_log) {
    r.unseen = r.new_entries;
    r.problems.push_back(fmt::format("{} new error log entries, and the Error Information log could not be read to tell what they are", r.new_entries));
    return r;
  }
  std::vector<NvmeErrorEntry> log;
  for (const auto& raw : *after.error_log)
    for (auto& e : parse_error_log(raw)) log.push_back(e);
  for (const auto& e : entries_since(log, *before.error_log_entries)) {
    ErrorLogFinding f{e, describe_error_entry(e), judge_error_entry(e)};
    (f.judgement.fails ? r.problems : r.notes).push_back(f.words + ": " + f.judgement.why);
    r.entries.push_back(std::move(f));
  }
  r.unseen = r.new_entries > r.entries.size() ? r.new_entries - r.entries.size() : 0;
  if (r.unseen)
    r.problems.push_back(fmt::format("{} of {} new error log entries are no longer in the Error Information log (it keeps {}): what they were "
                                     "cannot be told, so they are not taken as harmless",
                                     r.unseen, r.new_entries, after.error_log->size()));
  return r;
}

std::vector<NvmeErrorEntry> entries_since(const std::vector<NvmeErrorEntry>& log, uint64_t count_before) {
  std::vector<NvmeErrorEntry> out;
  for (const auto& e : log)
    if (e.error_count > count_before) out.push_back(e);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.error_count < b.error_count; });
  return out;
}

}  // namespace diskvet::devices
