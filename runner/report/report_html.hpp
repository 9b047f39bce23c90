// One self-contained HTML page of a report: verdict table and inline SVG plots (IOPS per interval,
// steady-state rounds with their window, latency percentile curve, max-iops knee curve). No scripts,
// no fonts, no network.
#pragma once

#include <boost/json.hpp>

#include <string>

namespace diskvet::runner {

std::string render_report_html(const boost::json::object& report, bool seal_ok);

}  // namespace diskvet::runner
