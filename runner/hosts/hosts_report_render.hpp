// A multi-host report read back (`diskvet report FILE [--html OUT]`): text and one self-contained
// HTML page with a table per host and per workload (each host's numbers beside the merged ones).
// Reads the JSON only, so an older report without a field still renders.
#pragma once

#include <boost/json.hpp>

#include <string>

namespace diskvet::runner {

inline constexpr const char* kHostsReportKind = "diskvet-hosts-report";

bool is_hosts_report(const boost::json::object& doc);
std::string render_hosts_text(const boost::json::object& doc);
std::string render_hosts_html(const boost::json::object& doc, bool seal_ok);

}  // namespace diskvet::runner
