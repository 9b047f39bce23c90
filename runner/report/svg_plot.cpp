// SVG line plots.
#include "runner/report/svg_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace diskvet::runner {

std::string html_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

namespace {
std::string tick(double v) {
  if (std::fabs(v) >= 1e6) return fmt::format("{:.1f}M", v / 1e6);
  if (std::fabs(v) >= 1e4) return fmt::format("{:.0f}k", v / 1e3);
  if (std::fabs(v) >= 100) return fmt::format("{:.0f}", v);
  return fmt::format("{:.3g}", v);
}
}  // namespace

std::string render_svg(const Plot& p, int width, int height) {
  const double l = 64, r = 28, t = 24, b = 40;
  double x0 = INFINITY, x1 = -INFINITY, y1 = 0;
  for (const auto& s : p.series)
    for (auto [x, y] : s.points) x0 = std::min(x0, x), x1 = std::max(x1, x), y1 = std::max(y1, y);
  std::string svg = fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\" font-size=\"11\">", width, height);
  svg += fmt::format("<text x=\"{}\" y=\"15\" font-weight=\"bold\">{}</text>", l, html_escape(p.title));
  if (!std::isfinite(x0)) return svg + fmt::format("<text x=\"{}\" y=\"60\">no data</text></svg>", l);
  if (x1 == x0) x1 = x0 + 1;
  if (y1 <= 0) y1 = 1;
  y1 *= 1.1;
  const double pw = width - l - r, ph = height - t - b;
  auto X = [&](double x) { return l + (x - x0) / (x1 - x0) * pw; };
  auto Y = [&](double y) { return t + ph - y / y1 * ph; };
  if (p.shade_x)
    svg += fmt::format("<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" fill=\"#dfe\" />", X(p.shade_x->first), t,
                       std::max(1.0, X(p.shade_x->second) - X(p.shade_x->first)), ph);
  svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\" />", l, t, pw, ph);
  for (int i = 0; i <= 4; ++i) {
    double y = y1 * i / 4;
    svg += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>", l - 4, Y(y) + 4, tick(y));
    svg += fmt::format("<line x1=\"{}\" x2=\"{}\" y1=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#eee\" />", l, l + pw, Y(y), Y(y));
  }
  if (!p.x_tick_labels.empty()) {
    for (size_t i = 0; i < p.x_tick_labels.size(); ++i)
      svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>", X(static_cast<double>(i)), t + ph + 14, html_escape(p.x_tick_labels[i]));
  } else {
    for (int i = 0; i <= 4; ++i) {
      double x = x0 + (x1 - x0) * i / 4;
      svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>", X(x), t + ph + 14, tick(x));
    }
  }
  svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", l + pw / 2, height - 6, html_escape(p.x_label));
  svg += fmt::format("<text x=\"12\" y=\"{}\" transform=\"rotate(-90 12 {})\" text-anchor=\"middle\">{}</text>", t + ph / 2, t + ph / 2, html_escape(p.y_label));
  double lx = l + 8;
  for (const auto& s : p.series) {
    std::string pts;
    for (auto [x, y] : s.points) pts += fmt::format("{:.1f},{:.1f} ", X(x), Y(y));
    svg += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"1.6\" points=\"{}\" />", s.color, pts);
    for (auto [x, y] : s.points)
      if (s.points.size() <= 30) svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\" fill=\"{}\" />", X(x), Y(y), s.color);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\" fill=\"{}\">{}</text>", lx, t + 12, s.color, html_escape(s.label));
    lx += 8 + 7 * static_cast<double>(s.label.size());
  }
  return svg + "</svg>";
}

}  // namespace diskvet::runner
