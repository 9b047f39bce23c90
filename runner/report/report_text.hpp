// The text summary of a report: per device and test the measured numbers, the PASS/FAIL table with
// margins, the findings (probe, preconditioning, outliers, runner-bound), and the overall verdict.
// Renders the report JSON, so `diskvet run` and `diskvet report FILE` print the same thing.
#pragma once

#include <boost/json.hpp>

#include <string>

namespace diskvet::runner {

std::string render_report_text(const boost::json::object& report);

}  // namespace diskvet::runner
