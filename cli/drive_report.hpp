// A saved report read for the commands that compare drives (`compare`, `fleet`): loaded, its seal
// checked, and refused when it is a multi-host report, which holds results per host and merged, not
// per drive.
#pragma once

#include <string>
#include <string_view>

#include "common/error.hpp"
#include "runner/compare/report_index.hpp"

namespace diskvet::cli {

struct DriveReport {
  runner::ReportIndex index;
  bool seal_ok = true;  // false: the sha256 seal does not match (altered after it was written)
};

// `why_drives` ends the refusal of a multi-host report: "compare matches drives".
Result<DriveReport> load_drive_report(const std::string& path, std::string_view why_drives);

}  // namespace diskvet::cli
