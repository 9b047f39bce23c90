// The detail of one device's test: per workload the latency percentile table and a plot of IOPS
// over the measured window's intervals.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "tui/format.hpp"
#include "tui/view.hpp"

namespace diskvet::tui {

namespace {

// A bar chart `rows` high of the values resampled to `width` columns; the top row is the largest.
void plot(Canvas& c, int x, int y, int width, int rows, const std::vector<double>& values) {
  if (values.empty() || width < 1 || rows < 1) return;
  const double top = *std::max_element(values.begin(), values.end());
  for (int col = 0; col < width; ++col) {
    size_t i = static_cast<size_t>(static_cast<double>(col) * static_cast<double>(values.size()) / static_cast<double>(width));
    if (values.size() < static_cast<size_t>(width) && col >= static_cast<int>(values.size())) break;
    const double v = values[std::min(i, values.size() - 1)];
    const int h = top > 0 ? static_cast<int>(std::ceil(v / top * rows - 1e-9)) : 0;
    for (int r = 0; r < h; ++r) c.glyph(x + col, y + rows - 1 - r, Glyph::block, Style::bar);
  }
}

}  // namespace

void render_result_detail(const Model& m, Canvas& c, Area a) {
  if (!m.results || m.result_cursor >= m.results->devices.size()) return;
  const ResultDevice& d = m.results->devices[m.result_cursor];
  const size_t inner = static_cast<size_t>(a.width - 2);
  if (d.tests.empty()) {
    c.text(1, a.top, fit(d.path + ": no test ran", inner), Style::dim);
    return;
  }
  const ResultTest& t = d.tests[std::min(m.detail_cursor, d.tests.size() - 1)];
  int y = a.top;
  int x = c.text(1, y, fit(fmt::format("{}  test {} ({} of {})  ", d.path, t.id, std::min(m.detail_cursor, d.tests.size() - 1) + 1, d.tests.size()), inner));
  c.text(x, y++, std::string(runner::to_string(t.status)), verdict_style(t.status));
  std::string head = "  dir        IOPS      MB/s";
  for (double p : kDetailPercentiles) head += fmt::format(" {:>9}", fmt::format("p{:g}", p));
  head += "  (us)";
  for (const auto& w : t.workloads) {
    if (y >= a.bottom - 2) break;
    ++y;
    c.text(1, y++, fit(w.label + (w.ran ? "" : "  (did not run" + (w.error.empty() ? "" : ": " + w.error) + ")"), inner), Style::title);
    c.text(1, y++, fit(head, inner), Style::dim);
    for (const auto& dir : w.directions) {
      if (y >= a.bottom) break;
      std::string row = fmt::format("  {:<6} {:>9} {:>9.1f}", dir.name, rate_text(dir.iops), dir.mb_per_s);
      for (double v : dir.percentiles_us) row += fmt::format(" {:>9.1f}", v);
      c.text(1, y++, fit(row, inner));
    }
    const int rows = 3;
    if (!w.interval_iops.empty() && y + rows < a.bottom) {
      const double top = *std::max_element(w.interval_iops.begin(), w.interval_iops.end());
      c.text(1, y, fit(fmt::format("IOPS per interval, top {}:", rate_text(top)), 30), Style::dim);
      plot(c, 2, y + 1, static_cast<int>(inner) - 2, rows, w.interval_iops);
      y += rows + 1;
    }
  }
}

}  // namespace diskvet::tui
