// Judging the growth of SATA/SAS failure-predicting counters over a run.
#include "devices/smart_counters.hpp"

#include <fmt/format.h>

#include <string_view>

namespace diskvet::devices {

namespace {

struct CounterRule {
  std::string_view key;
  bool fails;
  std::string_view meaning;
};

// What growth in each counter means (ATA/ACS SMART attributes as smartmontools names them; SPC-4's
// Read Defect Data grown list and Error Counter log pages for SAS).
constexpr CounterRule kRules[] = {
    {"ata-5", true, "the drive remapped sectors it could no longer use"},
    {"ata-187", true, "errors the drive's ECC could not correct were reported to the host"},
    {"ata-188", true, "commands the drive did not complete in time"},
    {"ata-197", true, "sectors the drive could not read are waiting to be remapped"},
    {"ata-198", true, "sectors the drive's offline scan could not read"},
    // Attribute 199 counts frames that reached the drive corrupted on the SATA link (Ultra DMA CRC):
    // the media never saw them, and the host retried each one. The drive is most likely sound and
    // the cable, connector or backplane is not, so a FAIL would send a good drive back; but I/O on
    // a faulty link was retried and measured, so the run cannot vouch for the device either.
    {"ata-199", false, "a cable or backplane fault, not the drive: frames were corrupted on the link and retried, so the run's numbers are not the drive's alone (reseat or replace the cable and run again)"},
    {"scsi-grown-defects", true, "the drive added blocks to its grown defect list"},
    {"scsi-read-uncorrected", true, "reads the drive could not correct"},
    {"scsi-write-uncorrected", true, "writes the drive could not correct"},
    {"scsi-verify-uncorrected", true, "verifies the drive could not correct"},
};

const CounterRule* rule_for(std::string_view key) {
  for (const auto& r : kRules)
    if (r.key == key) return &r;
  return nullptr;
}

const SmartCounter* find(const std::vector<SmartCounter>& counters, std::string_view key) {
  for (const auto& c : counters)
    if (c.key == key) return &c;
  return nullptr;
}

}  // namespace

std::optional<SmartCounterReview> review_smart_counters(const Health& before, const Health& after) {
  if (before.smart_counters.empty()) return std::nullopt;
  SmartCounterReview r;
  for (const auto& b : before.smart_counters) {
    const CounterRule* rule = rule_for(b.key);
    const SmartCounter* a = find(after.smart_counters, b.key);
    if (!rule || !a) continue;
    ++r.compared;
    if (a->raw <= b.raw) continue;  // a counter that went down was reset, which is not growth
    SmartCounterFinding f{b.key, a->name, b.raw, a->raw, rule->fails,
                          fmt::format("{} grew from {} to {} during the run: {}", a->name, b.raw, a->raw, rule->meaning)};
    (f.fails ? r.problems : r.inconclusive).push_back(f.words);
    r.findings.push_back(std::move(f));
  }
  return r;
}

}  // namespace diskvet::devices
