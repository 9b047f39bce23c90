// The plots of a report (see report_plots.hpp).
#include "runner/report/report_plots.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/units.hpp"
#include "runner/report/human_format.hpp"

namespace diskvet::runner {

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

}  // namespace

std::string workload_label(const WorkloadView& w) {
  std::string s = fmt::format("{} {} QD{}x{}", w.rw, format_bytes(w.bs.value_or(0)), w.iodepth.value_or(0), w.numjobs.value_or(0));
  if (w.rwmixread) s += fmt::format(" {}% read", *w.rwmixread);
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

Plot percentile_plot(const WorkloadView& w, const TestView& test) {
  static const ResultView kNotRun;
  const ResultView& res = w.result ? *w.result : kNotRun;
  Plot p;
  p.kind = "percentiles";
  p.title = "Latency by percentile: " + workload_label(w);
  p.y.label = "latency (log scale)";
  p.y.scale = Scale::log;
  p.y.format = fmt_latency_ns;
  double max_nines = 2;
  for (const char* dir : {"read", "write"}) {
    const DirectionView& d = res.direction(dir);
    if (!d.measured()) continue;
    PlotSeries s{dir, dir_color(dir), {}};
    for (const auto& [q, ns] : d.percentiles_ns) {
      s.points.emplace_back(nines(q), ns);
      max_nines = std::max(max_nines, nines(q));
    }
    if (!s.points.empty()) p.series.push_back(std::move(s));
    for (const auto& v : test.verdicts) {
      const std::string base = metric_base(v.metric);
      if (!base.starts_with("lat_") || !base.ends_with("_us") || !metric_of(v.metric, dir) || !v.expected) continue;
      p.hlines.push_back({*v.expected * 1e3, fmt::format("{} {} limit {}", dir, latency_metric_word(base), human::latency_us(*v.expected)), dir_color(dir)});
    }
  }
  p.x = nines_axis(max_nines);
  return p;
}

std::pair<Plot, Plot> timeline_plots(const WorkloadView& w, const TestView& test, const DeviceView& device) {
  static const ResultView kNotRun;
  static const SteadyStateView kNoRounds;
  const ResultView& res = w.result ? *w.result : kNotRun;
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
  const double ramp_s = w.ramp_s.value_or(0);
  double cursor = 0;
  if (w.warmup && !w.warmup->iops.empty()) {
    const auto& pts = w.warmup->iops;
    const double e = w.warmup->elapsed_s.value_or(0) > 0 ? *w.warmup->elapsed_s : static_cast<double>(pts.size());
    PlotSeries s{"warmup", "#888", {}};
    for (size_t i = 0; i < pts.size(); ++i)
      if (pts[i]) s.points.emplace_back((static_cast<double>(i) + 0.5) * e / static_cast<double>(pts.size()), *pts[i]);
    iops.series.push_back(std::move(s));
    band(0, e, "warmup", "#eeeeee");
    cursor = e;
  }
  // The measured intervals' length, which is also the steady-state window when the result is it.
  double measured_s = 0;
  for (const auto& iv : res.intervals) measured_s += iv.dur_s.value_or(0);
  const SteadyStateView& ss = w.steady_state ? *w.steady_state : kNoRounds;
  const auto& rounds = ss.rounds;
  const std::optional<double> window_rounds = ss.measurement_window ? ss.measurement_window->rounds : std::nullopt;
  double measured_at = cursor + ramp_s;
  if (!rounds.empty()) {
    // A round's length: exact when the result is the window (its intervals are the window's rounds);
    // otherwise the workload's runtime, the length each round is capped at.
    const bool is_window = window_rounds && *window_rounds > 0 && measured_s > 0;
    const double round_s = is_window ? measured_s / *window_rounds : std::max(w.runtime_s.value_or(0), 1e-3);
    PlotSeries ri{"rounds", "#2ca02c", {}}, rl{"round mean latency", "#2ca02c", {}};
    ri.step = rl.step = true;
    for (size_t i = 0; i <= rounds.size(); ++i) {
      const RoundView& r = rounds[std::min(i, rounds.size() - 1)];
      ri.points.emplace_back(cursor + static_cast<double>(i) * round_s, r.iops.value_or(0));
      rl.points.emplace_back(cursor + static_cast<double>(i) * round_s, r.lat_mean_us.value_or(0) * 1e3);
    }
    band(cursor, cursor + static_cast<double>(rounds.size()) * round_s, ss.workload.empty() ? "rounds" : "rounds at " + ss.workload, "#f4faf4");
    if (ss.window && ss.window->first_round) {
      const double a = cursor + *ss.window->first_round * round_s, b = a + ss.window->rounds.value_or(0) * round_s;
      band(a, b, ss.attained ? "steady-state window" : "last rounds (NOT steady)", ss.attained ? "#dff0d8" : "#fbe3c9");
      if (is_window) measured_at = a;
    }
    if (!is_window) measured_at = cursor + static_cast<double>(rounds.size()) * round_s + ramp_s;
    iops.series.push_back(std::move(ri));
    lat.series.push_back(std::move(rl));
    if (!is_window && ramp_s > 0) band(measured_at - ramp_s, measured_at, "ramp", "#f0f0f0");
  } else if (ramp_s > 0) {
    band(cursor, measured_at, "ramp (not measured)", "#f0f0f0");
  }
  if (rounds.empty() || !window_rounds) band(measured_at, measured_at + measured_s, "measured", "#e4eef8");
  for (const char* dir : {"read", "write"}) {
    if (!res.direction(dir).measured()) continue;
    const bool is_read = std::string_view(dir) == "read";
    PlotSeries si{dir, dir_color(dir), {}}, sm{std::string(dir) + " mean", dir_color(dir), {}}, sp{std::string(dir) + " p99", dir_color(dir), {}};
    sp.dashed = true;
    // The ramp's own series (counts only) leads into the measured one, where the ramp was kept.
    if (rounds.empty())
      for (const auto& iv : w.ramp)
        si.points.emplace_back(measured_at - ramp_s + iv.t_s.value_or(0) + iv.dur_s.value_or(0) / 2, (is_read ? iv.read_iops : iv.write_iops).value_or(0));
    // Each interval at its middle; a window of one interval (a pass shorter than the interval) as a
    // flat line across it, since a single point draws no line.
    for (const auto& iv : res.intervals) {
      const IntervalDirectionView& d = is_read ? iv.read : iv.write;
      const double start = measured_at + iv.t_s.value_or(0), dur = iv.dur_s.value_or(0);
      for (double t : res.intervals.size() == 1 ? std::vector<double>{start, start + dur} : std::vector<double>{start + dur / 2}) {
        si.points.emplace_back(t, d.iops.value_or(0));
        sm.points.emplace_back(t, d.lat_mean_ns.value_or(0));
        sp.points.emplace_back(t, d.lat_p99_ns.value_or(0));
      }
    }
    iops.series.push_back(std::move(si));
    lat.series.push_back(std::move(sm));
    lat.series.push_back(std::move(sp));
  }
  // The burst-then-baseline step, on the ramp's time line.
  if (w.burst && w.burst->found && rounds.empty())
    iops.vlines.push_back({measured_at - ramp_s + w.burst->step_s.value_or(0),
                           fmt::format("burst ends: {} to {} IOPS", fmt_count(w.burst->before_iops.value_or(0)), fmt_count(w.burst->after_iops.value_or(0))),
                           "#b15928"});
  // A burn-in's slowdowns and stalls of this test, on the measured time line.
  for (const auto& e : device.slowdowns)
    if (e.test == test.id)
      band(measured_at + e.start_s.value_or(0), measured_at + e.end_s.value_or(0), fmt::format("slowdown -{:.0f}%", e.max_drop_pct.value_or(0)), "#f8d0d0");
  for (const auto& s : device.watchdog.stalls)
    if (s.test == test.id) {
      const std::string label = fmt::format("stall {}", human::duration_s(s.out_s.value_or(0)));
      // submit_s counts from the workload's start, its ramp included.
      const double x = std::max(0.0, measured_at - ramp_s + s.submit_s.value_or(0));
      iops.vlines.push_back({x, label, "#a00"});
      lat.vlines.push_back({x, label, "#a00"});
    }
  return {std::move(iops), std::move(lat)};
}

std::optional<Plot> sweep_plot(const WorkloadView& w) {
  if (!w.sweep || w.sweep->points.empty()) return std::nullopt;
  const auto& pts = w.sweep->points;
  Plot p;
  p.kind = "sweep";
  p.title = "Max-IOPS sweep: latency against IOPS as outstanding I/Os grow (" + w.rw + ")";
  p.x.label = "IOPS";
  p.x.format = fmt_count;
  p.y.label = "latency (log scale)";
  p.y.scale = Scale::log;
  p.y.format = fmt_latency_ns;
  PlotSeries mean{"mean latency", "#1f77b4", {}}, p99{"p99 latency", "#ff7f0e", {}};
  p99.dashed = true;
  for (const auto& pt : pts) {
    mean.points.emplace_back(pt.iops.value_or(0), pt.lat_mean_us.value_or(0) * 1e3);
    p99.points.emplace_back(pt.iops.value_or(0), pt.lat_p99_us.value_or(0) * 1e3);
    mean.point_labels.push_back(fmt::format("{}", pt.outstanding.value_or(0)));
  }
  if (const auto k = w.sweep->knee) {
    const SweepPointView& kp = pts[*k];
    p.markers.push_back({kp.iops.value_or(0), kp.lat_mean_us.value_or(0) * 1e3,
                         fmt::format("knee: {} at {} outstanding", human::iops(kp.iops.value_or(0)), kp.outstanding.value_or(0)), "#000"});
  }
  p.series = {std::move(mean), std::move(p99)};
  return p;
}

std::optional<Plot> health_plot(const DeviceView& device) {
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
  for (const auto& s : device.health_series) {
    if (s.temperature_c) t.points.emplace_back(s.t_s.value_or(0), *s.temperature_c);
    if (s.thermal_transitions) {
      if (last_transitions >= 0 && *s.thermal_transitions > last_transitions) p.vlines.push_back({s.t_s.value_or(0), "throttled", "#a60"});
      last_transitions = *s.thermal_transitions;
    }
  }
  if (t.points.empty()) return std::nullopt;
  if (const auto& before = device.health.before; before && before->warning_temp_c)
    p.hlines.push_back({*before->warning_temp_c, "warning temperature", "#c60"});
  p.series.push_back(std::move(t));
  return p;
}

}  // namespace diskvet::runner
