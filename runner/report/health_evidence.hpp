// Health evidence in words, as the text report and the HTML card both print it: one (label, line)
// per finding, read from a decoded device (report_view.hpp); nothing for a section not recorded.
#pragma once

#include <boost/json.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runner/report/report_view.hpp"

namespace diskvet::runner {

using EvidenceLines = std::vector<std::pair<std::string, std::string>>;

// `health.error_log` (NVMe): each problem ("error log") and note ("error log (not a failure)").
EvidenceLines error_log_lines(const std::optional<ErrorLogView>& review);
// `health.smart_counters`: each counter that grew ("SMART counter", or "SMART counter
// (INCONCLUSIVE)" for a link fault), else how many were compared across `when`; nothing without
// counters.
EvidenceLines smart_counter_lines(const std::optional<SmartCountersView>& review, std::string_view when = "the run");
// `health.sata_sas_logs`: each problem ("SATA/SAS log") and note ("SATA/SAS log (not a failure)"),
// else one line saying which logs were read and that `when` added nothing to them.
EvidenceLines smart_log_lines(const std::optional<SataSasLogsView>& review, std::string_view when = "the run");
// `health.across_self_test`: the three above for what the drive recorded during the self-test after
// the run, each label ending in ", self-test after the run"; nothing when there was none.
EvidenceLines across_self_test_lines(const std::optional<AcrossSelfTestView>& across);
// `health.write_amplification`: its words ("write amplification"); nothing for a drive without NVMe
// Data Units Written.
EvidenceLines write_amplification_lines(const std::optional<WriteAmplificationView>& wa);
// A device's `self_test`: "self-test before (short)": "PASSED: the drive's words", for each that ran.
EvidenceLines self_test_lines(const SelfTestView& self_test);

// A device's `precondition` as far as the report holds it: "2.00 of 2.00 capacities written (2GiB) in
// 3s", "written (1B) in 1s" (no capacities recorded); the time in `duration`'s words.
std::string precondition_words(const PreconditionView& pre, std::string (*duration)(double seconds));

// What each health evidence line checks and where its figures come from (the specifications' log
// pages and commands), one (label, explanation) per kind of line: the report page's key to them.
EvidenceLines health_evidence_sources();

}  // namespace diskvet::runner
