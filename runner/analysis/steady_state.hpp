// Steady-state detection over a series of round values (SNIA SSS PTS v2.0.2, section 2.1 and 3.3):
// a window of the last N rounds is steady when its excursion and its least-squares slope are small.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace diskvet::runner {

struct SteadyCriteria {
  size_t window_rounds = 5;        // PTS: measurement window of 5 rounds
  size_t max_rounds = 25;          // PTS: at most 25 rounds
  double max_excursion_pct = 20;   // PTS: max - min within the window <= 20% of the window's average
  double max_slope_pct = 10;       // PTS: best-fit line's change across the window <= 10% of the average
  bool check_excursion = true;     // cache warmup uses the slope criterion alone
};

// The figures of one window; `steady` when both criteria hold.
struct WindowAssessment {
  size_t first_round = 0;  // index into the series (0-based) of the window's first round
  size_t rounds = 0;
  double mean = 0;
  double min = 0, max = 0;
  double excursion_pct = 0;     // (max - min) / mean * 100
  double slope_per_round = 0;   // least-squares slope
  double slope_change_pct = 0;  // |slope| x (rounds - 1) / mean * 100: the line's change across the window
  bool excursion_ok = false;
  bool slope_ok = false;
  bool steady = false;
};

struct SteadyStateResult {
  bool attained = false;
  size_t rounds_used = 0;                 // rounds examined (at most max_rounds)
  std::optional<WindowAssessment> window; // the steady window, or the last window examined
  std::vector<WindowAssessment> history;  // one assessment per round from window_rounds on
};

// Assesses exactly the values given as one window.
WindowAssessment assess_window(std::span<const double> window, const SteadyCriteria& c, size_t first_round = 0);

// Scans the series round by round: the first window of `window_rounds` that is steady, looking at no
// more than `max_rounds` rounds. Fewer rounds than a window: not attained.
SteadyStateResult detect_steady_state(std::span<const double> rounds, const SteadyCriteria& c);

}  // namespace diskvet::runner
