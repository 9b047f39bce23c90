// SVG line plots (see svg_plot.hpp).
#include "runner/report/svg_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "runner/report/human_format.hpp"

namespace diskvet::runner {

std::string html_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

namespace {

bool drawable(const PlotAxis& a, double v) { return std::isfinite(v) && (a.scale == Scale::linear || v > 0); }

// One axis's mapping from data to pixels.
struct Mapper {
  double lo = 0, hi = 1;
  bool log = false;
  double px0 = 0, px1 = 1;  // pixel positions of lo and hi
  double t(double v) const { return log ? std::log10(v) : v; }
  double operator()(double v) const { return px0 + (t(v) - t(lo)) / (t(hi) - t(lo)) * (px1 - px0); }
};

Mapper make_mapper(const PlotAxis& a, double lo, double hi, double px0, double px1) {
  Mapper m{lo, hi, a.scale == Scale::log, px0, px1};
  if (m.log) {
    // Whole decades around the data: the eye reads a log axis by its powers of ten.
    m.lo = std::pow(10, std::floor(std::log10(lo)));
    m.hi = std::pow(10, std::ceil(std::log10(hi)));
    if (m.hi <= m.lo) m.hi = m.lo * 10;
  } else {
    if (a.from_zero && m.lo > 0) m.lo = 0;
    if (m.hi <= m.lo) m.hi = m.lo + (m.lo == 0 ? 1 : std::fabs(m.lo) * 0.1);
    else if (a.from_zero) m.hi *= 1.08;  // headroom for the legend
  }
  return m;
}

std::vector<double> auto_ticks(const Mapper& m) {
  std::vector<double> ticks;
  if (m.log) {
    const int d0 = static_cast<int>(std::lround(std::log10(m.lo))), d1 = static_cast<int>(std::lround(std::log10(m.hi)));
    const bool fine = d1 - d0 <= 2;  // two decades or less: 1, 2, 5 in each
    for (int d = d0; d <= d1 && ticks.size() < 40; ++d)
      for (double f : {1.0, 2.0, 5.0})
        if (f == 1.0 || fine) {
          const double v = f * std::pow(10, d);
          if (v >= m.lo * 0.999 && v <= m.hi * 1.001) ticks.push_back(v);
        }
    return ticks;
  }
  const double span = m.hi - m.lo;
  const double raw = span / 5, mag = std::pow(10, std::floor(std::log10(raw)));
  double step = mag;
  for (double f : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (raw <= f * mag) {
      step = f * mag;
      break;
    }
  for (double v = std::ceil(m.lo / step) * step; v <= m.hi + step * 1e-9 && ticks.size() < 20; v += step) ticks.push_back(std::fabs(v) < step * 1e-9 ? 0 : v);
  return ticks;
}

std::string tick_text(const PlotAxis& a, double v) { return a.format ? a.format(v) : human::plain(v); }

}  // namespace

size_t plotted_points(const Plot& p) {
  size_t n = 0;
  for (const auto& s : p.series)
    for (auto [x, y] : s.points) n += drawable(p.x, x) && drawable(p.y, y);
  return n;
}

namespace {

// The plot's frame in the picture: its margins, its size and the two axes' mappings into it.
struct Frame {
  double l = 70, r = 34, t = 28, b = 44;  // r: room for the last x label, centred on the edge
  double pw = 0, ph = 0;
  Mapper X, Y;
  double cx(double v) const { return std::clamp(X(v), l, l + pw); }  // x kept inside the frame
};

// The frame around everything drawable: the series' points, bands, lines and fixed ticks.
Frame frame_for(const Plot& p, int width, int height) {
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (const auto& s : p.series)
    for (auto [x, y] : s.points)
      if (drawable(p.x, x) && drawable(p.y, y)) x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
  for (const auto& band : p.bands)
    if (drawable(p.x, band.x0) && drawable(p.x, band.x1)) x0 = std::min(x0, band.x0), x1 = std::max(x1, band.x1);
  for (const auto& line : p.hlines)
    if (drawable(p.y, line.at)) y0 = std::min(y0, line.at), y1 = std::max(y1, line.at);
  for (const auto& line : p.vlines)
    if (drawable(p.x, line.at)) x0 = std::min(x0, line.at), x1 = std::max(x1, line.at);
  for (const auto& [v, text] : p.x.ticks)
    if (drawable(p.x, v)) x0 = std::min(x0, v), x1 = std::max(x1, v);
  Frame f;
  f.pw = width - f.l - f.r;
  f.ph = height - f.t - f.b;
  PlotAxis xa = p.x;
  xa.from_zero = p.x.from_zero && p.x.ticks.empty();
  f.X = make_mapper(xa, x0, x1, f.l, f.l + f.pw);
  f.Y = make_mapper(p.y, y0, y1, f.t + f.ph, f.t);
  return f;
}

// Bands behind everything; their labels alternate between the bottom and a line above it, so
// narrow neighbours do not overlap.
void draw_bands(std::string& svg, const Plot& p, const Frame& f) {
  size_t labelled = 0;
  for (const auto& band : p.bands) {
    if (!drawable(p.x, band.x0) || !drawable(p.x, band.x1)) continue;
    const double a = f.cx(band.x0), z = std::max(f.cx(band.x1), a + 1);
    svg += fmt::format("<rect class=\"band\" x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" fill=\"{}\"/>", a, f.t, z - a, f.ph,
                       band.color);
    if (!band.label.empty())
      svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\" fill=\"#555\" font-size=\"10\">{}</text>", a + 3,
                         f.t + f.ph - 4 - (labelled++ % 2 ? 12.0 : 0.0), html_escape(band.label));
  }
}

// The frame's border, the grid with its tick labels, and the axis labels.
void draw_axes(std::string& svg, const Plot& p, const Frame& f, int height) {
  const double l = f.l, t = f.t, pw = f.pw, ph = f.ph;
  svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\"/>", l, t, pw, ph);
  for (double v : auto_ticks(f.Y)) {
    svg += fmt::format("<line x1=\"{}\" x2=\"{}\" y1=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#e6e6e6\"/>", l, l + pw, f.Y(v), f.Y(v));
    svg += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>", l - 4, f.Y(v) + 4, html_escape(tick_text(p.y, v)));
  }
  std::vector<std::pair<double, std::string>> xt = p.x.ticks;
  if (xt.empty())
    for (double v : auto_ticks(f.X)) xt.emplace_back(v, tick_text(p.x, v));
  for (const auto& [v, text] : xt) {
    if (!drawable(p.x, v)) continue;
    svg += fmt::format("<line x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{}\" y2=\"{}\" stroke=\"#e6e6e6\"/>", f.X(v), f.X(v), t, t + ph);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>", f.X(v), t + ph + 14, html_escape(text));
  }
  svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", l + pw / 2, height - 8, html_escape(p.x.label));
  svg += fmt::format("<text x=\"14\" y=\"{}\" transform=\"rotate(-90 14 {})\" text-anchor=\"middle\">{}</text>", t + ph / 2, t + ph / 2,
                     html_escape(p.y.label));
}

// Limits across (hlines) and events along the x axis (vlines), each with its label.
void draw_lines(std::string& svg, const Plot& p, const Frame& f) {
  for (const auto& line : p.hlines) {
    if (!drawable(p.y, line.at)) continue;
    const double y = f.Y(line.at);
    svg += fmt::format(
        "<line class=\"limit\" x1=\"{}\" x2=\"{}\" y1=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"1.4\" stroke-dasharray=\"6 "
        "3\"/>",
        f.l, f.l + f.pw, y, y, line.color);
    svg += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\" fill=\"{}\">{}</text>", f.l + f.pw - 4, y - 4, line.color,
                       html_escape(line.label));
  }
  for (const auto& line : p.vlines) {
    if (!drawable(p.x, line.at)) continue;
    const double x = f.cx(line.at);
    svg += fmt::format("<line x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-dasharray=\"4 3\"/>", x, x, f.t,
                       f.t + f.ph, line.color);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\" fill=\"{}\" font-size=\"10\">{}</text>", x + 3, f.t + 11, line.color,
                       html_escape(line.label));
  }
}

