// The max-iops knee: a sweep over outstanding I/O stops once IOPS gain less than min_gain_pct per
// step (a plateau while latency grows means a cap was hit); the whole curve is kept.
#pragma once

#include <cstddef>
#include <vector>

#include "runner/run_result.hpp"

namespace diskvet::runner {

// Fills in points.back().gain_pct and says whether the sweep should stop after it.
bool sweep_should_stop(std::vector<SweepPoint>& points, double min_gain_pct);
// The knee: the best point of the curve up to where it stopped rising.
size_t knee_index(const std::vector<SweepPoint>& points);

// Little's law and CPU check for one measurement (see LittleCheck).
LittleCheck little_check(const Measurement& m);

}  // namespace diskvet::runner
