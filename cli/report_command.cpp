// `diskvet report FILE [--html OUT]`: the text summary of a saved report again, or an HTML page.
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
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
int exit_code_of(const runner::LoadedReport& r) {
  if (!r.seal_ok) return 2;
  const auto* code = r.doc.if_contains("exit_code");
  if (!code || !code->is_int64() || code->as_int64() < 0 || code->as_int64() > 4) return 2;
  return static_cast<int>(code->as_int64());
}

// What the report holds that this diskvet could not read as its schema says (a key missing, of the
// wrong type, or unknown: a hand-edited file, or one a newer diskvet wrote). The page and the text
// show such a part as not recorded, never as a zero; this says which parts those are.
void warn_unread(const std::string& file, const std::vector<runner::ReportProblem>& problems) {
  if (problems.empty()) return;
  constexpr size_t kShown = 5;
  std::fprintf(stderr, "diskvet: %s: WARNING: %zu part(s) of the report could not be read as its schema says; they show as not recorded:\n", file.c_str(),
               problems.size());
  for (size_t i = 0; i < problems.size() && i < kShown; ++i) std::fprintf(stderr, "  %s\n", runner::describe(problems[i]).c_str());
  if (problems.size() > kShown) std::fprintf(stderr, "  and %zu more\n", problems.size() - kShown);
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
  const bool hosts = runner::is_hosts_report(r->doc);
  std::optional<runner::ReportView> view;
  if (!hosts) {
    view = runner::decode_report(r->doc);
    warn_unread(o.file, view->problems);
  }
  if (!o.html.empty()) {
    auto written = html_out->commit(hosts ? runner::render_hosts_html(r->doc, r->seal_ok) : runner::render_report_html(*view, r->seal_ok));
    if (!written) return fail(written.error());
    std::printf("html: %s\n", o.html.c_str());
    return exit_code_of(*r);
  }
  std::fputs((hosts ? runner::render_hosts_text(r->doc) : runner::render_report_text(*view)).c_str(), stdout);
  return exit_code_of(*r);
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
