// Percentiles and merging for LatencyHistogram (off the hot path).
#include "runner/io/histogram.hpp"

#include <algorithm>
#include <cmath>

namespace diskvet::runner {

uint64_t LatencyHistogram::bucket_low(unsigned b) {
  if (b < 2 * kSub) return b;  // exact region and the first exponent (width 1)
  unsigned exp = (b >> kSubBits) + kSubBits - 1;
  uint64_t sub = b & (kSub - 1);
  return (uint64_t{kSub} + sub) << (exp - kSubBits);
}

uint64_t LatencyHistogram::bucket_high(unsigned b) {
  if (b < 2 * kSub) return b;
  unsigned exp = (b >> kSubBits) + kSubBits - 1;
  return bucket_low(b) + (uint64_t{1} << (exp - kSubBits)) - 1;
}

void LatencyHistogram::merge(const LatencyHistogram& o) {
  for (unsigned i = 0; i < kBuckets; ++i) buckets_[i] += o.buckets_[i];
  count_ += o.count_;
  overflow_ += o.overflow_;
  sum_ns_ += o.sum_ns_;
  sum_sq_ += o.sum_sq_;
  min_ns_ = std::min(min_ns_, o.min_ns_);
  max_ns_ = std::max(max_ns_, o.max_ns_);
}

double LatencyHistogram::stddev_ns() const {
  if (count_ < 2) return 0.0;
  double n = static_cast<double>(count_);
  double mean = static_cast<double>(sum_ns_) / n;
  double var = sum_sq_ / n - mean * mean;
  return var > 0 ? std::sqrt(var) : 0.0;
}

uint64_t LatencyHistogram::percentile_ns(double pct) const {
  if (count_ == 0) return 0;
  pct = std::clamp(pct, 0.0, 100.0);
  auto rank = static_cast<uint64_t>(std::ceil(pct / 100.0 * static_cast<double>(count_)));
  rank = std::clamp<uint64_t>(rank, 1, count_);
  uint64_t seen = 0;
  for (unsigned b = 0; b < kBuckets; ++b) {
    seen += buckets_[b];
    if (seen >= rank) return std::clamp(bucket_high(b), min_ns(), max_ns_);
  }
  return max_ns_;  // the rank lies among the overflowed samples
}

}  // namespace diskvet::runner
