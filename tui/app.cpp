// The app loop: read a key, fold the run's queued events into the model, perform what the keys
// asked for (discover devices, start or abort a run), render. The only thread that touches the model.
#include <fmt/format.h>


#include "devices/discovery.hpp"
#include "suites/cloud_profile.hpp"
#include "suites/profile.hpp"
#include "suites/profile_match.hpp"
#include "tui/device_watch.hpp"
#include "tui/options.hpp"
#include "tui/run_model.hpp"
#include "tui/run_session.hpp"
#include "tui/screen.hpp"
#include "tui/suite_catalog.hpp"
#include "tui/view.hpp"

namespace diskvet::tui {

namespace {

void discover_into(Model& m) {
  auto found = devices::discover();
  if (!found) {
    m.discovery_error = found.error().message();
    set_devices(m, {});
    return;
  }
  m.discovery_error.clear();
  set_devices(m, std::move(*found));
}

std::string profile_hint(const Model& m, const std::vector<suites::Profile>& shipped) {
  std::string prof = m.profile_cursor < m.profiles.size() ? m.profiles[m.profile_cursor] : "auto";
  std::string out;
  for (const DeviceRow* r : m.selected()) {
    std::string reason;
    if (prof == "auto") {
      auto p = suites::match_profile(r->device, shipped, reason);
      out += fmt::format("{}: {}\n", r->device.path, p ? "profile " + p->name + " (" + reason + ")" : reason);
    } else if (prof == "none") {
      out += fmt::format("{}: no profile: measurement only, no limits judged\n", r->device.path);
    } else if (suites::is_cloud_family(prof)) {
      // What the family promises for this device, or why it cannot say (the parameters' error).
      auto p = suites::resolve_profile_for(m.chosen_profile(), r->device, reason);
      const std::string title = reason.substr(reason.find(": ") == std::string::npos ? 0 : reason.find(": ") + 2);
      out += fmt::format("{}: {}\n", r->device.path, p ? title : p.error().message());
    } else {
      out += fmt::format("{}: profile {} (chosen)\n", r->device.path, prof);
    }
  }
  return out;
}

Action start(Model& m, const TuiOptions& o, std::unique_ptr<RunSession>& session) {
  const SuiteChoice* choice = m.current_suite();
  if (!choice) return Action::none;
  auto suite = suites::builtin_suite(choice->name);
  if (!suite) {
    m.confirm_error = suite.error().message();
    return Action::none;
  }
  std::vector<ConfirmedDevice> devs;
  std::vector<std::string> paths;
  for (const auto& e : m.confirm) {
    if (!e.matches()) return Action::none;  // keys.cpp already refused; never start around it
    devs.push_back(ConfirmedDevice{e.path, e.serial, e.wwn, e.nsid});
    paths.push_back(e.path);
  }
  auto s = RunSession::start(*suite, devs, m.chosen_profile(), o);
  if (!s) {
    m.confirm_error = "refused: " + s.error().message();
    return Action::none;
  }
  session = std::move(*s);
  begin_run(m, suite->name, paths);
  return Action::none;
}

}  // namespace

int run_tui(const TuiOptions& o) {
  Model m;
  auto catalog = shipped_suites(o.duration_s);
  if (!catalog) {
    std::fprintf(stderr, "diskvet: %s\n", catalog.error().message().c_str());
    return catalog.error().exit_code();
  }
  m.suites = std::move(*catalog);
  std::vector<suites::Profile> shipped;
  if (auto all = suites::builtin_profiles()) shipped = std::move(*all);
  for (const auto& p : shipped)
    if (!p.template_only) m.profiles.push_back(p.name);
  for (const auto& family : suites::cloud_family_names()) m.profiles.push_back(family);  // e types its parameters
  m.profiles.push_back("none");  // measurement only: numbers, no limits judged
  DeviceWatch watch;
  discover_into(m);

  auto opened = open_curses_screen(ScreenOptions{o.ascii, o.monochrome});
  if (!opened) {
    std::fprintf(stderr, "diskvet: %s\n", opened.error().message().c_str());
    return opened.error().exit_code();
  }
  Screen& screen = **opened;
  std::unique_ptr<RunSession> session;
  int exit_code = 0;
  int ticks = 0;
  while (!m.quit) {
    if (session) {
      for (const auto& e : session->events().drain()) apply_event(m, e);
      if (session->finished()) {
        Results r = session->take_results();
        session.reset();
        finish_run(m, std::move(r));
      }
    }
    if (int sig = screen.pending_signal(); sig && !m.quit_after_run) {
      // SIGINT/SIGTERM: stop as 'q' then 'y' would, the partial report still written.
      m.quit_after_run = true;
      exit_code = session ? 3 : 128 + sig;  // an aborted run is exit 3 (DESIGN.md); idle, the shell's convention
      if (session) {
        m.abort_requested = true;
        session->abort();
      } else {
        break;
      }
    }
    // Read the list again when disks come or go, on the devices screen and never during a run.
    if (!session && m.screen == ScreenId::devices && ++ticks % 5 == 0 && watch.changed()) discover_into(m);
    if (m.screen == ScreenId::suites) m.profile_hint = profile_hint(m, shipped);
    m.width = screen.width();
    m.height = screen.height();
    Canvas canvas(m.width, m.height);
    render(m, canvas);
    screen.draw(canvas);
    if (m.quit) break;
    Key k = screen.read_key(100);
    // Too small to show a screen: only quitting (and its answer) still works.
    if ((m.width < kMinWidth || m.height < kMinHeight) && !(k.is('q') || k.is('y') || k.is('n'))) continue;
    switch (handle_key(m, k)) {
      case Action::none: break;
      case Action::refresh_devices:
        watch.changed();  // what it saw is in this reading
        discover_into(m);
        break;
      case Action::start_run: start(m, o, session); break;
      case Action::abort_run: if (session) session->abort(); break;
      case Action::quit: m.quit = true; break;
    }
  }
  session.reset();  // an abort still writes the report before the terminal is given back
  opened->reset();
  if (m.results && !m.results->report_path.empty() && m.results->report_error.empty())
    std::printf("diskvet: last report: %s (%s)\n", m.results->report_path.c_str(), std::string(runner::to_string(m.results->overall)).c_str());
  // After a run, the TUI ends as 'diskvet run' would have: the last run's exit code.
  if (exit_code == 0 && m.results) exit_code = m.results->exit_code;
  return exit_code;
}

}  // namespace diskvet::tui
