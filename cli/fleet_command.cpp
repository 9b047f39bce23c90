// `diskvet fleet DIR|FILES... [--html OUT] [--csv OUT] [--outlier-pct P]`: many reports, one row per
// drive, grouped by model, firmware and capacity, outliers against the group median.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "cli/commands.hpp"
#include "cli/drive_report.hpp"
#include "runner/compare/fleet.hpp"
#include "runner/report/report_file.hpp"

namespace diskvet::cli {

namespace {

struct FleetCommandOptions {
  std::vector<std::string> inputs;
  std::string html, csv;
  double outlier_pct = 10;
};

int run_fleet(const FleetCommandOptions& o) {
  namespace fs = std::filesystem;
  std::vector<runner::ReportIndex> reports;
  for (const auto& in : o.inputs) {
    std::error_code ec;
    if (fs::is_directory(in, ec)) {
      // A directory (a stick's reports, a controller's per-host folders): every .json report below
      // it; other JSON files there are passed over and named.
      std::vector<std::string> files;
      for (auto it = fs::recursive_directory_iterator(in, fs::directory_options::skip_permission_denied, ec); !ec && it != fs::recursive_directory_iterator();
           it.increment(ec))
        if (it->is_regular_file() && it->path().extension() == ".json") files.push_back(it->path().string());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) {
        auto r = load_drive_report(f, "fleet lists drives");
        if (!r) {
          std::fprintf(stderr, "diskvet: skipped %s: %s\n", f.c_str(), r.error().message().c_str());
          continue;
        }
        reports.push_back(std::move(r->index));
      }
      continue;
    }
    auto r = load_drive_report(in, "fleet lists drives");
    if (!r) return fail(r.error());
    reports.push_back(std::move(r->index));
  }
  if (reports.empty()) {
    std::fprintf(stderr, "diskvet: no diskvet report found in %s (see 'diskvet fleet --help')\n", o.inputs.front().c_str());
    return 2;
  }
  const runner::Fleet f = runner::build_fleet(reports, {.outlier_pct = o.outlier_pct});
  std::fputs(runner::fleet_text(f).c_str(), stdout);
  struct Output {
    const char* kind;
    const std::string& path;
    std::string (*render)(const runner::Fleet&);
  };
  for (const Output& out : {Output{"html", o.html, &runner::fleet_html}, Output{"csv", o.csv, &runner::fleet_csv}}) {
    if (out.path.empty()) continue;
    auto written = runner::write_file_atomic(out.path, out.render(f));
    if (!written) return fail(written.error());
    std::printf("%s: %s\n", out.kind, out.path.c_str());
  }
  // FAIL and ERROR gate; a drive no profile judged (NOT-JUDGED) is listed, not a failure.
  for (const auto& r : f.rows)
    if (r.device.verdict == "FAIL" || r.device.verdict == "ERROR" || !r.outliers.empty()) return 1;
  return 0;
}

}  // namespace

Action register_fleet(CLI::App& app) {
  auto o = std::make_shared<FleetCommandOptions>();
  CLI::App* cmd = app.add_subcommand("fleet", "Many reports in one view: every drive a row, outliers among identical drives, CSV for purchasing");
  cmd->add_option("INPUTS", o->inputs, "Report files, or directories searched for *.json reports")->required();
  cmd->add_option("--html", o->html, "Write the fleet as one self-contained HTML page");
  cmd->add_option("--csv", o->csv, "Write one CSV line per drive (IOPS, bytes/s, ns)");
  cmd->add_option("--outlier-pct", o->outlier_pct, "A drive is an outlier this far below its group's median IOPS or above its median p99")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1000.0));
  cmd->footer(
      "Groups hold identical drives: same model, firmware and capacity. Max-IOPS is compared at the largest queue depth every drive of\n"
      "the group ran in its sweep, not at each drive's own knee.\n"
      "Exit codes: 0 no drive FAILs or is an outlier; 1 a drive FAILs (or ERROR) or is an outlier; 2 usage, or no report found.");
  return [o] { return run_fleet(*o); };
}

}  // namespace diskvet::cli
