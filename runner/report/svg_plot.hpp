// A minimal SVG line plot: one or more series on linear axes, with an optional shaded x-range.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace diskvet::runner {

struct PlotSeries {
  std::string label;
  std::string color;  // CSS color
  std::vector<std::pair<double, double>> points;
};

struct Plot {
  std::string title, x_label, y_label;
  std::vector<PlotSeries> series;
  std::optional<std::pair<double, double>> shade_x;  // e.g. the steady-state window
  std::vector<std::string> x_tick_labels;            // optional: labels at x = 0, 1, 2, ...
};

std::string render_svg(const Plot& p, int width = 640, int height = 260);
// Escapes &, <, >, " for HTML text and attributes.
std::string html_escape(std::string_view s);

}  // namespace diskvet::runner
