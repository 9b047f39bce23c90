// Reports read back (`diskvet report FILE [--html OUT]`): any file either fails to load with an input
// error or renders as text and as HTML (a multi-host one too), compares and joins a fleet, without a crash, whatever its fields hold.
#include <cstdint>

#include "runner/compare/compare.hpp"
#include "runner/compare/fleet.hpp"
#include "runner/hosts/hosts_report_render.hpp"
#include "runner/report/report_file.hpp"
#include "runner/report/report_html.hpp"
#include "runner/report/report_text.hpp"
#include "tests/fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace diskvet;
  auto report = runner::parse_report(fuzz::as_text(data, size), "fuzz-report.json");
  if (!report) {
    FUZZ_CHECK(report.error().kind == ErrorKind::input);
    return 0;
  }
  FUZZ_CHECK(!runner::render_report_text(report->doc).empty());
  FUZZ_CHECK(!runner::render_report_html(report->doc, report->seal_ok).empty());
  // A multi-host report (or anything that says it is one) renders through the same decoded view.
  const runner::ReportView view = runner::decode_report(report->doc);
  if (view.multi_host) FUZZ_CHECK(!runner::render_hosts_text(view).empty() && !runner::render_hosts_html(view, report->seal_ok).empty());
  // compare and fleet read the same document through their own index.
  const auto index = runner::index_report(report->doc, "fuzz-report.json");
  const auto c = runner::compare_reports(index, index, runner::CompareOptions{.max_regression_pct = 0});
  FUZZ_CHECK(!runner::compare_html({c}, {}).empty());
  const auto f = runner::build_fleet({index, index}, {});
  FUZZ_CHECK(!runner::fleet_csv(f).empty() && !runner::fleet_html(f).empty());
  return 0;
}
