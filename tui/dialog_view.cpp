// Dialogs drawn over the current screen: help, quit (asks when a run is going), abort.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "tui/format.hpp"
#include "tui/view.hpp"

namespace diskvet::tui {

namespace {

void dialog(Canvas& c, const std::string& title, const std::vector<std::string>& lines, Style style) {
  int w = 0;
  for (const auto& l : lines) w = std::max(w, static_cast<int>(l.size()));
  w = std::min(w + 4, c.width() - 2);
  const int h = std::min(static_cast<int>(lines.size()) + 2, c.height() - 2);
  const int x = (c.width() - w) / 2, y = (c.height() - h) / 2;
  c.blank(x, y, w, h);
  c.frame(x, y, w, h, title, style);
  for (int i = 0; i < h - 2; ++i) c.text(x + 2, y + 1 + i, fit(lines[static_cast<size_t>(i)], static_cast<size_t>(w - 4)));
}

}  // namespace

void render_dialog(const Model& m, Canvas& c) {
  switch (m.dialog) {
    case Dialog::none: return;
    case Dialog::help:
      dialog(c, "help",
             {"diskvet tests disks: pick devices, a suite, confirm, watch, read the verdict.",
              "",
              "Devices   up/down (j/k) move, space selects, a selects every free device,",
              "          enter shows details, n goes on to the suite, r refreshes the list.",
              "          PROTECTED devices (mounted, in use, system, signatures...) can",
              "          never be chosen for a write test; the box below says why.",
              "Suite     up/down picks the suite, p cycles the profile, e types a cloud",
              "          family's parameters (iops=6000,mbps=250), enter confirms.",
              "Confirm   type the last characters of each serial (YES when it has none);",
              "          tab moves between devices; enter starts only when all match.",
              "Run       a aborts (asks; the partial report is still written).",
              "Results   up/down picks a device, enter shows its percentiles and IOPS plot,",
              "          n starts over. The report's path is on the second line.",
              "",
              "q quits (asks while a run is going)    any key closes this help"},
             Style::normal);
      return;
    case Dialog::quit:
      dialog(c, "quit?",
             m.running ? std::vector<std::string>{"A run is going. Abort it, write the partial report and quit?", "", "y: abort and quit    n: keep running"}
                       : std::vector<std::string>{"Quit diskvet?", "", "y: quit    n: stay"},
             Style::warn);
      return;
    case Dialog::abort:
      dialog(c, "abort the run?", {"Stop the run now? The partial report is written and says so.", "", "y: abort    n: keep running"}, Style::warn);
      return;
  }
}

}  // namespace diskvet::tui
