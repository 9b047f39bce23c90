// `diskvet compare A.json B.json [...] [--html OUT] [--max-regression-pct P] [--metric NAME...]`:
// each later report against the first, per device and workload (multi-host reports: per test
// workload, merged and per host); exit 1 on a regression, 4 when nothing could be compared (no drive
// matched, no workload in common, or no gated metric in common).
#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/drive_report.hpp"
#include "runner/compare/compare.hpp"
#include "runner/report/report_file.hpp"

namespace diskvet::cli {

namespace {

struct CompareCommandOptions {
  std::vector<std::string> files;
  std::string html;
  std::optional<double> max_regression_pct;
  std::vector<std::string> metrics;
};

int run_compare(const CompareCommandOptions& o) {
  runner::CompareOptions options;
  options.max_regression_pct = o.max_regression_pct;
  if (!o.metrics.empty()) options.metrics = o.metrics;
  std::vector<runner::ReportIndex> reports;
  for (const auto& f : o.files) {
    auto r = load_compared_report(f);
    if (!r) return fail(r.error());
    if (!r->seal_ok) std::fprintf(stderr, "diskvet: %s: WARNING: the sha256 seal does not match its content: the report was altered after it was written\n", f.c_str());
    // Drives against hosts compares nothing: a per-drive report has no merged array or host to match.
    if (!reports.empty() && r->index.hosts != reports.front().hosts) {
      const std::string& multi = r->index.hosts ? f : o.files.front();
      const std::string& drives = r->index.hosts ? o.files.front() : f;
      return fail(input_error(multi,
                              "is a multi-host report ('diskvet run --hosts') and " + drives +
                                  " a per-drive report: compare matches drives with drives, or a multi-host run's tests and hosts with another's",
                              "compare multi-host reports with multi-host reports, per-drive reports with per-drive reports"));
    }
    reports.push_back(std::move(r->index));
  }
  std::vector<runner::Comparison> cs;
  for (size_t i = 1; i < reports.size(); ++i) cs.push_back(runner::compare_reports(reports[0], reports[i], options));
  std::fputs(runner::compare_text(cs, options).c_str(), stdout);
  if (!o.html.empty()) {
    auto written = runner::write_file_atomic(o.html, runner::compare_html(cs, options));
    if (!written) return fail(written.error());
    std::printf("html: %s\n", o.html.c_str());
  }
  for (const auto& c : cs)
    if (!c.regressions.empty()) return 1;
  for (const auto& c : cs)
    if (!c.not_compared.empty()) return 4;
  return 0;
}

}  // namespace

Action register_compare(CLI::App& app) {
  auto o = std::make_shared<CompareCommandOptions>();
  CLI::App* cmd = app.add_subcommand("compare", "Compare saved reports: each later one against the first (before/after maintenance, host A vs host B)");
  cmd->add_option("REPORTS", o->files, "Reports written by 'diskvet run': the baseline first")->required()->expected(2, 64);
  cmd->add_option("--html", o->html, "Also write the comparison as one self-contained HTML page");
  cmd->add_option("--max-regression-pct", o->max_regression_pct, "Exit 1 when a chosen metric is worse than the baseline by more than this percentage")
      ->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--metric", o->metrics, "Metrics that gate (default: iops bw lat_mean lat_p99; also lat_p50 lat_p9999)")
      ->check(CLI::IsMember({"iops", "bw", "lat_mean", "lat_p50", "lat_p99", "lat_p9999"}));
  cmd->footer(
      "Devices are matched by serial (the same drive over time), else by position among drives of the same model (two hosts built alike).\n"
      "Multi-host reports ('diskvet run --hosts') compare with multi-host reports only: per test workload the merged array's numbers and\n"
      "each host's, hosts matched by name (a host in one report only is listed as unmatched; one that was ok and is not is a regression).\n"
      "A change is 'beyond noise' when it is larger than the interval-to-interval spread either run measured.\n"
      "Exit codes: 0 no regression; 1 a chosen metric regressed beyond --max-regression-pct, or a device's or a test's verdict that was PASS is no longer;\n"
      "2 usage, a file that is not a diskvet report this version reads, or a multi-host report with a per-drive one;\n"
      "4 nothing compared (no drive matched, no workload in common, or no metric --max-regression-pct gates measured in both).");
  return [o] { return run_compare(*o); };
}

}  // namespace diskvet::cli
