// A multi-host report read back (`diskvet report FILE [--html OUT]`): text and one self-contained
// HTML page with a table per host and per workload (each host's numbers beside the merged ones).
// Reads the decoded report (ReportView::multi_host, runner/report/report_view.hpp), so an older
// report without a field still renders, and what the decoder could not read is listed beside it.
#pragma once

#include <string>

#include "runner/report/report_schema.hpp"
#include "runner/report/report_view.hpp"

namespace diskvet::runner {

std::string render_hosts_text(const ReportView& report);
std::string render_hosts_html(const ReportView& report, bool seal_ok);

}  // namespace diskvet::runner
