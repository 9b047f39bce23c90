// The frame around every screen: title with the step you are on, status line, key hints.
#include "tui/view.hpp"

#include <fmt/format.h>

#include "tui/format.hpp"

namespace diskvet::tui {

namespace {

const char* hints(const Model& m) {
  switch (m.screen) {
    case ScreenId::devices: return "space select  a all free  enter details  n next  r refresh  ? help  q quit";
    case ScreenId::details: return "esc back  ? help  q quit";
    case ScreenId::suites: return "up/down suite  p profile  e params  enter confirm  esc back  ? help  q quit";
    case ScreenId::confirm: return "type the characters shown  tab next device  enter start  esc back  ? help";
    case ScreenId::run: return m.abort_requested ? "stopping: writing the partial report..." : "a abort (asks)  q quit (asks)  ? help";
    case ScreenId::results: return "up/down device  enter percentiles and plot  n new run  ? help  q quit";
    case ScreenId::result_detail: return "up/down test  esc back  ? help  q quit";
  }
  return "";
}

const char* step_name(ScreenId s) {
  switch (s) {
    case ScreenId::devices: return "Devices";
    case ScreenId::details: return "Device details";
    case ScreenId::suites: return "Suite and profile";
    case ScreenId::confirm: return "Confirm what will be destroyed";
    case ScreenId::run: return "Run";
    case ScreenId::results: return "Results";
    case ScreenId::result_detail: return "Result detail";
  }
  return "";
}

}  // namespace

Style verdict_style(runner::VerdictStatus s) {
  switch (s) {
    case runner::VerdictStatus::pass: return Style::good;
    case runner::VerdictStatus::fail: return Style::bad;
    case runner::VerdictStatus::inconclusive:
    case runner::VerdictStatus::not_evaluated:
    case runner::VerdictStatus::not_judged: return Style::warn;
    case runner::VerdictStatus::error: return Style::bad;
  }
  return Style::normal;
}

void render(const Model& m, Canvas& c) {
  const int w = c.width(), h = c.height();
  if (w < kMinWidth || h < kMinHeight) {
    c.text(0, 0, fit(fmt::format("diskvet: the terminal is {}x{}; make it at least {}x{}", w, h, kMinWidth, kMinHeight), static_cast<size_t>(w)));
    c.text(0, 1, fit("q quits", static_cast<size_t>(w)));
    return;
  }
  c.fill(0, 0, w, Style::title);
  c.text(1, 0, fmt::format("diskvet | {}", step_name(m.screen)), Style::title);
  if (m.running) {
    std::string r = m.screen == ScreenId::run ? "" : "[run going]";
    c.text(w - 1 - static_cast<int>(r.size()), 0, r, Style::title);
  }
  Area a{0, 1, w, h - 2};
  switch (m.screen) {
    case ScreenId::devices: render_devices(m, c, a); break;
    case ScreenId::details: render_details(m, c, a); break;
    case ScreenId::suites: render_suites(m, c, a); break;
    case ScreenId::confirm: render_confirm(m, c, a); break;
    case ScreenId::run: render_run(m, c, a); break;
    case ScreenId::results: render_results(m, c, a); break;
    case ScreenId::result_detail: render_result_detail(m, c, a); break;
  }
  if (!m.status.empty()) c.text(1, h - 2, fit(m.status, static_cast<size_t>(w - 2)), Style::warn);
  c.fill(0, h - 1, w, Style::key);
  c.text(1, h - 1, fit(hints(m), static_cast<size_t>(w - 2)), Style::key);
  render_dialog(m, c);
}

}  // namespace diskvet::tui
