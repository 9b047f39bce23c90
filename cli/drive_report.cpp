// A saved report read for the commands that compare reports (see drive_report.hpp).
#include "cli/drive_report.hpp"

#include "runner/hosts/hosts_report_render.hpp"
#include "runner/report/report_file.hpp"

namespace diskvet::cli {

Result<DriveReport> load_drive_report(const std::string& path, std::string_view why_drives) {
  auto r = runner::load_report(path);
  if (!r) return r.error();
  if (runner::is_hosts_report(r->doc))
    return input_error(path, "is a multi-host report ('diskvet run --hosts'): its results are per host and merged, not per drive, and " + std::string(why_drives),
                       "read it with 'diskvet report " + path + "', or compare two multi-host reports with 'diskvet compare'");
  return DriveReport{runner::index_report(r->doc, path), r->seal_ok};
}

Result<DriveReport> load_compared_report(const std::string& path) {
  auto r = runner::load_report(path);
  if (!r) return r.error();
  if (runner::is_hosts_report(r->doc)) return DriveReport{runner::index_hosts_report(r->doc, path), r->seal_ok};
  return DriveReport{runner::index_report(r->doc, path), r->seal_ok};
}

}  // namespace diskvet::cli
