// SATA/SAS error and self-test logs out of smartctl's JSON, and what a run added to them, judged.
#include "devices/smart_logs.hpp"

#include <boost/json.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "devices/smartctl_json.hpp"

namespace diskvet::devices {

namespace json = boost::json;
using smartctl_json::at;
using smartctl_json::number;
using smartctl_json::text;

namespace {

uint8_t byte_of(const json::value* v) { return static_cast<uint8_t>(number(v).value_or(0) & 0xff); }

std::optional<AtaErrorLog> error_log_of(const json::value& doc, std::string_view key, std::string_view name) {
  const json::value* log = at(doc, {"ata_smart_error_log", key});
  auto count = number(at(doc, {"ata_smart_error_log", key, "count"}));
  if (!log || !count) return std::nullopt;
  AtaErrorLog out{std::string(name), *count, {}};
  const json::value* table = at(*log, {"table"});
  if (!table || !table->is_array()) return out;
  for (const auto& e : table->as_array()) {
    auto n = number(at(e, {"error_number"}));
    const json::value* regs = at(e, {"completion_registers"});
    if (!n || !regs) continue;  // smartctl lists an empty slot of the extended log with its number only
    AtaErrorLogEntry entry;
    entry.number = *n;
    entry.lifetime_hours = number(at(e, {"lifetime_hours"}));
    entry.error_register = byte_of(at(*regs, {"error"}));
    entry.status_register = byte_of(at(*regs, {"status"}));
    entry.lba = number(at(*regs, {"lba"}));
    entry.description = text(at(e, {"error_description"}));
    // smartctl lists the commands newest first: the first is the one that failed.
    if (const json::value* cmds = at(e, {"previous_commands"}); cmds && cmds->is_array() && !cmds->as_array().empty())
      entry.command = text(at(cmds->as_array().front(), {"command_name"}));
    out.entries.push_back(std::move(entry));
  }
  return out;
}

std::optional<std::vector<AtaSelfTestLogEntry>> self_test_log_of(const json::value& doc) {
  const json::value* log = at(doc, {"ata_smart_self_test_log", "standard"});
  if (!log || !log->is_object()) return std::nullopt;
  std::vector<AtaSelfTestLogEntry> out;
  const json::value* table = at(*log, {"table"});
  if (!table || !table->is_array()) return out;
  for (const auto& e : table->as_array()) {
    AtaSelfTestLogEntry t;
    t.type = byte_of(at(e, {"type", "value"}));
    t.status = byte_of(at(e, {"status", "value"}));
    t.type_words = text(at(e, {"type", "string"}));
    t.status_words = text(at(e, {"status", "string"}));
    t.lifetime_hours = number(at(e, {"lifetime_hours"}));
    t.lba = number(at(e, {"lba"}));
    out.push_back(std::move(t));
  }
  return out;
}

std::optional<uint64_t> opt_number(const json::value& e, std::initializer_list<std::string_view> path) { return number(at(e, path)); }

// The flags smartctl decoded ("Device Fault; Error: UNC, ABRT 8 sectors at LBA = ..."): upper-case words.
std::vector<std::string> flags_of(std::string_view description) {
  std::vector<std::string> out;
  std::string word;
  for (char c : std::string(description) + " ") {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      word += c;
      continue;
    }
    if (!word.empty() && std::all_of(word.begin(), word.end(), [](char w) { return std::isupper(static_cast<unsigned char>(w)) || std::isdigit(static_cast<unsigned char>(w)); }))
      out.push_back(word);
    word.clear();
  }
  return out;
}

bool has(const std::vector<std::string>& flags, std::string_view f) { return std::find(flags.begin(), flags.end(), f) != flags.end(); }

constexpr std::string_view kMediaWhy = "a media or data error: the drive could not read, find or keep the data (UNC uncorrectable, IDNF address not found, AMNF "
                                       "address mark not found) or reported a device fault";
constexpr std::string_view kRefusedWhy = "a command the drive refused (ABRT: tools and the kernel probe optional features this way): not a fault of the media";
constexpr std::string_view kLinkWhy = "an interface CRC error: a frame corrupted on the SATA link, never on the media (a cable or backplane fault; attribute "
                                      "199 counts these)";

std::string describe_ata_error(const AtaErrorLogEntry& e, std::string_view log) {
  std::string s = fmt::format("ATA error {} ({} log)", e.number, log);
  if (e.lifetime_hours) s += fmt::format(" at {} power-on hours", *e.lifetime_hours);
  if (!e.command.empty()) s += ": " + e.command;
  if (!e.description.empty()) return s + ": " + e.description;
  s += fmt::format(": error register {:02x}h, status {:02x}h", e.error_register, e.status_register);
  if (e.lba) s += fmt::format(", LBA {}", *e.lba);
  return s;
}

std::string describe_self_test(const AtaSelfTestLogEntry& t) {
  std::string s = fmt::format("ATA self-test log: {}: {} (status {:x}h)", t.type_words.empty() ? fmt::format("self-test {:02x}h", t.type) : t.type_words,
                              t.status_words.empty() ? std::string("no words") : t.status_words, t.status >> 4);
  if (t.status & 0xf) s += fmt::format(", {}% remaining", (t.status & 0xf) * 10);
  if (t.lba) s += fmt::format(", first failing LBA {}", *t.lba);
  if (t.lifetime_hours) s += fmt::format(", at {} power-on hours", *t.lifetime_hours);
  return s;
}

// Where the entries that were in the log before the run start in the log after it: the smallest k
// with after[k..] the first entries of before (the log is circular, newest first: ATA keeps 21
// entries, SAS 20).
template <class Entry>
size_t first_old_entry(const std::vector<Entry>& before, const std::vector<Entry>& after) {
  for (size_t k = 0; k < after.size(); ++k) {
    if (after.size() - k > before.size()) continue;
    if (std::equal(after.begin() + static_cast<std::ptrdiff_t>(k), after.end(), before.begin())) return k;
  }
  return after.size();
}

void add(SmartLogReview& r, SmartLogFinding f) {
  (f.fails ? r.problems : r.notes).push_back(f.words + ": " + f.why);
  r.findings.push_back(std::move(f));
}

void review_error_log(SmartLogReview& r, const AtaErrorLog& before, const AtaErrorLog& after) {
  r.error_log = after.log;
  r.errors_before = before.count;
  r.errors_after = after.count;
  r.new_errors = after.count > before.count ? after.count - before.count : 0;
  if (r.new_errors == 0) return;
  const std::string log = fmt::format("ATA {} error log", after.log);
  std::vector<const AtaErrorLogEntry*> run;
  for (const auto& e : after.entries)
    if (e.number > before.count && e.number <= after.count) run.push_back(&e);
  std::sort(run.begin(), run.end(), [](const auto* a, const auto* b) { return a->number < b->number; });
  for (const auto* e : run) {
    const SmartLogJudgement j = judge_ata_error(*e);
    add(r, SmartLogFinding{log, e->number, e->lba, j.fails, describe_ata_error(*e, after.log), j.why});
  }
  r.unseen = r.new_errors > run.size() ? r.new_errors - run.size() : 0;
  if (r.unseen)
    r.problems.push_back(fmt::format("{} of {} new errors in the {} are not in what smartctl read of it (the {} log keeps only its last entries): "
                                     "what they were cannot be told, so they are not taken as harmless",
                                     r.unseen, r.new_errors, log, after.log));
}

SmartLogJudgement judge(const AtaSelfTestLogEntry& e) { return judge_ata_self_test(e); }
SmartLogJudgement judge(const ScsiSelfTestLogEntry& e) { return judge_scsi_self_test(e); }
std::string describe(const AtaSelfTestLogEntry& e) { return describe_self_test(e); }
std::string describe(const ScsiSelfTestLogEntry& e) { return "SCSI self-test log: " + describe_scsi_self_test(e); }

// The entries above those the log held before the run, each judged, oldest first.
template <class Entry>
void review_self_tests(SmartLogReview& r, const char* log, const std::vector<Entry>& before, const std::vector<Entry>& after) {
  const size_t k = first_old_entry(before, after);
  r.new_self_tests = r.new_self_tests.value_or(0) + k;
  for (size_t i = k; i-- > 0;) {
    const SmartLogJudgement j = judge(after[i]);
    add(r, SmartLogFinding{log, std::nullopt, after[i].lba, j.fails, describe(after[i]), j.why});
  }
}

const ScsiErrorCounters* direction(const std::vector<ScsiErrorCounters>& v, std::string_view dir) {
  for (const auto& c : v)
    if (c.direction == dir) return &c;
  return nullptr;
}

bool counted_by_smart_counters(const Health& before, std::string_view dir) {
  const std::string key = fmt::format("scsi-{}-uncorrected", dir);
  return std::any_of(before.smart_counters.begin(), before.smart_counters.end(), [&](const SmartCounter& c) { return c.key == key; });
}

void review_scsi_counters(SmartLogReview& r, const Health& before, const Health& after) {
  r.scsi_counters = true;
  for (const auto& b : before.scsi_error_counters) {
    const ScsiErrorCounters* a = direction(after.scsi_error_counters, b.direction);
    if (!a) continue;
    if (a->corrected > b.corrected)
      add(r, SmartLogFinding{"SCSI error counter log", std::nullopt, std::nullopt, false,
                             fmt::format("SCSI error counter log: {} {} errors corrected during the run ({} -> {})", a->corrected - b.corrected,
                                         b.direction, b.corrected, a->corrected),
                             "errors the drive corrected (ECC, rereads or rewrites) are part of a disk's normal work; listed as evidence"});
    if (a->uncorrected > b.uncorrected) {
      SmartLogFinding f{"SCSI error counter log", std::nullopt, std::nullopt, true,
                        fmt::format("SCSI error counter log: {} {} errors the drive could not correct during the run ({} -> {})",
                                    a->uncorrected - b.uncorrected, b.direction, b.uncorrected, a->uncorrected),
                        "the drive lost data it was asked to move: a media fault"};
      // The SMART counters judge the same count (smart_counters.hpp): said and failed once, there.
      if (counted_by_smart_counters(before, b.direction)) {
        f.why += " (FAILs the device through its SMART counter)";
        r.findings.push_back(std::move(f));
      } else {
        add(r, std::move(f));
      }
    }
  }
}

}  // namespace

