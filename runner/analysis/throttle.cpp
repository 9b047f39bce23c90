// Slowdown events from an interval series, and their likely cause from the health polls.
#include "runner/analysis/throttle.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>

namespace diskvet::runner {

namespace {

double median_of(const std::deque<double>& d) {
  std::vector<double> v(d.begin(), d.end());
  auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  if (v.size() % 2) return *mid;
  double hi = *mid;
  double lo = *std::max_element(v.begin(), mid);
  return (lo + hi) / 2;
}

}  // namespace

std::vector<SlowdownEvent> detect_slowdowns(std::span<const double> t_s, std::span<const double> dur_s, std::span<const double> iops,
                                            const SlowdownCriteria& c) {
  std::vector<SlowdownEvent> events;
  // The baseline holds only intervals at normal speed, so a long slowdown cannot drag its own
  // reference down and hide itself.
  std::deque<double> baseline;
  SlowdownEvent ev;
  bool open = false;
  auto close = [&](bool recovered) {
    if (open && ev.duration_s() >= c.min_duration_s) {
      ev.recovered = recovered;
      events.push_back(ev);
    }
    open = false;
  };
  const size_t n = std::min({t_s.size(), dur_s.size(), iops.size()});
  for (size_t i = 0; i < n; ++i) {
    if (baseline.size() < c.min_baseline) {
      baseline.push_back(iops[i]);
      continue;
    }
    double median = median_of(baseline);
    bool slow = median > 0 && iops[i] < median * (1 - c.drop_pct / 100);
    if (slow) {
      double drop = 100 * (1 - iops[i] / median);
      if (!open) {
        ev = SlowdownEvent{};
        ev.start_s = t_s[i];
        ev.median_iops = median;
        ev.min_iops = iops[i];
        open = true;
      }
      ev.end_s = t_s[i] + dur_s[i];
      ev.min_iops = std::min(ev.min_iops, iops[i]);
      ev.max_drop_pct = std::max(ev.max_drop_pct, drop);
      continue;
    }
    close(true);
    baseline.push_back(iops[i]);
    if (baseline.size() > c.median_window) baseline.pop_front();
  }
  close(false);
  return events;
}

bool near_zero(double iops, double baseline_iops) { return iops <= std::max(1.0, baseline_iops * kStallFraction); }

void explain_slowdown(SlowdownEvent& e, std::span<const HealthPoint> health, bool writes) {
  // The polls that bracket the event: the last one before it and every one up to its end.
  std::optional<uint32_t> tt_before, tt_after;
  std::optional<double> warning;
  for (const auto& h : health) {
    if (h.warning_temp_c) warning = h.warning_temp_c;
    if (h.t_s <= e.start_s && h.thermal_transitions) tt_before = h.thermal_transitions;
    if (h.t_s >= e.start_s && h.t_s <= e.end_s + 1e-9) {
      if (h.temperature_c) e.max_temp_c = std::max(e.max_temp_c.value_or(*h.temperature_c), *h.temperature_c);
      if (h.thermal_transitions) tt_after = h.thermal_transitions;
    }
    if (h.t_s > e.end_s && !tt_after && h.thermal_transitions) tt_after = h.thermal_transitions;
  }
  if (tt_before && tt_after && *tt_after >= *tt_before) e.thermal_transitions = *tt_after - *tt_before;
  const bool hot = e.max_temp_c && warning && *e.max_temp_c >= *warning;
  const bool transitions = e.thermal_transitions && *e.thermal_transitions > 0;
  const std::string heat = e.max_temp_c ? fmt::format("no thermal sign (at most {:.0f} C)", *e.max_temp_c) : "no thermal sign (temperature unknown)";
  if (near_zero(e.min_iops, e.median_iops)) {
    e.cause = "stall";
    e.evidence = fmt::format("IOPS fell to {:.1f} from {:.0f}: the device held its I/Os{}", e.min_iops, e.median_iops,
                             transitions || hot ? "" : "; " + heat);
  } else if (transitions || hot) {
    e.cause = "thermal throttling";
    e.evidence = transitions ? fmt::format("{} new thermal-management transitions", *e.thermal_transitions)
                             : fmt::format("temperature {:.0f} C reached the warning threshold {:.0f} C", *e.max_temp_c, *warning);
  } else if (writes && !e.recovered) {
    e.cause = "write cache exhausted";
    e.evidence = fmt::format("writes slowed to {:.0f} IOPS and stayed slow, {} (an SLC or DRAM cache filled)", e.min_iops, heat);
  } else {
    e.cause = "unexplained";
    e.evidence = fmt::format("IOPS fell to {:.0f} from {:.0f}{}; {}", e.min_iops, e.median_iops, e.recovered ? " and recovered" : "", heat);
  }
}

}  // namespace diskvet::runner
