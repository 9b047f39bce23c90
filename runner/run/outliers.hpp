// Identical devices should perform identically: with 3 or more devices of one model, a device more
// than 10% worse than the group's median on a metric is flagged.
#pragma once

#include <vector>

#include "runner/run/run_result.hpp"

namespace diskvet::runner {

inline constexpr size_t kOutlierMinGroup = 3;
inline constexpr double kOutlierWorsePct = 10;

// Fills DeviceResult::outliers. Compares per test and workload: IOPS per direction (higher is
// better) and p99 latency per direction (lower is better).
void flag_outliers(std::vector<DeviceResult>& devices);

}  // namespace diskvet::runner
