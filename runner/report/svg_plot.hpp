// SVG line plots for the HTML pages: series on linear or logarithmic axes, shaded x-ranges (warmup,
// the steady-state window), horizontal and vertical reference lines (a limit, a knee), labelled
// points. Output is one inline <svg> element: no script, no font, no network. Tick labels come
// from the caller's formatter (human_format), so an axis reads "20 ms", not "2e+04".
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace diskvet::runner {

struct PlotSeries {
  PlotSeries() = default;
  PlotSeries(std::string label_, std::string color_, std::vector<std::pair<double, double>> points_ = {})
      : label(std::move(label_)), color(std::move(color_)), points(std::move(points_)) {}
  std::string label;
  std::string color;  // CSS color
  std::vector<std::pair<double, double>> points;
  bool dashed = false;
  bool step = false;                      // a staircase: each point holds until the next x
  std::vector<std::string> point_labels;  // optional: a short label beside each point ("QD32")
};

struct PlotBand {  // a shaded range of x, labelled at its top
  double x0 = 0, x1 = 0;
  std::string label;
  std::string color = "#e4f2e4";
};

struct PlotLine {  // a reference line at x (vertical) or y (horizontal)
  double at = 0;
  std::string label;
  std::string color = "#c00";
};

struct PlotMarker {  // one emphasised point, e.g. the knee
  double x = 0, y = 0;
  std::string label;
  std::string color = "#000";
};

enum class Scale { linear, log };

struct PlotAxis {
  std::string label;
  Scale scale = Scale::linear;
  std::function<std::string(double)> format;         // tick text; a plain number when empty
  std::vector<std::pair<double, std::string>> ticks;  // explicit ticks; computed when empty
  bool from_zero = true;                              // a linear axis starts at 0 (IOPS); false: at the data
};

struct Plot {
  std::string title;
  PlotAxis x, y;
  std::vector<PlotSeries> series;
  std::vector<PlotBand> bands;
  std::vector<PlotLine> hlines, vlines;
  std::vector<PlotMarker> markers;
  std::string kind;  // data-plot attribute: what the plot shows ("percentiles", "timeline", ...)
};

// The number of points drawn (finite, and positive on a log axis): 0 means an empty plot, which
// renders as a titled "no data" box.
size_t plotted_points(const Plot& p);
std::string render_svg(const Plot& p, int width = 640, int height = 280);

// Escapes &, <, >, " and ' for HTML text and attributes.
std::string html_escape(std::string_view s);

}  // namespace diskvet::runner