void read_smart_logs(const json::value& doc, Health& h) {
  if (auto x = error_log_of(doc, "extended", "extended comprehensive")) h.ata_error_log_extended = std::move(x);
  if (auto s = error_log_of(doc, "summary", "summary")) h.ata_error_log_summary = std::move(s);
  if (auto t = self_test_log_of(doc)) h.ata_self_test_log = std::move(t);
  if (auto t = scsi_self_test_log_of(doc)) h.scsi_self_test_log = std::move(t);
  for (const char* dir : {"read", "write", "verify"}) {
    auto corrected = number(at(doc, {"scsi_error_counter_log", dir, "total_errors_corrected"}));
    auto uncorrected = number(at(doc, {"scsi_error_counter_log", dir, "total_uncorrected_errors"}));
    if (corrected || uncorrected) h.scsi_error_counters.push_back({dir, corrected.value_or(0), uncorrected.value_or(0)});
  }
}

std::optional<Health> parse_smart_logs(std::string_view json_text) {
  boost::system::error_code ec;
  json::value doc = json::parse(json_text, ec);
  if (ec || !doc.is_object()) return std::nullopt;
  Health h;
  read_smart_logs(doc, h);
  return h;
}

SmartLogJudgement judge_ata_error(const AtaErrorLogEntry& e) {
  const auto flags = flags_of(e.description);
  const bool device_fault = e.description.find("Device Fault") != std::string::npos;
  if (device_fault || has(flags, "UNC") || has(flags, "IDNF") || has(flags, "AMNF") || has(flags, "TK0NF") || has(flags, "CCTO"))
    return {true, std::string(kMediaWhy)};
  if (has(flags, "ICRC")) return {false, std::string(kLinkWhy)};
  if (has(flags, "ABRT")) return {false, std::string(kRefusedWhy)};
  for (const char* f : {"WP", "MC", "MCR", "NM", "EOM", "ILI"})
    if (has(flags, f)) return {false, "a write-protect, removable-media or command-specific answer, not a media fault"};
  // No decoding from smartctl (a command it has no table for): the registers, as for a read or write.
  if ((e.status_register & 0x20) || (e.error_register & (0x40 | 0x10 | 0x01))) return {true, std::string(kMediaWhy)};
  if (e.error_register == 0x04) return {false, std::string(kRefusedWhy)};
  if ((e.error_register & ~0x04) == 0x80) return {false, std::string(kLinkWhy)};
  return {true, "an error diskvet cannot place from its registers (fail closed)"};
}

