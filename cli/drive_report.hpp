// A saved report read for the commands that compare reports (`compare`, `fleet`): loaded, its seal
// checked, and indexed. `fleet` lists drives and refuses a multi-host report, which holds results
// per host and merged, not per drive; `compare` reads both kinds (and refuses to mix them).
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

// `why_drives` ends the refusal of a multi-host report: "fleet lists drives".
Result<DriveReport> load_drive_report(const std::string& path, std::string_view why_drives);

// A per-drive report or a multi-host one (index.hosts tells which).
Result<DriveReport> load_compared_report(const std::string& path);

}  // namespace diskvet::cli
