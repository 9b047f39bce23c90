// The text summary of a report: per device and test the measured numbers, the PASS/FAIL table with
// margins, the findings (probe, preconditioning, outliers, runner-bound), and the overall verdict.
// Renders the decoded report (report_view.hpp), so `diskvet run` and `diskvet report FILE` print the
// same thing.
#pragma once

#include <boost/json.hpp>

#include <string>

#include "runner/report/report_view.hpp"

namespace diskvet::runner {

// Decodes the report, then renders it.
std::string render_report_text(const boost::json::object& report);
std::string render_report_text(const ReportView& report);

}  // namespace diskvet::runner
