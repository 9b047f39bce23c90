// SNIA PTS steady-state criteria: excursion and least-squares slope over the last rounds.
#include "runner/analysis/steady_state.hpp"

#include <algorithm>
#include <cmath>

namespace diskvet::runner {

WindowAssessment assess_window(std::span<const double> v, const SteadyCriteria& c, size_t first_round) {
  WindowAssessment a;
  a.first_round = first_round;
  a.rounds = v.size();
  if (v.empty()) return a;
  double sum = 0;
  for (double x : v) sum += x;
  const double n = static_cast<double>(v.size());
  a.mean = sum / n;
  auto [mn, mx] = std::minmax_element(v.begin(), v.end());
  a.min = *mn, a.max = *mx;
  // Least-squares line y = a + b x over x = 0..n-1 (PTS 2.1: "best linear curve fit").
  const double x_mean = (n - 1) / 2;
  double sxy = 0, sxx = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    double dx = static_cast<double>(i) - x_mean;
    sxy += dx * (v[i] - a.mean);
    sxx += dx * dx;
  }
  a.slope_per_round = sxx > 0 ? sxy / sxx : 0;
  if (a.mean > 0) {
    a.excursion_pct = (a.max - a.min) / a.mean * 100;
    a.slope_change_pct = std::fabs(a.slope_per_round) * (n - 1) / a.mean * 100;
  } else {
    // A series of zeros is flat but meaningless: never steady.
    a.excursion_pct = a.slope_change_pct = INFINITY;
  }
  a.excursion_ok = !c.check_excursion || a.excursion_pct <= c.max_excursion_pct;
  a.slope_ok = a.slope_change_pct <= c.max_slope_pct;
  a.steady = v.size() >= 2 && a.mean > 0 && a.excursion_ok && a.slope_ok;
  return a;
}

SteadyStateResult detect_steady_state(std::span<const double> rounds, const SteadyCriteria& c) {
  SteadyStateResult r;
  const size_t w = std::max<size_t>(c.window_rounds, 2);
  const size_t limit = std::min(rounds.size(), c.max_rounds);
  r.rounds_used = limit;
  for (size_t end = w; end <= limit; ++end) {
    WindowAssessment a = assess_window(rounds.subspan(end - w, w), c, end - w);
    r.history.push_back(a);
    r.window = a;
    if (a.steady) {
      r.attained = true;
      r.rounds_used = end;
      return r;
    }
  }
  return r;
}

}  // namespace diskvet::runner
