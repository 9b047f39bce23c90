// Burst then baseline: a cloud volume with burst credits (or QEMU's throttling.*-max) runs fast
// until its bucket is empty, then drops to its baseline and stays there. Found here as one change
// point in the series of a workload's ramp and measured window: the split that best explains the
// series as two levels (least squares, weighted by interval length), kept only when the level
// before is well above the level after and the split explains most of the variance, so noise or a
// rise is "no step". Pure functions over series: tests feed synthetic ones.
#pragma once

#include <optional>
#include <span>
#include <string>

namespace diskvet::runner {

struct BurstCriteria {
  double min_ratio = 1.5;          // the level before is at least this many times the level after
  double min_explained = 0.6;      // the two levels explain at least this share of the variance
  size_t min_side = 2;             // samples needed on each side of the step
};

struct BurstStep {
  double before_iops = 0;   // the burst's level: median IOPS before the step
  double after_iops = 0;    // the baseline: median IOPS after it
  double before_mb_s = 0;   // the same in MB/s (10^6 bytes), when bandwidth was given
  double after_mb_s = 0;
  double step_s = 0;        // when the step happened, on the series' own time axis
  double burst_s = 0;       // how long the burst lasted: from the series' start to the step
  double explained = 0;     // share of the variance the two levels explain
};

// `iops[i]` (and `bw_bytes[i]`, which may be empty) cover [t_s[i], t_s[i] + dur_s[i]). nullopt: no
// burst-then-baseline step in the series.
std::optional<BurstStep> find_burst_step(std::span<const double> t_s, std::span<const double> dur_s, std::span<const double> iops,
                                         std::span<const double> bw_bytes, const BurstCriteria& c = {});

// "burst of 3000 IOPS for 10 s, then a baseline of 60 IOPS"
std::string describe(const BurstStep& b);

}  // namespace diskvet::runner
