// Health evidence lines shared by the text report and the HTML card.
#include "runner/report/health_evidence.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>
#include <string>
#include <vector>

#include "common/units.hpp"
#include "runner/report/human_format.hpp"

namespace diskvet::runner {

EvidenceLines error_log_lines(const std::optional<ErrorLogView>& review) {
  EvidenceLines out;
  if (!review) return out;
  for (const auto& p : review->problems) out.emplace_back("error log", p);
  for (const auto& n : review->notes) out.emplace_back("error log (not a failure)", n);
  return out;
}

EvidenceLines smart_counter_lines(const std::optional<SmartCountersView>& review, std::string_view when) {
  EvidenceLines out;
  if (!review) return out;
  for (const auto& f : review->findings) out.emplace_back(f.fails ? "SMART counter" : "SMART counter (INCONCLUSIVE)", f.words);
  if (out.empty() && review->compared.value_or(0))
    out.emplace_back("SMART counters", fmt::format("{} compared before and after {}, none grew", *review->compared, when));
  return out;
}

EvidenceLines smart_log_lines(const std::optional<SataSasLogsView>& review, std::string_view when) {
  EvidenceLines out;
  if (!review) return out;
  for (const auto& p : review->problems) out.emplace_back("SATA/SAS log", p);
  for (const auto& n : review->notes) out.emplace_back("SATA/SAS log (not a failure)", n);
  if (!out.empty() || !review->findings.empty()) return out;
  std::vector<std::string> read;
  if (!review->error_log.empty())
    read.push_back(fmt::format("ATA {} error log: no new errors ({} in the drive's life)", review->error_log,
                               human::known(review->errors_after, [](uint64_t n) { return std::to_string(n); })));
  if (review->new_self_tests)
    read.push_back(fmt::format("{} self-test log: no new entries", review->self_test_log.empty() ? "ATA" : review->self_test_log));
  if (review->scsi_counters) read.emplace_back("SCSI error counter log: no errors corrected or uncorrected");
  if (!read.empty()) out.emplace_back("SATA/SAS logs", fmt::format("{} during {}", fmt::join(read, "; "), when));
  return out;
}

EvidenceLines across_self_test_lines(const std::optional<AcrossSelfTestView>& across) {
  constexpr std::string_view kWhen = "the self-test after the run";
  EvidenceLines out;
  if (!across) return out;
  for (const EvidenceLines& part : {error_log_lines(across->error_log), smart_counter_lines(across->smart_counters, kWhen),
                                    smart_log_lines(across->sata_sas_logs, kWhen)})
    for (const auto& [label, line] : part) out.emplace_back(label + ", self-test after the run", line);
  return out;
}

EvidenceLines write_amplification_lines(const std::optional<WriteAmplificationView>& wa) {
  EvidenceLines out;
  if (wa && !wa->words.empty()) out.emplace_back("write amplification", wa->words);
  return out;
}

EvidenceLines self_test_lines(const SelfTestView& self_test) {
  EvidenceLines out;
  for (const auto& [when, st] : {std::pair<const char*, const std::optional<SelfTestOutcomeView>*>{"before", &self_test.before}, {"after", &self_test.after}}) {
    if (!*st || (*st)->result.empty()) continue;  // not asked for
    std::string result = (*st)->result;
    for (auto& c : result) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (result == "NOT-SUPPORTED") result = "NOT SUPPORTED (not counted as passed)";
    out.emplace_back(fmt::format("self-test {} ({})", when, (*st)->type), fmt::format("{}: {}", result, (*st)->words));
  }
  return out;
}

EvidenceLines health_evidence_sources() {
  return {
      {"health before, after", "NVMe: the SMART / Health Information log (log page 02h, NVM Express Base Specification 2.0): critical warning, "
                               "spare, media errors, percentage used, temperatures, error log entries; SATA/SAS: smartctl's overall assessment. "
                               "New media errors during the run FAIL."},
      {"writes counted", "The drive's own count of host writes against what was sent: NVMe Data Units Written (log page 02h, thousands of "
                         "512-byte units), SATA attribute 241 (ATA/ACS SMART, in the unit smartctl's drive database names), against this host's "
                         "kernel count of sectors written (/sys/block/*/stat) and diskvet's NVMe passthrough writes. Within one counter unit "
                         "they agree; a drive that counts less or more FAILs; another writer on this host makes the run INCONCLUSIVE."},
      {"error log", "The NVMe Error Information log (log page 01h): each entry the run added, its status decoded. Media and data-integrity "
                    "errors FAIL; refusals of a probe (Invalid Field in Command and the like) are listed, not failed."},
      {"SMART counter", "ATA/ACS SMART attributes 5, 187, 188, 197 and 198 and the SAS grown defect list and uncorrected errors (SPC-4 log "
                        "pages 02h, 03h, 05h) FAIL when they grow; attribute 199, interface CRC errors, names a cable or backplane and makes the "
                        "run INCONCLUSIVE."},
      {"SATA/SAS log", "ATA/ACS: the Extended Comprehensive error log (GP log 03h), else the Summary error log (SMART log 01h), and the "
                       "SMART self-test log (06h); SAS: the self-test results log (SPC-4 log page 10h); read with smartctl --json. Entries the "
                       "run added are judged: UNC, IDNF, AMNF, a device fault and failed self-tests FAIL; ABRT and ICRC are listed."},
      {"write amplification", "The OCP Datacenter NVMe SSD Specification's SMART / Health Information Extended log (log page C0h, Physical "
                              "Media Units Written) over the host writes the drive counted: evidence, never a verdict."},
      {"self-test", "The drive's own test: NVMe Device Self-test (admin command 14h, log page 06h), ATA SMART EXECUTE OFF-LINE IMMEDIATE or "
                    "SCSI SEND DIAGNOSTIC through smartctl. Failed, aborted or timed out FAILs; not supported is stated, never passed."},
      {"..., self-test after the run", "The error logs and counters above, from the snapshot after the run to one after the self-test that "
                                       "follows it, judged the same way."},
  };
}

std::string precondition_words(const PreconditionView& pre, std::string (*duration)(double seconds)) {
  std::string s;
  if (pre.capacities_written) s += fmt::format("{:.2f} ", *pre.capacities_written);
  if (pre.capacities_written && pre.capacities_target) s += fmt::format("of {:.2f} capacities ", *pre.capacities_target);
  else if (pre.capacities_written) s += "capacities ";
  s += "written";
  if (pre.bytes_written) s += " (" + format_bytes(*pre.bytes_written) + ")";
  if (pre.elapsed_s) s += " in " + duration(*pre.elapsed_s);
  return s;
}

}  // namespace diskvet::runner
