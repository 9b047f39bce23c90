// Health evidence lines shared by the text report and the HTML card.
#include "runner/report/health_evidence.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>
#include <string>
#include <vector>

#include "runner/report/report_json_access.hpp"

namespace diskvet::runner {

using namespace rj;

EvidenceLines error_log_lines(const boost::json::value& review) {
  EvidenceLines out;
  for (const char* kind : {"problems", "notes"})
    for (const auto& p : arr(review, kind))
      if (p.is_string()) out.emplace_back(std::string_view(kind) == "notes" ? "error log (not a failure)" : "error log", std::string(p.get_string()));
  return out;
}

EvidenceLines smart_counter_lines(const boost::json::value& review, std::string_view when) {
  EvidenceLines out;
  for (const auto& f : arr(review, "findings"))
    out.emplace_back(flag(f, "fails") ? "SMART counter" : "SMART counter (INCONCLUSIVE)", str(f, "words"));
  if (out.empty() && bytes(review, "compared"))
    out.emplace_back("SMART counters", fmt::format("{} compared before and after {}, none grew", bytes(review, "compared"), when));
  return out;
}

EvidenceLines smart_log_lines(const boost::json::value& review, std::string_view when) {
  EvidenceLines out;
  for (const auto& p : arr(review, "problems"))
    if (p.is_string()) out.emplace_back("SATA/SAS log", std::string(p.get_string()));
  for (const auto& n : arr(review, "notes"))
    if (n.is_string()) out.emplace_back("SATA/SAS log (not a failure)", std::string(n.get_string()));
  if (!out.empty() || !arr(review, "findings").empty()) return out;
  std::vector<std::string> read;
  if (!str(review, "error_log").empty())
    read.push_back(fmt::format("ATA {} error log: no new errors ({} in the drive's life)", str(review, "error_log"), bytes(review, "errors_after")));
  if (is_num(review, "new_self_tests"))
    read.push_back(fmt::format("{} self-test log: no new entries", str(review, "self_test_log").empty() ? "ATA" : str(review, "self_test_log")));
  if (flag(review, "scsi_counters")) read.emplace_back("SCSI error counter log: no errors corrected or uncorrected");
  if (!read.empty()) out.emplace_back("SATA/SAS logs", fmt::format("{} during {}", fmt::join(read, "; "), when));
  return out;
}

EvidenceLines across_self_test_lines(const boost::json::value& across) {
  constexpr std::string_view kWhen = "the self-test after the run";
  EvidenceLines out;
  for (const EvidenceLines& part : {error_log_lines(obj(across, "error_log")), smart_counter_lines(obj(across, "smart_counters"), kWhen),
                                    smart_log_lines(obj(across, "sata_sas_logs"), kWhen)})
    for (const auto& [label, line] : part) out.emplace_back(label + ", self-test after the run", line);
  return out;
}

EvidenceLines write_amplification_lines(const boost::json::value& wa) {
  EvidenceLines out;
  if (!str(wa, "words").empty()) out.emplace_back("write amplification", str(wa, "words"));
  return out;
}

EvidenceLines self_test_lines(const boost::json::value& self_test) {
  EvidenceLines out;
  for (const char* when : {"before", "after"}) {
    const boost::json::value& st = obj(self_test, when);
    if (str(st, "result").empty()) continue;  // not asked for
    std::string result = str(st, "result");
    for (auto& c : result) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (result == "NOT-SUPPORTED") result = "NOT SUPPORTED (not counted as passed)";
    out.emplace_back(fmt::format("self-test {} ({})", when, str(st, "type")), fmt::format("{}: {}", result, str(st, "words")));
  }
  return out;
}

}  // namespace diskvet::runner