// One series: its line (steps for a step series), its points when few, and their labels.
void draw_series(std::string& svg, const Plot& p, const Frame& f, const PlotSeries& s) {
  std::string pts;
  std::vector<std::pair<double, double>> drawn;
  for (auto [x, y] : s.points)
    if (drawable(p.x, x) && drawable(p.y, y)) drawn.emplace_back(x, y);
  for (size_t i = 0; i < drawn.size(); ++i) {
    if (s.step && i > 0) pts += fmt::format("{:.1f},{:.1f} ", f.X(drawn[i].first), f.Y(drawn[i - 1].second));
    pts += fmt::format("{:.1f},{:.1f} ", f.X(drawn[i].first), f.Y(drawn[i].second));
  }
  svg += fmt::format("<polyline class=\"series\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.8\"{} points=\"{}\"/>", s.color,
                     s.dashed ? " stroke-dasharray=\"5 3\"" : "", pts);
  if (drawn.size() <= 40 && !s.step)
    for (auto [x, y] : drawn) svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.6\" fill=\"{}\"/>", f.X(x), f.Y(y), s.color);
  size_t k = 0;
  for (auto [x, y] : s.points) {
    const bool ok = drawable(p.x, x) && drawable(p.y, y);
    if (ok && k < s.point_labels.size() && !s.point_labels[k].empty())
      svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\" font-size=\"9\">{}</text>", f.X(x) + 4, f.Y(y) - 4, s.color,
                         html_escape(s.point_labels[k]));
    ++k;
  }
}

