// The results screen: the overall verdict, where the report was saved, per device and test the
// verdict, and for the device under the cursor every metric measured against its limit.
#include <fmt/format.h>

#include <algorithm>

#include "runner/report/human_format.hpp"
#include "tui/format.hpp"
#include "tui/view.hpp"

namespace diskvet::tui {

namespace {

// Numbers as the report prints them (runner/report/human_format): units, no exponents, margins in words.
std::string limit_text(const runner::MetricVerdict& v) {
  if (!v.limit) return "no limit";
  return fmt::format("{} {}", v.limit->bound == runner::Limit::Bound::min ? ">=" : "<=", runner::human::metric_value(v.metric, v.limit->value));
}

std::string margin_text(const runner::MetricVerdict& v) {
  if (!v.limit || !v.measured) return "";
  return runner::human::margin(runner::to_string(v.limit->bound), v.limit->value, *v.measured);
}

}  // namespace

void render_results(const Model& m, Canvas& c, Area a) {
  if (!m.results) return;
  const Results& r = *m.results;
  const size_t inner = static_cast<size_t>(a.width - 2);
  int y = a.top;
  int x = c.text(1, y, "VERDICT: ");
  x = c.text(x, y, std::string(runner::to_string(r.overall)), verdict_style(r.overall));
  c.text(x + 2, y, fit(fmt::format("exit code {}{}", r.exit_code, r.aborted ? "  (aborted: partial report)" : ""),
                       static_cast<size_t>(std::max(a.width - x - 4, 1))),
         r.aborted ? Style::warn : Style::dim);
  ++y;
  if (!r.report_error.empty()) c.text(1, y++, fit("Report NOT saved: " + r.report_error, inner), Style::bad);
  else c.text(1, y++, fit("Report saved: " + r.report_path, inner));
  if (r.aborted && !r.abort_reason.empty()) c.text(1, y++, fit("Aborted: " + r.abort_reason, inner), Style::warn);
  ++y;
  for (size_t i = 0; i < r.devices.size() && y < a.bottom; ++i) {
    const ResultDevice& d = r.devices[i];
    const bool at = i == m.result_cursor;
    x = c.text(1, y, fit((at ? "> " : "  ") + d.path, 20, true), at ? Style::selected : Style::normal);
    x = c.text(x + 1, y, std::string(runner::to_string(d.status)), verdict_style(d.status));
    if (!d.reasons.empty()) c.text(x + 2, y, fit(d.reasons.front(), static_cast<size_t>(std::max(a.width - x - 4, 1))), Style::dim);
    ++y;
    for (const auto& t : d.tests) {
      if (y >= a.bottom) break;
      x = c.text(5, y, fit(t.id, 20, true));
      x = c.text(x + 1, y, fit(std::string(runner::to_string(t.status)), 13, true), verdict_style(t.status));
      c.text(x + 1, y, fit(t.reason, static_cast<size_t>(std::max(a.width - x - 3, 1))), Style::dim);
      ++y;
      if (!at) continue;
      for (const auto& v : t.verdicts) {
        if (y >= a.bottom) break;
        const std::string measured = v.measured ? runner::human::metric_value(v.metric, *v.measured) : "-";
        // "read.iops           52.0k IOPS vs >= 1.00M IOPS  FAIL 95% short": measured against the
        // limit, the verdict, then the margin in words where the screen has room.
        x = c.text(7, y, fit(fmt::format("{:<18} {:>11} vs {:<14}", fit(v.metric, 18), measured, limit_text(v)), static_cast<size_t>(std::max(a.width - 7 - 15, 1))),
                   Style::dim);
        x = c.text(x + 1, y, fit(std::string(runner::to_string(v.status)), 13, false), verdict_style(v.status));
        if (x + 2 < a.width - 1) c.text(x + 1, y, fit(margin_text(v), static_cast<size_t>(a.width - 2 - x)), Style::dim);
        ++y;
      }
    }
  }
}

}  // namespace diskvet::tui
