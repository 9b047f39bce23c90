// A saved report read for the commands that read reports back (see drive_report.hpp).
#include "cli/drive_report.hpp"

#include <cstdio>

#include "runner/report/report_schema.hpp"
#include "runner/report/report_file.hpp"

namespace diskvet::cli {

namespace {

DriveReport indexed(const std::string& path, const runner::LoadedReport& r) {
  const runner::ReportView view = runner::decode_report(r.doc);
  warn_unread_report(path, view.problems);
  return DriveReport{runner::index_report(view, path), r.seal_ok};
}

}  // namespace

Result<DriveReport> load_drive_report(const std::string& path, std::string_view why_drives) {
  auto r = runner::load_report(path);
  if (!r) return r.error();
  if (runner::is_multi_host_report(r->doc))
    return input_error(path, "is a multi-host report ('diskvet run --hosts'): its results are per host and merged, not per drive, and " + std::string(why_drives),
                       "read it with 'diskvet report " + path + "', or compare two multi-host reports with 'diskvet compare'");
  return indexed(path, *r);
}

Result<DriveReport> load_compared_report(const std::string& path) {
  auto r = runner::load_report(path);
  if (!r) return r.error();
  return indexed(path, *r);
}

void warn_unread_report(const std::string& file, const std::vector<runner::ReportProblem>& problems) {
  if (problems.empty()) return;
  constexpr size_t kShown = 5;
  std::fprintf(stderr, "diskvet: %s: WARNING: %zu part(s) of the report could not be read as its schema says; they show as not recorded:\n", file.c_str(),
               problems.size());
  for (size_t i = 0; i < problems.size() && i < kShown; ++i) std::fprintf(stderr, "  %s\n", runner::describe(problems[i]).c_str());
  if (problems.size() > kShown) std::fprintf(stderr, "  and %zu more\n", problems.size() - kShown);
}

}  // namespace diskvet::cli
