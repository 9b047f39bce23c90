// `diskvet report FILE [--html OUT]`: the text summary of a saved report again, or an HTML page.
#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "runner/report_file.hpp"
#include "runner/report_html.hpp"
#include "runner/report_text.hpp"

namespace diskvet::cli {

namespace {

struct ReportOptions {
  std::string file;
  std::string html;
};

int show_report(const ReportOptions& o) {
  auto r = runner::load_report(o.file);
  if (!r) return fail(r.error());
  if (!r->seal_ok)
    std::fprintf(stderr, "diskvet: %s: WARNING: the sha256 seal does not match its content: the report was altered after it was written\n",
                 o.file.c_str());
  if (!o.html.empty()) {
    auto written = runner::write_file_atomic(o.html, runner::render_report_html(r->doc, r->seal_ok));
    if (!written) return fail(written.error());
    std::printf("html: %s\n", o.html.c_str());
    return r->seal_ok ? 0 : 2;
  }
  std::fputs(runner::render_report_text(r->doc).c_str(), stdout);
  return r->seal_ok ? 0 : 2;
}

}  // namespace

Action register_report(CLI::App& app) {
  auto o = std::make_shared<ReportOptions>();
  CLI::App* rep = app.add_subcommand("report", "Print a saved report again, or render it as one self-contained HTML page");
  rep->add_option("FILE", o->file, "A report written by 'diskvet run'")->required();
  rep->add_option("--html", o->html, "Write an HTML page (inline SVG plots, no network) to this file");
  rep->footer("Exit codes: 0 shown; 2 unreadable, not a diskvet report, or its sha256 seal does not match.");
  return [o] { return show_report(*o); };
}

}  // namespace diskvet::cli
