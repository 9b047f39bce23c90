// `diskvet report FILE [--html OUT]`: the text summary of a saved report again, or an HTML page.
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/drive_report.hpp"
#include "runner/hosts/hosts_report_render.hpp"
#include "runner/report/report_file.hpp"
#include "runner/report/report_html.hpp"
#include "runner/report/report_text.hpp"
#include "runner/report/report_view.hpp"

namespace diskvet::cli {

namespace {

struct ReportOptions {
  std::string file;
  std::string html;
};

// The run's own exit code, as 'diskvet run' ended with it, so a script gets the same answer from the
// saved report; 2 when the seal does not match (nothing in it can be trusted).
int exit_code_of(const runner::LoadedReport& r, const runner::ReportView& view) {
  if (!r.seal_ok || !view.exit_code) return 2;
  const double code = *view.exit_code;
  if (!(code >= 0 && code <= 4) || code != std::floor(code)) return 2;
  return static_cast<int>(code);
}

int show_report(const ReportOptions& o) {
  auto r = runner::load_report(o.file);
  if (!r) return fail(r.error());
  std::optional<runner::ClaimedOutput> html_out;
  if (!o.html.empty()) {
    auto claim = runner::claim_output(o.html, "--html");
    if (!claim) return fail(claim.error());
    html_out.emplace(std::move(*claim));
  }
  if (!r->seal_ok)
    std::fprintf(stderr, "diskvet: %s: WARNING: the sha256 seal does not match its content: the report was altered after it was written\n",
                 o.file.c_str());
  const runner::ReportView view = runner::decode_report(r->doc);
  warn_unread_report(o.file, view.problems);
  const bool hosts = view.multi_host.has_value();
  if (!o.html.empty()) {
    auto written = html_out->commit(hosts ? runner::render_hosts_html(view, r->seal_ok) : runner::render_report_html(view, r->seal_ok));
    if (!written) return fail(written.error());
    std::printf("html: %s\n", o.html.c_str());
    return exit_code_of(*r, view);
  }
  std::fputs((hosts ? runner::render_hosts_text(view) : runner::render_report_text(view)).c_str(), stdout);
  return exit_code_of(*r, view);
}

}  // namespace

Action register_report(CLI::App& app) {
  auto o = std::make_shared<ReportOptions>();
  CLI::App* rep = app.add_subcommand("report", "Print a saved report again, or render it as one self-contained HTML page");
  rep->add_option("FILE", o->file, "A report written by 'diskvet run'")->required();
  rep->add_option("--html", o->html, "Write an HTML page (inline SVG plots, no network) to this file");
  rep->footer(
      "Exit codes: the run's own (0 PASS, 1 FAIL, 3 ERROR or aborted, 4 INCONCLUSIVE or NOT-JUDGED; see 'diskvet run --help');\n"
      "2 unreadable, not a diskvet report, or its sha256 seal does not match.");
  return [o] { return show_report(*o); };
}

}  // namespace diskvet::cli
