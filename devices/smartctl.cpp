// smartctl as a child process (no shell) and its JSON parsed with Boost.JSON.
#include "devices/smartctl.hpp"

#include <boost/json.hpp>
#include <fmt/format.h>

#include "common/child_process.hpp"
#include "devices/smart_logs.hpp"
#include "devices/smartctl_json.hpp"

namespace diskvet::devices {

namespace json = boost::json;
using smartctl_json::at;
using smartctl_json::number;

namespace {

// Attribute 241's unit is the vendor's; smartctl's drive database names it, and only names that say
// the unit are taken (an unknown unit read as sectors could fail a good drive).
void written_attribute(Health& h, const json::value& attr, uint64_t raw, uint64_t logical_block_bytes) {
  const json::value* name = at(attr, {"name"});
  if (!name || !name->is_string()) return;
  const std::string_view n = name->as_string();
  uint64_t unit = 0;
  if (n == "Total_LBAs_Written") unit = logical_block_bytes;
  else if (n == "Host_Writes_32MiB") unit = 32ull << 20;
  else if (n == "Host_Writes_GiB" || n == "Lifetime_Writes_GiB") unit = 1ull << 30;
  else if (n == "Host_Writes_MiB") unit = 1ull << 20;
  if (!unit) return;
  // The raw value of LBA counters is 48 bits (ATA/ACS attribute data); the rest are flags on some drives.
  h.ata_written_units = raw & 0xffff'ffff'ffffull;
  h.ata_written_unit_bytes = unit;
  h.ata_written_attribute = std::string(n);
}

// The ATA attributes whose growth predicts failure, or names a link fault (smart_counters.hpp).
bool watched_attribute(uint64_t id) { return id == 5 || id == 187 || id == 188 || id == 197 || id == 198 || id == 199; }

std::string attribute_name(const json::value& attr, uint64_t id) {
  const json::value* name = at(attr, {"name"});
  if (name && name->is_string()) return fmt::format("ATA attribute {} {}", id, std::string_view(name->as_string()));
  return fmt::format("ATA attribute {}", id);
}

}  // namespace

std::optional<Health> parse_smartctl_json(std::string_view text) {
  boost::system::error_code ec;
  json::value doc = json::parse(text, ec);
  if (ec || !doc.is_object()) return std::nullopt;
  const json::value* passed = at(doc, {"smart_status", "passed"});
  if (!passed || !passed->is_bool()) return std::nullopt;
  Health h;
  h.known = true;
  h.source = "smartctl";
  h.smart_passed = passed->as_bool();
  if (auto t = number(at(doc, {"temperature", "current"}))) h.temperature_c = static_cast<double>(*t);
  const uint64_t logical_block_bytes = number(at(doc, {"logical_block_size"})).value_or(512);
  if (const json::value* table = at(doc, {"ata_smart_attributes", "table"}); table && table->is_array()) {
    std::optional<uint64_t> reported_uncorrect, offline_uncorrectable;
    for (const auto& attr : table->as_array()) {
      auto id = number(at(attr, {"id"}));
      auto raw = number(at(attr, {"raw", "value"}));
      if (!id || !raw) continue;
      if (*id == 5) h.reallocated_sectors = raw;             // Reallocated_Sector_Ct
      if (*id == 187) reported_uncorrect = raw;              // Reported_Uncorrect
      if (*id == 197) h.pending_sectors = raw;               // Current_Pending_Sector
      if (*id == 198) offline_uncorrectable = raw;           // Offline_Uncorrectable
      if (*id == 241) written_attribute(h, attr, *raw, logical_block_bytes);
      if (watched_attribute(*id)) h.smart_counters.push_back({fmt::format("ata-{}", *id), attribute_name(attr, *id), *raw});
    }
    if (reported_uncorrect || offline_uncorrectable)
      h.media_errors = reported_uncorrect.value_or(0) + offline_uncorrectable.value_or(0);
  }
  if (auto grown = number(at(doc, {"scsi_grown_defect_list"}))) {
    h.reallocated_sectors = grown;
    h.smart_counters.push_back({"scsi-grown-defects", "SCSI grown defect list", *grown});
  }
  auto read_unc = number(at(doc, {"scsi_error_counter_log", "read", "total_uncorrected_errors"}));
  auto write_unc = number(at(doc, {"scsi_error_counter_log", "write", "total_uncorrected_errors"}));
  if (read_unc || write_unc) h.media_errors = read_unc.value_or(0) + write_unc.value_or(0);
  for (const char* dir : {"read", "write", "verify"})
    if (auto unc = number(at(doc, {"scsi_error_counter_log", dir, "total_uncorrected_errors"})))
      h.smart_counters.push_back({fmt::format("scsi-{}-uncorrected", dir), fmt::format("SCSI error counter log: {} uncorrected errors", dir), *unc});
  if (auto used = number(at(doc, {"scsi_percentage_used_endurance_indicator"})))
    h.percentage_used = static_cast<uint8_t>(std::min<uint64_t>(*used, 255));
  read_smart_logs(doc, h);
  return h;
}

namespace {

// ATA self-test log entry status, bits 7:4 (ATA/ACS, SMART self-test log descriptor; smartctl's words).
SelfTestResult ata_self_test_result(uint64_t status) {
  switch (status) {
    case 0x0: return SelfTestResult::passed;
    case 0x1:   // aborted by the host
    case 0x2:   // interrupted by a reset
      return SelfTestResult::aborted;
    default: return SelfTestResult::failed;  // 3h fatal, 4h-8h a failed element, reserved: fail closed
  }
}

SelfTestResult scsi_self_test_result(const ScsiSelfTestLogEntry& e) {
  if (e.result == 0x1 || e.result == 0x2) return SelfTestResult::aborted;
  return judge_scsi_self_test(e).fails ? SelfTestResult::failed : SelfTestResult::passed;
}

std::optional<SmartctlSelfTestState> parse_scsi_self_test(const json::value& doc) {
  if (smartctl_json::text(at(doc, {"device", "protocol"})) != "SCSI") return std::nullopt;
  SmartctlSelfTestState s;
  const auto log = scsi_self_test_log_of(doc);
  s.supported = log.has_value();
  if (!s.supported) {
    s.unsupported_why = "smartctl could not read the drive's self-test results log (SCSI log page 10h): it does not log self-tests";
    return s;
  }
  s.short_min = 2;  // SPC-4: a short self-test completes within two minutes
  s.short_source = "SPC-4's two minutes for a short self-test";
  if (auto sec = number(at(doc, {"scsi_extended_self_test_seconds"})); sec && *sec > 0) {
    s.extended_min = static_cast<double>(*sec) / 60;
    s.extended_source = "the drive's extended self-test time (SCSI Control mode page)";
  }
  json::array entries;
  for (const auto& e : *log) entries.push_back(json::value(describe_scsi_self_test(e)));
  s.log_text = json::serialize(entries);
  if (log->empty()) return s;
  const ScsiSelfTestLogEntry& e = log->front();
  if (e.result == 0xf) {
    s.running = true;
    return s;
  }
  SelfTestLogEntry entry;
  entry.result = scsi_self_test_result(e);
  entry.words = describe_scsi_self_test(e);
  if (e.segment) entry.failed_segment = static_cast<uint32_t>(*e.segment);
  entry.failing_lba = e.lba;
  entry.power_on_hours = e.power_on_hours;
  s.newest = std::move(entry);
  return s;
}

}  // namespace

std::optional<SmartctlSelfTestState> parse_smartctl_self_test(std::string_view text) {
  boost::system::error_code ec;
  json::value doc = json::parse(text, ec);
  if (ec || !doc.is_object()) return std::nullopt;
  const json::value* data = at(doc, {"ata_smart_data"});
  if (!data || !data->is_object()) return parse_scsi_self_test(doc);
  SmartctlSelfTestState s;
  const json::value* supported = at(*data, {"capabilities", "self_tests_supported"});
  s.supported = supported && supported->is_bool() && supported->as_bool();
  if (!s.supported) s.unsupported_why = "the drive does not run SMART self-tests (smartctl: self_tests_supported is false)";
  if (auto m = number(at(*data, {"self_test", "polling_minutes", "short"}))) s.short_min = static_cast<double>(*m);
  if (auto m = number(at(*data, {"self_test", "polling_minutes", "extended"}))) s.extended_min = static_cast<double>(*m);
  s.short_source = s.extended_source = "ATA recommended polling time";
  if (auto status = number(at(*data, {"self_test", "status", "value"})); status && (*status >> 4) == 0xf) {
    s.running = true;
    // The low nibble counts the remaining work in tenths; smartctl also states it in percent.
    const auto remaining = number(at(*data, {"self_test", "status", "remaining_percent"})).value_or((*status & 0xf) * 10);
    s.percent_done = 100.0 - static_cast<double>(std::min<uint64_t>(remaining, 100));
  }
  const json::value* table = at(doc, {"ata_smart_self_test_log", "standard", "table"});
  if (table) s.log_text = json::serialize(*table);
  if (table && table->is_array() && !table->as_array().empty()) {
    const json::value& e = table->as_array().front();
    SelfTestLogEntry entry;
    const uint64_t status = number(at(e, {"status", "value"})).value_or(0xff);
    entry.result = ata_self_test_result(status >> 4);
    const json::value* kind = at(e, {"type", "string"});
    const json::value* words = at(e, {"status", "string"});
    entry.words = fmt::format("{}: {} (status {:x}h)", kind && kind->is_string() ? std::string(kind->as_string()) : std::string("self-test"),
                              words && words->is_string() ? std::string(words->as_string()) : std::string("no words"), status >> 4);
    entry.power_on_hours = number(at(e, {"lifetime_hours"}));
    entry.failing_lba = number(at(e, {"lba"}));
    if (entry.failing_lba) entry.words += fmt::format(", first failing LBA {}", *entry.failing_lba);
    if (entry.power_on_hours) entry.words += fmt::format(", at {} power-on hours", *entry.power_on_hours);
    s.newest = std::move(entry);
  }
  return s;
}

// One hung drive must not hang every health read: smartctl runs as a child with a deadline, and a
// smartctl that has not finished by then is killed (and left for init when the kernel holds it).
std::optional<SmartctlOutput> smartctl_output(const std::vector<std::string>& args, std::chrono::milliseconds deadline) {
  std::vector<std::string> argv{"smartctl"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto child = ChildProcess::spawn(argv, SpawnOptions{.pipe_stdout = true});
  if (!child) return std::nullopt;  // not installed
  SmartctlOutput out;
  out.text = child->read_rest(static_cast<int>(deadline.count()));
  auto code = child->wait_for(1000);
  if (!code) {
    child->stop(1000);
    return std::nullopt;  // did not answer in time
  }
  out.exit_status = *code;
  if (*code >= 128) {
    boost::system::error_code ec;
    const json::value doc = json::parse(out.text, ec);
    out.killed = ec || number(at(doc, {"smartctl", "exit_status"})) != static_cast<uint64_t>(*code);
  }
  return out;
}

std::optional<Health> run_smartctl(const std::string& node, std::chrono::milliseconds deadline) {
  // -a prints ATA's summary error log and self-test log and SCSI's error counter log; -l xerror adds
  // the extended comprehensive error log, up to 32 of its newest errors (smartctl's default is 8).
  auto out = smartctl_output({"--json=c", "-a", "-l", "xerror,32", "-n", "standby", node}, deadline);
  // Exit status bits 0 and 1: bad command line, or the device could not be opened (smartctl(8)).
  if (!out || out->failed(0x3)) return std::nullopt;
  return parse_smartctl_json(out->text);
}

}  // namespace diskvet::devices
