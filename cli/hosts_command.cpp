// `diskvet run --suite S --hosts FILE`: a suite across many hosts on fio's client/server engine
// (runner/hosts/). Progress per host on stderr; the report (every host's fio JSON and the merged
// numbers) sealed and written atomically.
#include "cli/hosts_command.hpp"

#include <fmt/format.h>

#include <sys/ioctl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "common/units.hpp"
#include "runner/hosts/hosts_run.hpp"
#include "runner/plan/build_plan.hpp"
#include "runner/io/workload.hpp"
#include "runner/report/report_file.hpp"
#include "runner/run/suite_run.hpp"

namespace diskvet::cli {

namespace {

// Host events as lines, and the live progress: on a terminal a block redrawn in place (a line per
// host), else (logs, pipes) a plain line every 10 s and one when each fio run ends.
class HostsProgressPrinter {
 public:
  explicit HostsProgressPrinter(bool live) : live_(live), pacer_(10) {}
  ~HostsProgressPrinter() { clear(); }
  HostsProgressPrinter(const HostsProgressPrinter&) = delete;
  HostsProgressPrinter& operator=(const HostsProgressPrinter&) = delete;

  void on_host(const std::string& host, const std::string& what) {
    clear();
    std::fprintf(stderr, "%s%s\n", host.empty() ? "" : ("[" + host + "] ").c_str(), what.c_str());
  }

  void on_progress(const runner::HostsProgress& p) {
    const double now = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (!live_) {
      if (pacer_.due(now, p.finished)) std::fprintf(stderr, "progress: %s\n", runner::render_progress_line(p).c_str());
      return;
    }
    if (p.finished) {
      // The finished run stays on the screen as one line.
      clear();
      std::fprintf(stderr, "progress: %s\n", runner::render_progress_line(p, width()).c_str());
      return;
    }
    if (shown_ && now - drawn_at_ < 0.5) return;
    clear();
    auto lines = runner::render_progress_block(p, 12, width());
    for (const auto& l : lines) std::fprintf(stderr, "%s\n", l.c_str());
    std::fflush(stderr);
    shown_ = lines.size();
    drawn_at_ = now;
  }

 private:
  // Lines longer than the terminal would wrap, and the redraw would miss them.
  static size_t width() {
    winsize ws{};
    return ::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 ? ws.ws_col - 1 : 0;
  }
  void clear() {
    if (!shown_) return;
    std::fprintf(stderr, "\033[%zuA\r\033[J", shown_);
    shown_ = 0;
  }
  bool live_;
  runner::ProgressPacer pacer_;
  size_t shown_ = 0;
  double drawn_at_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace

int run_hosts_command(const HostsCliOptions& o) {
  auto inv = runner::load_inventory(o.hosts_file);
  if (!inv) return fail(inv.error());
  auto suite = runner::resolve_run_suite(o.suite);
  if (!suite) return fail(suite.error());
  for (const auto& t : suite->tests)
    for (const auto& w : t.workloads)
      if (w.verify)
        return fail(usage_error("--suite " + suite->name, "verifies data, which fio's engine cannot do across hosts", "run burn-in suites on each host with diskvet run"));
  runner::HostsOptions fo;
  fo.inventory = std::move(*inv);
  fo.suite = std::move(*suite);
  fo.destroy = o.destroy;
  // An array is judged against a profile named for it; auto matches one disk's model, not an array.
  if (o.profile != "none" && o.profile != "auto") {
    auto p = suites::resolve_profile(o.profile);
    if (!p) return fail(p.error());
    fo.profile = std::move(*p);
  }
  if (!o.host_profile.empty()) {
    auto p = suites::resolve_profile(o.host_profile);
    if (!p) return fail(p.error());
    fo.host_profile = std::move(*p);
  }
  if (!o.duration.empty()) {
    auto s = runner::parse_duration_option(o.duration, "--duration", 0.1);
    if (!s) return fail(s.error());
    fo.duration_s = *s;
  }
  if (!o.connect_timeout.empty()) {
    auto s = parse_duration_s(o.connect_timeout);
    if (!s || *s < 1 || *s > 3600)
      return fail(usage_error("--connect-timeout", fmt::format("'{}' is not a duration from 1 s to 1 h", o.connect_timeout), "e.g. 20s, 2m"));
    fo.connect_timeout_s = static_cast<int>(*s);
  }
  if (!o.engine.empty()) {
    auto e = runner::parse_backend(o.engine);
    if (!e) return fail(usage_error("--fio-engine", fmt::format("'{}' is not io_uring, psync or null", o.engine)));
    fo.engine = *e;
  }
  const std::string out = o.out.empty() ? runner::default_report_name("hosts-report", fo.suite.name) : o.out;
  // Claimed before any host is reached: an --out that cannot be written is refused now (exit 2).
  auto report_out = runner::claim_output(out, "--out");
  if (!report_out) return fail(report_out.error());
  install_signal_handlers();
  runner::HostsEvents events;
  std::optional<HostsProgressPrinter> printer;
  if (!o.quiet) {
    printer.emplace(isatty(STDERR_FILENO) != 0);
    events.on_host = [&](const std::string& host, const std::string& what) { printer->on_host(host, what); };
    events.on_progress = [&](const runner::HostsProgress& p) { printer->on_progress(p); };
  }
  runner::HostsRunResult r = runner::run_hosts(fo, events, interrupt_flag());
  printer.reset();
  if (const auto* e = r.report.if_contains("error"); e && e->is_string()) std::fprintf(stderr, "diskvet: %s\n", e->get_string().c_str());
  auto written = report_out->commit(runner::seal_report(r.report));
  if (!written) {
    fail(written.error());
    return r.exit_code == 0 ? 3 : r.exit_code;
  }
  const auto* status = r.report.if_contains("status");
  const auto* verdict = r.report.if_contains("verdict");
  std::printf("%s%s\nreport: %s\n", status && status->is_string() ? status->get_string().c_str() : "",
              verdict && verdict->is_string() ? (" " + std::string(verdict->get_string())).c_str() : "", out.c_str());
  return r.exit_code;
}

}  // namespace diskvet::cli