void draw_markers(std::string& svg, const Plot& p, const Frame& f) {
  for (const auto& m : p.markers) {
    if (!drawable(p.x, m.x) || !drawable(p.y, m.y)) continue;
    const double x = f.X(m.x), y = f.Y(m.y);
    svg += fmt::format("<circle class=\"marker\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"6\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>", x,
                       y, m.color);
    const bool right_half = x > f.l + f.pw / 2;  // the label reads towards the middle, never off the frame
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\" font-weight=\"bold\" text-anchor=\"{}\">{}</text>",
                       x + (right_half ? -8 : 8), y + (y > f.t + f.ph - 20 ? -10 : 16), m.color, right_half ? "end" : "start",
                       html_escape(m.label));
  }
}

// The legend, top left inside the frame.
void draw_legend(std::string& svg, const Plot& p, const Frame& f) {
  double ly = f.t + 14;
  for (const auto& s : p.series) {
    svg += fmt::format("<line x1=\"{}\" x2=\"{}\" y1=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"2\"{}/>", f.l + 8, f.l + 26,
                       ly - 4, ly - 4, s.color, s.dashed ? " stroke-dasharray=\"5 3\"" : "");
    svg += fmt::format("<text x=\"{}\" y=\"{:.1f}\">{}</text>", f.l + 30, ly, html_escape(s.label));
    ly += 14;
  }
}

}  // namespace

std::string render_svg(const Plot& p, int width, int height) {
  const size_t n = plotted_points(p);
  const double l = Frame{}.l;
  std::string svg = fmt::format(
      "<svg class=\"plot\" data-plot=\"{}\" data-points=\"{}\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {}\" width=\"{}\" "
      "height=\"{}\" role=\"img\" font-family=\"sans-serif\" font-size=\"11\"><title>{}</title>",
      html_escape(p.kind), n, width, height, width, height, html_escape(p.title));
  svg += fmt::format("<text x=\"{}\" y=\"16\" font-weight=\"bold\" font-size=\"12\">{}</text>", l, html_escape(p.title));
  if (n == 0) return svg + fmt::format("<text x=\"{}\" y=\"70\" fill=\"#777\">no data</text></svg>", l);
  const Frame f = frame_for(p, width, height);
  draw_bands(svg, p, f);
  draw_axes(svg, p, f, height);
  draw_lines(svg, p, f);
  for (const auto& s : p.series) draw_series(svg, p, f, s);
  draw_markers(svg, p, f);
  draw_legend(svg, p, f);
  return svg + "</svg>";
}

}  // namespace diskvet::runner