SmartLogJudgement judge_ata_self_test(const AtaSelfTestLogEntry& e) {
  switch (e.status >> 4) {
    case 0x0: return {false, "a self-test that passed"};
    case 0x1:
    case 0x2: return {false, "a self-test aborted by the host or interrupted by a reset: it found nothing either way"};
    case 0xf: return {false, "a self-test still running"};
    default: return {true, "the drive's own self-test found a fault"};
  }
}

SmartLogJudgement judge_scsi_self_test(const ScsiSelfTestLogEntry& e) {
  switch (e.result) {
    case 0x0: return {false, "a self-test that passed"};
    case 0x1:
    case 0x2: return {false, "a self-test aborted by a command or a reset: it found nothing either way"};
    case 0xf: return {false, "a self-test still running"};
    case 0x3: return {true, "the drive's own self-test met an error that left it incomplete"};
    default: return {true, "the drive's own self-test found a fault"};  // 4h-7h a failed segment; reserved values fail closed
  }
}

std::optional<std::vector<ScsiSelfTestLogEntry>> scsi_self_test_log_of(const json::value& doc) {
  std::vector<ScsiSelfTestLogEntry> out;
  for (int k = 0; k < 20; ++k) {
    const json::value* e = at(doc, {fmt::format("scsi_self_test_{}", k)});
    if (!e || !e->is_object()) break;
    ScsiSelfTestLogEntry t;
    t.code = byte_of(at(*e, {"code", "value"}));
    t.result = byte_of(at(*e, {"result", "value"}));
    t.code_words = text(at(*e, {"code", "string"}));
    t.result_words = text(at(*e, {"result", "string"}));
    t.segment = opt_number(*e, {"failed_segment", "value"});
    t.power_on_hours = opt_number(*e, {"power_on_time", "hours"});
    t.lba = opt_number(*e, {"lba_first_failure", "value"});
    t.sense_key = opt_number(*e, {"sense_key", "value"});
    t.sense_words = text(at(*e, {"sense_key", "string"}));
    t.asc = opt_number(*e, {"asc"});
    t.ascq = opt_number(*e, {"ascq"});
    out.push_back(std::move(t));
  }
  if (!out.empty()) return out;
  if (text(at(doc, {"device", "protocol"})) != "SCSI") return std::nullopt;
  const auto exit_status = number(at(doc, {"smartctl", "exit_status"}));
  if (!exit_status || (*exit_status & 0x4)) return std::nullopt;  // a command failed: perhaps the log page itself
  return out;
}

