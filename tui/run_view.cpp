// The run screen: per device its phase, a progress bar with ETA, live IOPS / MB/s / p99 and mean latency,
// a sparkline of IOPS per interval; below, the log pane (newest last).
#include <fmt/format.h>

#include <algorithm>

#include "tui/format.hpp"
#include "tui/view.hpp"

namespace diskvet::tui {

void render_run(const Model& m, Canvas& c, Area a) {
  const size_t inner = static_cast<size_t>(a.width - 2);
  int y = a.top;
  c.text(1, y++, fit(fmt::format("Suite {} on {} device{}{}", m.run_suite, m.run.size(), m.run.size() == 1 ? "" : "s",
                                 m.abort_requested ? "  ABORTING: the partial report will be written" : ""),
                     inner),
         m.abort_requested ? Style::warn : Style::normal);
  const int log_min = 5;
  const int per_device = 4;
  int max_devices = std::max((a.bottom - y - log_min) / per_device, 1);
  for (size_t i = 0; i < m.run.size() && static_cast<int>(i) < max_devices; ++i) {
    const RunDeviceView& v = m.run[i];
    std::string phase = std::string(runner::to_string(v.phase)) + (v.test_id.empty() ? "" : " " + v.test_id);
    int x = c.text(1, y, fit(v.path, 14, true), Style::title);
    x = c.text(x + 1, y, fit(phase, 30, true));
    if (v.verdict) c.text(x + 1, y, std::string(runner::to_string(*v.verdict)), verdict_style(*v.verdict));
    else c.text(x + 1, y, fit(v.detail, static_cast<size_t>(std::max(a.width - x - 3, 1))), Style::dim);
    ++y;
    const size_t bar_w = std::min<size_t>(40, inner / 2);
    x = c.text(3, y, progress_bar(v.fraction, bar_w), Style::bar);
    c.text(x + 2, y, fit(eta_text(v.eta_s), static_cast<size_t>(std::max(a.width - x - 4, 1))));
    ++y;
    c.text(3, y++, fit(fmt::format("IOPS {:>8}   {:>12}   p99 {:>8}   mean {:>8}", rate_text(v.iops), mbps_text(v.mb_per_s * 1e6),
                                   latency_text(v.lat_p99_us), latency_text(v.lat_mean_us)),
                       inner - 2));
    x = c.text(3, y, "IOPS ", Style::dim);
    c.text(x, y, sparkline(v.iops_history, static_cast<size_t>(std::max(a.width - x - 2, 1))), Style::bar);
    ++y;
  }
  if (static_cast<int>(m.run.size()) > max_devices)
    c.text(1, y++, fit(fmt::format("... and {} more device(s)", m.run.size() - static_cast<size_t>(max_devices)), inner), Style::dim);
  const int log_top = y;
  const int log_h = a.bottom - log_top;
  if (log_h < 3) return;
  c.frame(0, log_top, a.width, log_h, "log");
  const int lines = log_h - 2;
  size_t first = m.log.size() > static_cast<size_t>(lines) ? m.log.size() - static_cast<size_t>(lines) : 0;
  int ly = log_top + 1;
  for (size_t i = first; i < m.log.size(); ++i, ++ly) {
    const LogLine& l = m.log[i];
    Style st = l.level == runner::LogLevel::error ? Style::bad : (l.level == runner::LogLevel::warning ? Style::warn : Style::normal);
    c.text(2, ly, fit(l.text, static_cast<size_t>(a.width - 4)), st);
  }
}

}  // namespace diskvet::tui
