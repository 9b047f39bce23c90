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

// A point the report holds a value for, scaled; one it does not is left out, never drawn at 0.
void add_point(PlotSeries& s, double x, const std::optional<double>& y, double scale = 1) {
  if (y) s.points.emplace_back(x, *y * scale);
}

}  // namespace

std::string workload_label(const WorkloadView& w) {
  std::string s =
      fmt::format("{} {} QD{}x{}", w.rw, human::known(w.bs, format_bytes), human::known_as(w.iodepth), human::known_as(w.numjobs));
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

namespace {

// A workload's two time lines, IOPS and latency, on one time axis, phase by phase: the warmup, the
// steady-state rounds or the ramp, the measured intervals, then the burst step and a burn-in's
// slowdowns and stalls.
class TimelineBuilder {
 public:
  explicit TimelineBuilder(const WorkloadView& w) : w_(w), ramp_s_(w.ramp_s.value_or(0)) {
    iops_.kind = "timeline-iops";
    lat_.kind = "timeline-latency";
    iops_.title = "IOPS over time: " + workload_label(w);
    lat_.title = "Latency over time: " + workload_label(w);
    iops_.x.label = lat_.x.label = "seconds since the workload started";
    iops_.x.format = lat_.x.format = fmt_seconds;
    iops_.y.label = "IOPS";
    iops_.y.format = fmt_count;
    lat_.y.label = "latency (log scale)";
    lat_.y.scale = Scale::log;
    lat_.y.format = fmt_latency_ns;
  }

  void warmup() {
    if (!w_.warmup || w_.warmup->iops.empty()) return;
    const auto& pts = w_.warmup->iops;
    const double e = w_.warmup->elapsed_s.value_or(0) > 0 ? *w_.warmup->elapsed_s : static_cast<double>(pts.size());
    PlotSeries s{"warmup", "#888", {}};
    for (size_t i = 0; i < pts.size(); ++i)
      if (pts[i]) s.points.emplace_back((static_cast<double>(i) + 0.5) * e / static_cast<double>(pts.size()), *pts[i]);
    iops_.series.push_back(std::move(s));
    band(0, e, "warmup", "#eeeeee");
    cursor_ = e;
  }

  // The steady-state rounds (when the workload ran them) or the ramp, then the measured window's
  // band: where the measured intervals start on the axis.
  void rounds_or_ramp(const ResultView& res) {
    static const SteadyStateView kNoRounds;
    // The measured intervals' length, which is also the steady-state window when the result is it.
    double measured_s = 0;
    for (const auto& iv : res.intervals) measured_s += iv.dur_s.value_or(0);
    const SteadyStateView& ss = w_.steady_state ? *w_.steady_state : kNoRounds;
    const std::optional<double> window_rounds = ss.measurement_window ? ss.measurement_window->rounds : std::nullopt;
    rounds_ = !ss.rounds.empty();
    measured_at_ = cursor_ + ramp_s_;
    if (rounds_) rounds(ss, window_rounds, measured_s);
    else if (ramp_s_ > 0) band(cursor_, measured_at_, "ramp (not measured)", "#f0f0f0");
    if (!rounds_ || !window_rounds) band(measured_at_, measured_at_ + measured_s, "measured", "#e4eef8");
  }

  // Each measured direction: its IOPS, mean and p99 latency per interval.
  void measured(const ResultView& res) {
    for (const char* dir : {"read", "write"}) {
      if (!res.direction(dir).measured()) continue;
      const bool is_read = std::string_view(dir) == "read";
      PlotSeries si{dir, dir_color(dir), {}}, sm{std::string(dir) + " mean", dir_color(dir), {}},
          sp{std::string(dir) + " p99", dir_color(dir), {}};
      sp.dashed = true;
      // The ramp's own series (counts only) leads into the measured one, where the ramp was kept.
      if (!rounds_)
        for (const auto& iv : w_.ramp)
          if (iv.t_s) add_point(si, measured_at_ - ramp_s_ + *iv.t_s + iv.dur_s.value_or(0) / 2, is_read ? iv.read_iops : iv.write_iops);
      // Each interval at its middle; a window of one interval (a pass shorter than the interval) as a
      // flat line across it, since a single point draws no line.
      for (const auto& iv : res.intervals) {
        if (!iv.t_s) continue;  // an interval the report does not place in time is not drawn
        const IntervalDirectionView& d = is_read ? iv.read : iv.write;
        const double start = measured_at_ + *iv.t_s, dur = iv.dur_s.value_or(0);
        for (double t : res.intervals.size() == 1 ? std::vector<double>{start, start + dur} : std::vector<double>{start + dur / 2}) {
          add_point(si, t, d.iops);
          add_point(sm, t, d.lat_mean_ns);
          add_point(sp, t, d.lat_p99_ns);
        }
      }
      iops_.series.push_back(std::move(si));
      lat_.series.push_back(std::move(sm));
      lat_.series.push_back(std::move(sp));
    }
  }

  // The burst-then-baseline step on the ramp's time line; a burn-in's slowdowns and stalls of this
  // test on the measured one.
  void marks(const TestView& test, const DeviceView& device) {
    if (w_.burst && w_.burst->found && w_.burst->step_s && !rounds_)
      iops_.vlines.push_back({measured_at_ - ramp_s_ + *w_.burst->step_s,
                              fmt::format("burst ends: {} to {} IOPS", human::known(w_.burst->before_iops, fmt_count),
                                          human::known(w_.burst->after_iops, fmt_count)),
                              "#b15928"});
    for (const auto& e : device.slowdowns)
      if (e.test == test.id && e.start_s && e.end_s)
        band(measured_at_ + *e.start_s, measured_at_ + *e.end_s, "slowdown -" + human::known_as(e.max_drop_pct, "{:.0f}") + "%", "#f8d0d0");
    for (const auto& s : device.watchdog.stalls)
      if (s.test == test.id && s.submit_s) {
        const std::string label = "stall " + human::known(s.out_s, human::duration_s);
        // submit_s counts from the workload's start, its ramp included.
        const double x = std::max(0.0, measured_at_ - ramp_s_ + *s.submit_s);
        iops_.vlines.push_back({x, label, "#a00"});
        lat_.vlines.push_back({x, label, "#a00"});
      }
  }

  std::pair<Plot, Plot> take() { return {std::move(iops_), std::move(lat_)}; }

 private:
  void band(double a, double b, const std::string& label, const char* color) {
    iops_.bands.push_back({a, b, label, color});
    lat_.bands.push_back({a, b, "", color});
  }

  // The rounds as steps. A round's length: exact when the result is the window (its intervals are
  // the window's rounds); otherwise the workload's runtime, the length each round is capped at.
  void rounds(const SteadyStateView& ss, const std::optional<double>& window_rounds, double measured_s) {
    const auto& rounds = ss.rounds;
    const bool is_window = window_rounds && *window_rounds > 0 && measured_s > 0;
    const double round_s = is_window ? measured_s / *window_rounds : std::max(w_.runtime_s.value_or(0), 1e-3);
    PlotSeries ri{"rounds", "#2ca02c", {}}, rl{"round mean latency", "#2ca02c", {}};
    ri.step = rl.step = true;
    for (size_t i = 0; i <= rounds.size(); ++i) {
      const RoundView& r = rounds[std::min(i, rounds.size() - 1)];
      add_point(ri, cursor_ + static_cast<double>(i) * round_s, r.iops);
      add_point(rl, cursor_ + static_cast<double>(i) * round_s, r.lat_mean_us, 1e3);
    }
    band(cursor_, cursor_ + static_cast<double>(rounds.size()) * round_s, ss.workload.empty() ? "rounds" : "rounds at " + ss.workload,
         "#f4faf4");
    if (ss.window && ss.window->first_round) {
      const double a = cursor_ + *ss.window->first_round * round_s, b = a + ss.window->rounds.value_or(0) * round_s;
      band(a, b, ss.attained ? "steady-state window" : "last rounds (NOT steady)", ss.attained ? "#dff0d8" : "#fbe3c9");
      if (is_window) measured_at_ = a;
    }
    if (!is_window) measured_at_ = cursor_ + static_cast<double>(rounds.size()) * round_s + ramp_s_;
    iops_.series.push_back(std::move(ri));
    lat_.series.push_back(std::move(rl));
    if (!is_window && ramp_s_ > 0) band(measured_at_ - ramp_s_, measured_at_, "ramp", "#f0f0f0");
  }

  const WorkloadView& w_;
  Plot iops_, lat_;
  double ramp_s_ = 0;
  double cursor_ = 0;       // where the phase being drawn starts on the axis
  double measured_at_ = 0;  // where the measured intervals start
  bool rounds_ = false;     // the workload ran steady-state rounds
};

}  // namespace

std::pair<Plot, Plot> timeline_plots(const WorkloadView& w, const TestView& test, const DeviceView& device) {
  static const ResultView kNotRun;
  const ResultView& res = w.result ? *w.result : kNotRun;
  TimelineBuilder t(w);
  t.warmup();
  t.rounds_or_ramp(res);
  t.measured(res);
  t.marks(test, device);
  return t.take();
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
    if (!pt.iops) continue;  // a step the report holds no IOPS for has no place on the x axis
    if (pt.lat_mean_us) {
      mean.points.emplace_back(*pt.iops, *pt.lat_mean_us * 1e3);
      mean.point_labels.push_back(human::known_as(pt.outstanding));
    }
    add_point(p99, *pt.iops, pt.lat_p99_us, 1e3);
  }
  if (const auto k = w.sweep->knee; k && pts[*k].iops && pts[*k].lat_mean_us) {
    const SweepPointView& kp = pts[*k];
    p.markers.push_back({*kp.iops, *kp.lat_mean_us * 1e3,
                         fmt::format("knee: {} at {} outstanding", human::iops(*kp.iops), human::known_as(kp.outstanding)), "#000"});
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
    if (!s.t_s) continue;  // a sample the report does not place in time is not drawn
    if (s.temperature_c) t.points.emplace_back(*s.t_s, *s.temperature_c);
    if (s.thermal_transitions) {
      if (last_transitions >= 0 && *s.thermal_transitions > last_transitions) p.vlines.push_back({*s.t_s, "throttled", "#a60"});
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