std::string describe_scsi_self_test(const ScsiSelfTestLogEntry& e) {
  std::string s = fmt::format("{}: {} (result {:x}h)", e.code_words.empty() ? fmt::format("self-test code {}", e.code) : e.code_words,
                              e.result_words.empty() ? std::string("no words") : e.result_words, e.result);
  if (e.segment) s += fmt::format(", segment {}", *e.segment);
  if (e.lba) s += fmt::format(", first failing LBA {}", *e.lba);
  if (e.power_on_hours) s += fmt::format(", at {} power-on hours", *e.power_on_hours);
  if (e.sense_key)
    s += fmt::format(", sense {} (ASC {:02x}h, ASCQ {:02x}h)", e.sense_words.empty() ? fmt::format("key {:x}h", *e.sense_key) : e.sense_words,
                     e.asc.value_or(0), e.ascq.value_or(0));
  return s;
}

std::optional<SmartLogReview> review_smart_logs(const Health& before, const Health& after) {
  SmartLogReview r;
  bool any = false;
  if (before.ata_error_log_extended && after.ata_error_log_extended) {
    review_error_log(r, *before.ata_error_log_extended, *after.ata_error_log_extended);
    any = true;
  } else if (before.ata_error_log_summary && after.ata_error_log_summary) {
    review_error_log(r, *before.ata_error_log_summary, *after.ata_error_log_summary);
    any = true;
  }
  if (before.ata_self_test_log && after.ata_self_test_log) {
    review_self_tests(r, "ATA self-test log", *before.ata_self_test_log, *after.ata_self_test_log);
    r.self_test_log = "ATA";
    any = true;
  }
  if (before.scsi_self_test_log && after.scsi_self_test_log) {
    review_self_tests(r, "SCSI self-test log", *before.scsi_self_test_log, *after.scsi_self_test_log);
    r.self_test_log = r.self_test_log.empty() ? "SCSI" : "ATA and SCSI";
    any = true;
  }
  if (!before.scsi_error_counters.empty() && !after.scsi_error_counters.empty()) {
    review_scsi_counters(r, before, after);
    any = true;
  }
  if (!any) return std::nullopt;
  return r;
}

}  // namespace diskvet::devices
