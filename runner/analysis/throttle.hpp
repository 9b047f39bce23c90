// Throttling detection: a run of intervals whose IOPS fall more than drop_pct below the rolling
// median of the intervals before them, lasting at least min_duration_s, is a slowdown event. Each
// event is then set beside the health series (temperature, thermal-management transitions) to say
// what it most likely was. Pure functions over series: tests feed synthetic ones.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace diskvet::runner {

struct SlowdownCriteria {
  double drop_pct = 30;          // below the rolling median by more than this
  double min_duration_s = 10;    // for at least this long
  size_t median_window = 60;     // intervals of normal speed the median is taken over
  size_t min_baseline = 5;       // intervals needed before anything is judged
};

// One health poll, as the throttling correlation needs it.
struct HealthPoint {
  double t_s = 0;
  std::optional<double> temperature_c;
  std::optional<uint32_t> thermal_transitions;
  std::optional<double> warning_temp_c;
};

struct SlowdownEvent {
  double start_s = 0;
  double end_s = 0;            // end of the last slow interval
  double median_iops = 0;      // the baseline it fell from
  double min_iops = 0;
  double max_drop_pct = 0;
  bool recovered = false;      // IOPS came back before the series ended
  std::string cause;           // "stall", "thermal throttling", "write cache exhausted", "unexplained"
  std::string evidence;        // what in the health series says so
  std::optional<double> max_temp_c;
  std::optional<uint32_t> thermal_transitions;  // new during the event (from the polls around it)
  double duration_s() const { return end_s - start_s; }
};

// `iops[i]` covers [t_s[i], t_s[i] + dur_s[i]).
std::vector<SlowdownEvent> detect_slowdowns(std::span<const double> t_s, std::span<const double> dur_s, std::span<const double> iops,
                                            const SlowdownCriteria& c);

// At or below this share of the baseline (and at most 1 IOPS when the baseline is small) an interval
// moved next to nothing: the device held its I/Os.
inline constexpr double kStallFraction = 0.01;
bool near_zero(double iops, double baseline_iops);

// Fills cause, evidence, max_temp_c and thermal_transitions from the evidence, in this order:
//   stall               an interval at zero or near-zero IOPS (no cache or heat explains that)
//   thermal throttling  new thermal-management transitions, or the warning temperature reached
//   write cache exhausted  the workload wrote, slowed and stayed slow at a non-zero rate, no heat
//   unexplained         none of the above: the report says what was seen and claims no cause
// `writes`: whether the workload wrote.
void explain_slowdown(SlowdownEvent& e, std::span<const HealthPoint> health, bool writes);

}  // namespace diskvet::runner
