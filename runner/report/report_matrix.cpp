// Matrix tables from a report: lookup by (mix, block size), text and HTML renderings.
#include "runner/report/report_matrix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/units.hpp"
#include "runner/report/human_format.hpp"
#include "runner/report/svg_plot.hpp"

namespace diskvet::runner {

namespace {
// A report is input: a hand-made one must not make a table of millions of cells.
constexpr size_t kMaxAxis = 64;
}  // namespace

std::string mix_label(double read_pct) { return fmt::format("{:.0f}/{:.0f}", read_pct, 100 - read_pct); }

std::string bs_label(uint64_t bs) {
  if (bs >= (1u << 20) && bs % (1u << 20) == 0) return fmt::format("{} MiB", bs >> 20);
  if (bs % 1024 == 0) return fmt::format("{} KiB", bs >> 10);
  return fmt::format("{:g} KiB", static_cast<double>(bs) / 1024);
}

MatrixTable matrix_table(const MatrixView& m) {
  MatrixTable t;
  for (double x : m.rwmixread)
    if (t.mixes.size() < kMaxAxis) t.mixes.push_back(x);
  for (double b : m.bs)
    if (b >= 1 && b <= 1e12 && t.bs_bytes.size() < kMaxAxis) t.bs_bytes.push_back(static_cast<uint64_t>(b));
  std::sort(t.bs_bytes.begin(), t.bs_bytes.end());
  t.bs_bytes.erase(std::unique(t.bs_bytes.begin(), t.bs_bytes.end()), t.bs_bytes.end());
  t.iops.assign(t.bs_bytes.size(), std::vector<std::optional<double>>(t.mixes.size()));
  t.skipped.assign(t.bs_bytes.size(), std::vector<bool>(t.mixes.size(), false));
  for (const auto& c : m.cells) {
    auto row = std::ranges::find(t.bs_bytes, c.bs.value_or(0));
    auto col = std::ranges::find(t.mixes, c.rwmixread.value_or(-1));
    if (row == t.bs_bytes.end() || col == t.mixes.end()) continue;
    const size_t r = static_cast<size_t>(row - t.bs_bytes.begin()), k = static_cast<size_t>(col - t.mixes.begin());
    if (c.iops) t.iops[r][k] = *c.iops;
    if (!c.skipped.empty()) {
      t.skipped[r][k] = true;
      if (std::ranges::find(t.skip_reasons, c.skipped) == t.skip_reasons.end() && t.skip_reasons.size() < 8) t.skip_reasons.push_back(c.skipped);
    }
  }
  if (const auto& w = m.measurement_window; w && w->first_round)
    t.window = fmt::format("averaged over rounds {:.0f}-{} of {} ({}: range {}%, slope {}% of the average {})", *w->first_round,
                           human::known_as(w->last_round, "{:.0f}"), human::known_as(m.rounds_run, "{:.0f}"),
                           m.attained ? "steady" : "NOT steady", human::known_as(w->range_pct, "{:.1f}"),
                           human::known_as(w->slope_pct, "{:.1f}"), human::known(w->average, format_count));
  else t.window = fmt::format("{} round(s) run, fewer than a measurement window: NOT steady", human::known_as(m.rounds_run, "{:.0f}"));
  return t;
}

std::string matrix_text(const std::string& id, const MatrixTable& t) {
  std::string out = fmt::format("\n  {}: IOPS by block size and read/write mix, {}\n", id, t.window);
  out += fmt::format("  {:>9}", "bs");
  for (double m : t.mixes) out += fmt::format(" {:>9}", mix_label(m));
  out += "\n";
  for (size_t r = 0; r < t.bs_bytes.size(); ++r) {
    out += fmt::format("  {:>9}", bs_label(t.bs_bytes[r]));
    for (size_t k = 0; k < t.mixes.size(); ++k)
      out += fmt::format(" {:>9}", t.iops[r][k] ? format_count(*t.iops[r][k]) : t.skipped[r][k] ? "skipped" : "-");
    out += "\n";
  }
  for (const auto& why : t.skip_reasons) out += "  skipped: " + why + "\n";
  return out;
}

std::string matrix_html(const std::string& id, const MatrixTable& t) {
  std::string h = fmt::format("<p>IOPS by block size and read/write mix, {}</p><table><tr><th>bs</th>", html_escape(t.window));
  for (double m : t.mixes) h += "<th>" + mix_label(m) + "</th>";
  h += "</tr>";
  for (size_t r = 0; r < t.bs_bytes.size(); ++r) {
    h += "<tr><th>" + bs_label(t.bs_bytes[r]) + "</th>";
    for (size_t k = 0; k < t.mixes.size(); ++k)
      h += "<td>" + (t.iops[r][k] ? format_count(*t.iops[r][k]) : t.skipped[r][k] ? std::string("skipped") : std::string("-")) + "</td>";
    h += "</tr>";
  }
  h += "</table>";
  for (const auto& why : t.skip_reasons) h += "<p>skipped: " + html_escape(why) + "</p>";
  // IOPS against block size (evenly spaced, labelled), one line per mix: PTS's IOPS plot.
  static const char* colors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  Plot p;
  p.kind = "matrix";
  p.title = id + ": IOPS by block size, one line per read/write mix";
  p.x.label = "block size";
  p.y.label = "IOPS";
  p.y.format = [](double v) { return human::count(v); };
  for (size_t k = 0; k < t.mixes.size(); ++k) {
    PlotSeries s{mix_label(t.mixes[k]), colors[k % std::size(colors)], {}};
    for (size_t r = 0; r < t.bs_bytes.size(); ++r)
      if (t.iops[r][k]) s.points.push_back({static_cast<double>(r), *t.iops[r][k]});
    if (!s.points.empty()) p.series.push_back(std::move(s));
  }
  for (size_t r = 0; r < t.bs_bytes.size(); ++r) p.x.ticks.emplace_back(static_cast<double>(r), bs_label(t.bs_bytes[r]));
  return h + "<div class=\"plots\">" + render_svg(p) + "</div>";
}

}  // namespace diskvet::runner
