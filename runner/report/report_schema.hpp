// Versions of the report document. A report names its schema ("diskvet-report/N"); this diskvet
// writes the newest and reads every one it knows, so a report saved by an earlier release still
// renders, compares and joins a fleet. What each version added:
//   1  the first release
//   2  profile.source (where the profile's limits come from), shown on the verdict card
// A newer version than this diskvet knows is refused: its fields may mean what this one cannot tell.
#pragma once

#include <boost/json.hpp>

#include <optional>
#include <string>

namespace diskvet::runner {

inline constexpr int kReportSchemaVersion = 2;
inline constexpr int kOldestReportSchemaVersion = 1;
inline constexpr const char* kReportSchema = "diskvet-report/2";

// N of "diskvet-report/N"; nothing when the member is missing or not of that form.
// The "kind" of a multi-host report (`diskvet run --hosts`); a per-device report has none.
inline constexpr const char* kHostsReportKind = "diskvet-hosts-report";
bool is_multi_host_report(const boost::json::object& doc);

std::optional<int> report_schema_version(const boost::json::object& doc);
// For a report of an older schema: one sentence saying what it cannot show. Nothing when current.
std::optional<std::string> schema_note(const boost::json::value& doc);

}  // namespace diskvet::runner
