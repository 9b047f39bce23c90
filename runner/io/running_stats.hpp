// Exact running statistics of a stream of values: count, sum, min, max and Welford's mean and M2,
// updated in O(1) per value with no memory of the values, so they stay exact however long a run.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace diskvet::runner {

struct RunningStats {
  uint64_t count = 0;
  double sum = 0;
  double mean = 0;
  double m2 = 0;  // sum of squared deviations from the running mean (Welford)
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();

  void add(double x) {
    ++count;
    sum += x;
    // Welford's update: no catastrophic cancellation, unlike sum of squares minus squared sum.
    const double delta = x - mean;
    mean += delta / static_cast<double>(count);
    m2 += delta * (x - mean);
    min = std::min(min, x);
    max = std::max(max, x);
  }
  // Joins the statistics of another stream as if its values had been added here (Chan et al.'s
  // pairwise update of the mean and M2).
  void merge(const RunningStats& o) {
    if (o.count == 0) return;
    if (count == 0) {
      *this = o;
      return;
    }
    const double n = static_cast<double>(count), m = static_cast<double>(o.count);
    const double delta = o.mean - mean;
    mean += delta * m / (n + m);
    m2 += o.m2 + delta * delta * n * m / (n + m);
    count += o.count;
    sum += o.sum;
    min = std::min(min, o.min);
    max = std::max(max, o.max);
  }
  // Population standard deviation (fio's iops_stddev); 0 for fewer than two values.
  double stddev() const { return count > 1 ? std::sqrt(std::max(0.0, m2 / static_cast<double>(count))) : 0; }
  double min_or_0() const { return count ? min : 0; }
  double max_or_0() const { return count ? max : 0; }
};

}  // namespace diskvet::runner
