// A saved report read for the commands that read reports back (`report`, `compare`, `fleet`): loaded,
// its seal checked, decoded (what could not be read is named on stderr) and indexed. `fleet` lists drives and refuses a multi-host report, which holds results
// per host and merged, not per drive; `compare` reads both kinds (and refuses to mix them).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "runner/compare/report_index.hpp"
#include "runner/report/report_view.hpp"

namespace diskvet::cli {

struct DriveReport {
  runner::ReportIndex index;
  bool seal_ok = true;  // false: the sha256 seal does not match (altered after it was written)
};

// `why_drives` ends the refusal of a multi-host report: "fleet lists drives".
Result<DriveReport> load_drive_report(const std::string& path, std::string_view why_drives);

// A per-drive report or a multi-host one (index.hosts tells which).
Result<DriveReport> load_compared_report(const std::string& path);

// What the report holds that this diskvet could not read as its schema says (a key missing, of the
// wrong type, or unknown: a hand-edited file, or one a newer diskvet wrote), on stderr: the first
// five and a count. Pages, text and comparisons show such a part as not recorded, never as a zero;
// this says which parts those are.
void warn_unread_report(const std::string& file, const std::vector<runner::ReportProblem>& problems);

}  // namespace diskvet::cli
