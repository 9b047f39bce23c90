// The plots of a report (see report_plots.hpp).
#include "runner/report/report_plots.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "common/units.hpp"
#include "runner/report/human_format.hpp"
#include "runner/report/report_json_access.hpp"

namespace diskvet::runner {

namespace json = boost::json;
using namespace rj;

namespace {

constexpr const char* kRead = "#1f77b4";
constexpr const char* kWrite = "#d62728";
const char* dir_color(std::string_view dir) { return dir == "read" ? kRead : kWrite; }

std::string fmt_latency_ns(double ns) { return human::latency_ns(ns); }
std::string fmt_count(double x) { return human::count(x); }
std::string fmt_seconds(double s) { return human::plain(s) + " s"; }

// Whether a verdict's metric ("read.lat_p99_us", "lat_p99_us", "total.iops") speaks of `dir`.
bool metric_of(std::string_view metric, std::string_view dir) {
  const auto dot = metric.find('.');
  if (dot == std::string_view::npos) return true;
  const std::string_view prefix = metric.substr(0, dot);
  return prefix == dir || prefix == "total";
}

std::string metric_base(std::string_view metric) {
  const auto dot = metric.find('.');
  return std::string(dot == std::string_view::npos ? metric : metric.substr(dot + 1));
}

// "lat_p9999_us" -> "p99.99", "lat_mean_us" -> "mean".
std::string latency_metric_word(const std::string& base) {
  std::string s = base.substr(4, base.size() - 7);  // between "lat_" and "_us"
  if (s.size() > 3 && s[0] == 'p') s = s.substr(0, 3) + "." + s.substr(3);
  return s;
}

bool directed(const json::value& res, std::string_view dir) { return num(obj(res, dir), "total_ios") > 0; }

}  // namespace

std::string workload_label(const json::value& w) {
  std::string s = fmt::format("{} {} QD{}x{}", str(w, "rw"), format_bytes(bytes(w, "bs")), num(w, "iodepth"), num(w, "numjobs"));
  if (is_num(w, "rwmixread")) s += fmt::format(" {}% read", num(w, "rwmixread"));
  return s;
}

double nines(double percentile) { return -std::log10(1 - percentile / 100); }

PlotAxis nines_axis(double max_nines) {
  PlotAxis x;
  x.label = "percentile (each step right is one more nine)";
  const char* names[] = {"p0", "p90", "p99", "p99.9", "p99.99", "p99.999", "p99.9999", "p99.99999"};
  x.ticks.emplace_back(nines(50), "p50");
  for (int k = 1; k <= 7 && k <= std::ceil(std::max(max_nines, 2.0) - 1e-9); ++k) x.ticks.emplace_back(k, names[k]);
  x.ticks.emplace_back(0, "p0");
  return x;
}

Plot percentile_plot(const json::value& w, const json::value& test) {
  const json::value& res = obj(w, "result");
  Plot p;
  p.kind = "percentiles";
  p.title = "Latency by percentile: " + workload_label(w);
  p.y.label = "latency (log scale)";
  p.y.scale = Scale::log;
  p.y.format = fmt_latency_ns;
  double max_nines = 2;
  for (const char* dir : {"read", "write"}) {
    if (!directed(res, dir)) continue;
    PlotSeries s{dir, dir_color(dir), {}};
    for (const auto& [q, ns] : percentile_points(obj(obj(res, dir), "lat_ns"))) {
      s.points.emplace_back(nines(q), ns);
      max_nines = std::max(max_nines, nines(q));
    }
    if (!s.points.empty()) p.series.push_back(std::move(s));
    for (const auto& v : arr(test, "verdicts")) {
      const std::string metric = str(v, "metric"), base = metric_base(metric);
      if (!base.starts_with("lat_") || !base.ends_with("_us") || !metric_of(metric, dir) || !is_num(v, "expected")) continue;
      p.hlines.push_back({num(v, "expected") * 1e3,
                          fmt::format("{} {} limit {}", dir, latency_metric_word(base), human::latency_us(num(v, "expected"))), dir_color(dir)});
    }
  }
  p.x = nines_axis(max_nines);
  return p;
}

std::pair<Plot, Plot> timeline_plots(const json::value& w, const json::value& test, const json::value& device) {
  const json::value& res = obj(w, "result");
  Plot iops, lat;
  iops.kind = "timeline-iops";
  lat.kind = "timeline-latency";
  iops.title = "IOPS over time: " + workload_label(w);
  lat.title = "Latency over time: " + workload_label(w);
  iops.x.label = lat.x.label = "seconds since the workload started";
  iops.x.format = lat.x.format = fmt_seconds;
  iops.y.label = "IOPS";
  iops.y.format = fmt_count;
  lat.y.label = "latency (log scale)";
  lat.y.scale = Scale::log;
  lat.y.format = fmt_latency_ns;
  auto band = [&](double a, double b, const std::string& label, const char* color) {
    iops.bands.push_back({a, b, label, color});
    lat.bands.push_back({a, b, "", color});
  };
  double cursor = 0;
  const json::value& wu = obj(w, "warmup");
  if (!arr(wu, "iops").empty()) {
    const auto& pts = arr(wu, "iops");
    const double e = num(wu, "elapsed_s") > 0 ? num(wu, "elapsed_s") : static_cast<double>(pts.size());
    PlotSeries s{"warmup", "#888", {}};
    for (size_t i = 0; i < pts.size(); ++i)
      if (pts[i].is_number()) s.points.emplace_back((static_cast<double>(i) + 0.5) * e / static_cast<double>(pts.size()), pts[i].to_number<double>());
    iops.series.push_back(std::move(s));
    band(0, e, "warmup", "#eeeeee");
    cursor = e;
  }
  // The measured intervals' length, which is also the steady-state window when the result is it.
  double measured_s = 0;
  for (const auto& iv : arr(res, "intervals")) measured_s += num(iv, "dur_s");
  const json::value& ss = obj(w, "steady_state");
  const auto& rounds = arr(ss, "rounds");
  const json::value& mw = obj(ss, "measurement_window");
  double measured_at = cursor + num(w, "ramp_s");
  if (!rounds.empty()) {
    // A round's length: exact when the result is the window (its intervals are the window's rounds);
    // otherwise the workload's runtime, the length each round is capped at.
    const bool is_window = is_num(mw, "rounds") && num(mw, "rounds") > 0 && measured_s > 0;
    const double round_s = is_window ? measured_s / num(mw, "rounds") : std::max(num(w, "runtime_s"), 1e-3);
    PlotSeries ri{"rounds", "#2ca02c", {}}, rl{"round mean latency", "#2ca02c", {}};
    ri.step = rl.step = true;
    for (size_t i = 0; i <= rounds.size(); ++i) {
      const json::value& r = rounds[std::min(i, rounds.size() - 1)];
      ri.points.emplace_back(cursor + static_cast<double>(i) * round_s, num(r, "iops"));
      rl.points.emplace_back(cursor + static_cast<double>(i) * round_s, num(r, "lat_mean_us") * 1e3);
    }
    band(cursor, cursor + static_cast<double>(rounds.size()) * round_s, str(ss, "workload").empty() ? "rounds" : "rounds at " + str(ss, "workload"),
         "#f4faf4");
    const json::value& win = obj(ss, "window");
    if (is_num(win, "first_round")) {
      const double a = cursor + num(win, "first_round") * round_s, b = a + num(win, "rounds") * round_s;
      band(a, b, flag(ss, "attained") ? "steady-state window" : "last rounds (NOT steady)", flag(ss, "attained") ? "#dff0d8" : "#fbe3c9");
      if (is_window) measured_at = a;
    }
    if (!is_window) measured_at = cursor + static_cast<double>(rounds.size()) * round_s + num(w, "ramp_s");
    iops.series.push_back(std::move(ri));
    lat.series.push_back(std::move(rl));
    if (!is_window && num(w, "ramp_s") > 0) band(measured_at - num(w, "ramp_s"), measured_at, "ramp", "#f0f0f0");
  } else if (num(w, "ramp_s") > 0) {
    band(cursor, measured_at, "ramp (not measured)", "#f0f0f0");
  }
  if (rounds.empty() || !is_num(mw, "rounds")) band(measured_at, measured_at + measured_s, "measured", "#e4eef8");
  for (const char* dir : {"read", "write"}) {
    if (!directed(res, dir)) continue;
    PlotSeries si{dir, dir_color(dir), {}}, sm{std::string(dir) + " mean", dir_color(dir), {}}, sp{std::string(dir) + " p99", dir_color(dir), {}};
    sp.dashed = true;
    // The ramp's own series (counts only) leads into the measured one, where the ramp was kept.
    if (rounds.empty())
      for (const auto& iv : arr(obj(w, "ramp"), "intervals"))
        si.points.emplace_back(measured_at - num(w, "ramp_s") + num(iv, "t_s") + num(iv, "dur_s") / 2, num(obj(iv, dir), "iops"));
    // Each interval at its middle; a window of one interval (a pass shorter than the interval) as a
    // flat line across it, since a single point draws no line.
    const auto& intervals = arr(res, "intervals");
    for (const auto& iv : intervals) {
      const json::value& d = obj(iv, dir);
      const double start = measured_at + num(iv, "t_s"), dur = num(iv, "dur_s");
      for (double t : intervals.size() == 1 ? std::vector<double>{start, start + dur} : std::vector<double>{start + dur / 2}) {
        si.points.emplace_back(t, num(d, "iops"));
        sm.points.emplace_back(t, num(d, "lat_mean_ns"));
        sp.points.emplace_back(t, num(d, "lat_p99_ns"));
      }
    }
    iops.series.push_back(std::move(si));
    lat.series.push_back(std::move(sm));
    lat.series.push_back(std::move(sp));
  }
  // The burst-then-baseline step, on the ramp's time line.
  if (const json::value& b = obj(w, "burst"); flag(b, "found") && rounds.empty())
    iops.vlines.push_back({measured_at - num(w, "ramp_s") + num(b, "step_s"),
                           fmt::format("burst ends: {} to {} IOPS", fmt_count(num(b, "before_iops")), fmt_count(num(b, "after_iops"))), "#b15928"});
  // A burn-in's slowdowns and stalls of this test, on the measured time line.
  const std::string id = str(test, "id");
  for (const auto& e : arr(device, "slowdowns"))
    if (str(e, "test") == id)
      band(measured_at + num(e, "start_s"), measured_at + num(e, "end_s"), fmt::format("slowdown -{:.0f}%", num(e, "max_drop_pct")), "#f8d0d0");
  for (const auto& s : arr(obj(device, "watchdog"), "stalls"))
    if (str(s, "test") == id) {
      const std::string label = fmt::format("stall {}", human::duration_s(num(s, "out_s")));
      // submit_s counts from the workload's start, its ramp included.
      const double x = std::max(0.0, measured_at - num(w, "ramp_s") + num(s, "submit_s"));
      iops.vlines.push_back({x, label, "#a00"});
      lat.vlines.push_back({x, label, "#a00"});
    }
  return {std::move(iops), std::move(lat)};
}

std::optional<Plot> sweep_plot(const json::value& w) {
  const json::value& sw = obj(w, "sweep");
  const auto& pts = arr(sw, "points");
  if (pts.empty()) return std::nullopt;
  Plot p;
  p.kind = "sweep";
  p.title = "Max-IOPS sweep: latency against IOPS as outstanding I/Os grow (" + str(w, "rw") + ")";
  p.x.label = "IOPS";
  p.x.format = fmt_count;
  p.y.label = "latency (log scale)";
  p.y.scale = Scale::log;
  p.y.format = fmt_latency_ns;
  PlotSeries mean{"mean latency", "#1f77b4", {}}, p99{"p99 latency", "#ff7f0e", {}};
  p99.dashed = true;
  for (const auto& pt : pts) {
    mean.points.emplace_back(num(pt, "iops"), num(pt, "lat_mean_us") * 1e3);
    p99.points.emplace_back(num(pt, "iops"), num(pt, "lat_p99_us") * 1e3);
    mean.point_labels.push_back(fmt::format("{}", num(pt, "outstanding")));
  }
  if (auto k = index_below(sw, "knee", pts.size()))
    p.markers.push_back({num(pts[*k], "iops"), num(pts[*k], "lat_mean_us") * 1e3,
                         fmt::format("knee: {} at {} outstanding", human::iops(num(pts[*k], "iops")), num(pts[*k], "outstanding")), "#000"});
  p.series = {std::move(mean), std::move(p99)};
  return p;
}

std::optional<Plot> health_plot(const json::value& device) {
  const auto& series = arr(device, "health_series");
  Plot p;
  p.kind = "health";
  p.title = "Health during the run: temperature (thermal throttling marked)";
  p.x.label = "seconds since the device's run started";
  p.x.format = fmt_seconds;
  p.y.label = "temperature (°C)";
  p.y.from_zero = false;
  p.y.format = [](double c) { return human::plain(c) + " °C"; };
  PlotSeries t{"temperature", "#d62728", {}};
  double last_transitions = -1;
  for (const auto& s : series) {
    if (is_num(s, "temperature_c")) t.points.emplace_back(num(s, "t_s"), num(s, "temperature_c"));
    if (is_num(s, "thermal_transitions")) {
      if (last_transitions >= 0 && num(s, "thermal_transitions") > last_transitions) p.vlines.push_back({num(s, "t_s"), "throttled", "#a60"});
      last_transitions = num(s, "thermal_transitions");
    }
  }
  if (t.points.empty()) return std::nullopt;
  const json::value& before = obj(obj(device, "health"), "before");
  if (is_num(before, "warning_temp_c")) p.hlines.push_back({num(before, "warning_temp_c"), "warning temperature", "#c60"});
  p.series.push_back(std::move(t));
  return p;
}

}  // namespace diskvet::runner
