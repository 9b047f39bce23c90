// `diskvet tui`: the terminal UI (also what a bare `diskvet` on a terminal starts).
#include <sys/stat.h>

#include <fmt/format.h>

#include <memory>

#include "cli/commands.hpp"
#include "common/units.hpp"
#include "runner/plan/build_plan.hpp"
#include "tui/options.hpp"

namespace diskvet::cli {

namespace {

struct TuiCliOptions {
  std::string report_dir = ".";
  std::string duration;
  std::string precondition_limit;
  bool ascii = false;
  bool monochrome = false;
};

// Reports are written into this directory (runner::write_file_atomic checks each file again): a
// device node, or a link to one, is refused before the UI starts.
Status check_report_dir(const std::string& dir) {
  struct stat st{};
  if (::stat(dir.c_str(), &st) != 0) return usage_error("--report-dir " + dir, "does not exist or cannot be examined", "create the directory first");
  if (!S_ISDIR(st.st_mode)) return usage_error("--report-dir " + dir, "is not a directory; reports are written into a directory", "nothing was written");
  return ok_status();
}

int run_tui_command(const TuiCliOptions& o) {
  if (auto ok = check_report_dir(o.report_dir); !ok) return fail(ok.error());
  tui::TuiOptions t;
  t.report_dir = o.report_dir;
  t.ascii = o.ascii;
  t.monochrome = o.monochrome;
  if (!o.duration.empty()) {
    auto s = runner::parse_duration_option(o.duration, "--duration", 0.1);
    if (!s) return fail(s.error());
    t.duration_s = *s;
  }
  if (!o.precondition_limit.empty()) {
    auto s = runner::parse_duration_option(o.precondition_limit, "--precondition-limit", 0);
    if (!s) return fail(s.error());
    t.precondition_limit_s = *s;
  }
  return tui::run_tui(t);
}

}  // namespace

Action register_tui(CLI::App& app) {
  auto o = std::make_shared<TuiCliOptions>();
  CLI::App* tui = app.add_subcommand("tui", "The terminal UI: pick devices, a suite, confirm, watch the run, read the verdict");
  tui->footer(
      "Keys: arrows move, space selects, a selects every free device, enter details/confirm, ? help, q quits.\n"
      "Write tests need the last characters of each device's serial typed (YES for serial-less scratch devices);\n"
      "PROTECTED devices are never offered. This is also what 'diskvet' with no arguments starts on a terminal.");
  tui->add_option("--report-dir", o->report_dir, "Where reports are saved")->capture_default_str();
  tui->add_option("--duration", o->duration, "Measurement window of every workload (as run --duration)");
  tui->add_option("--precondition-limit", o->precondition_limit, "Cap preconditioning at this time");
  tui->add_flag("--ascii", o->ascii, "ASCII line drawing (for consoles without a line set)");
  tui->add_flag("--monochrome", o->monochrome, "No colour");
  return [o] { return run_tui_command(*o); };
}

}  // namespace diskvet::cli
