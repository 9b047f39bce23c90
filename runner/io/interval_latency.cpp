// Per-interval latency: differences of the jobs' cumulative histograms, merged, and their percentiles.
#include "runner/io/interval_latency.hpp"

#include <algorithm>
#include <cmath>

#include "runner/io/measurement.hpp"

namespace diskvet::runner {

void LatencyBuckets::record(uint64_t ns) {
  if (ns >= LatencyHistogram::kLimitNs) {
    ++overflow_;
    overflow_max_ns_ = std::max(overflow_max_ns_, ns);
    return;
  }
  ++buckets_[LatencyHistogram::bucket_of(ns)];
}

void LatencyBuckets::merge(const LatencyBuckets& o) {
  for (unsigned i = 0; i < LatencyHistogram::kBuckets; ++i) buckets_[i] += o.buckets_[i];
  overflow_ += o.overflow_;
  overflow_max_ns_ = std::max(overflow_max_ns_, o.overflow_max_ns_);
}

uint64_t LatencyBuckets::count() const {
  uint64_t n = overflow_;
  for (uint64_t b : buckets_) n += b;
  return n;
}

uint64_t LatencyBuckets::percentile_ns(double pct) const {
  const uint64_t n = count();
  if (n == 0) return 0;
  pct = std::clamp(pct, 0.0, 100.0);
  auto rank = static_cast<uint64_t>(std::ceil(pct / 100.0 * static_cast<double>(n)));
  rank = std::clamp<uint64_t>(rank, 1, n);
  uint64_t seen = 0;
  for (unsigned b = 0; b < LatencyHistogram::kBuckets; ++b) {
    seen += buckets_[b];
    if (seen >= rank) return LatencyHistogram::bucket_high(b);
  }
  return std::max(overflow_max_ns_, LatencyHistogram::kLimitNs);
}

void IntervalLatencyTotals::fill(IntervalSample& s) const {
  LatencyBuckets both = dir[0];
  both.merge(dir[1]);
  for (size_t d = 0; d < kDirections; ++d) {
    s.lat_samples[d] = dir[d].count();
    s.lat_p99_ns[d] = dir[d].percentile_ns(99);
  }
  s.total_lat_p99_ns = both.percentile_ns(99);
}

void IntervalLatencyReader::take(const std::array<DirectionResult, kDirections>& job, IntervalLatencyTotals& into) {
  for (size_t d = 0; d < kDirections; ++d) {
    const LatencyHistogram& h = job[d].lat;
    LatencyBuckets& seen = seen_[d];
    LatencyBuckets& out = into.dir[d];
    for (unsigned b = 0; b < LatencyHistogram::kBuckets; ++b) {
      uint64_t now = h.bucket_published(b);
      out.buckets_[b] += now - seen.buckets_[b];
      seen.buckets_[b] = now;
    }
    uint64_t overflow = h.overflow_published();
    out.overflow_ += overflow - seen.overflow_;
    seen.overflow_ = overflow;
  }
}

}  // namespace diskvet::runner
