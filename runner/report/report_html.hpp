// One self-contained HTML page of a report: per device a verdict card first (identity, profile and
// its source, PASS/FAIL with the failing metrics first, health before and after), then per device
// its verdict table, findings and plots (latency percentiles against nines with the limits, IOPS
// and latency over time with warmup, ramp and steady-state rounds, the max-IOPS sweep with its
// knee, burn-in health), and each workload's fio command behind a "reproduce with fio" toggle.
// No scripts, no fonts, no network; a print stylesheet puts each device on its own A4 pages.
// Renders the decoded report (report_view.hpp).
#pragma once

#include <boost/json.hpp>

#include <optional>
#include <string>

#include "runner/report/report_view.hpp"

namespace diskvet::runner {

// Decodes the report, then renders it.
std::string render_report_html(const boost::json::object& report, bool seal_ok);
std::string render_report_html(const ReportView& report, bool seal_ok);

// The verdict card of one device of a report (also used by the fleet page); the JSON one decodes it.
std::string device_card_html(const DeviceView& device);
std::string device_card_html(const boost::json::value& device);
// "healthy", "UNHEALTHY: ...", "unknown (no health source)", with the main counters.
std::string health_words(const std::optional<HealthReading>& health);

}  // namespace diskvet::runner
