// Log-linear latency histogram in integer nanoseconds: fixed memory, no atomics, mergeable.
//
// Values below 2^kSubBits are counted exactly; above, each power of two is split into 2^kSubBits
// equal sub-buckets, so a bucket is at most 1/128 (0.78%) of its lower edge wide. 3968 buckets of
// 8 bytes (31 KB) cover 1 ns .. 2^37 ns (137 s); larger values are counted as overflow, never
// clamped silently. Exact min, max, sum and sum of squares are kept beside the buckets.
//
// The buckets and the overflow count are written with atomic stores (single writer: a plain mov on
// x86, the same code as a plain increment), so the interval sampler may read them while the job
// records (runner/io/interval_latency.hpp); nothing else is safe to read concurrently.
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <limits>

namespace diskvet::runner {

class LatencyHistogram {
 public:
  static constexpr unsigned kSubBits = 7;
  static constexpr unsigned kSub = 1u << kSubBits;
  static constexpr unsigned kMaxExp = 37;  // values < 2^37 ns are bucketed
  static constexpr unsigned kBuckets = (kMaxExp - kSubBits + 1) * kSub;
  static constexpr uint64_t kLimitNs = uint64_t{1} << kMaxExp;

  // Hot path: a handful of integer instructions, no branches beyond the overflow check.
  void record(uint64_t ns) {
    ++count_;
    sum_ns_ += ns;
    sum_sq_ += static_cast<double>(ns) * static_cast<double>(ns);
    if (ns < min_ns_) min_ns_ = ns;
    if (ns > max_ns_) max_ns_ = ns;
    if (ns >= kLimitNs) [[unlikely]] {
      publish(overflow_, observe(overflow_) + 1);
      return;
    }
    uint64_t& b = buckets_[bucket_of(ns)];
    publish(b, observe(b) + 1);
  }
  // For a reader on another thread while the owner records: each value on its own, so a bucket read
  // twice counts exactly what was recorded into it in between.
  uint64_t bucket_published(unsigned b) const { return observe(buckets_[b]); }
  uint64_t overflow_published() const { return observe(overflow_); }

  static unsigned bucket_of(uint64_t ns) {
    if (ns < kSub) return static_cast<unsigned>(ns);
    unsigned exp = 63u - static_cast<unsigned>(std::countl_zero(ns));  // floor(log2 ns), >= kSubBits
    unsigned shift = exp - kSubBits;
    return ((exp - kSubBits + 1) << kSubBits) + static_cast<unsigned>((ns >> shift) & (kSub - 1));
  }
  // Smallest and largest value that fall into bucket b (inclusive).
  static uint64_t bucket_low(unsigned b);
  static uint64_t bucket_high(unsigned b);

  void merge(const LatencyHistogram& other);
  void reset() { *this = LatencyHistogram{}; }

  uint64_t count() const { return count_; }
  uint64_t overflow() const { return overflow_; }
  uint64_t min_ns() const { return count_ ? min_ns_ : 0; }
  uint64_t max_ns() const { return max_ns_; }
  uint64_t sum_ns() const { return sum_ns_; }
  double mean_ns() const { return count_ ? static_cast<double>(sum_ns_) / static_cast<double>(count_) : 0.0; }
  double stddev_ns() const;  // population stddev, as fio reports it

  // Nearest-rank percentile (0 < pct <= 100): the upper edge of the bucket holding the sample of
  // rank ceil(pct/100 * N), clamped to [min, max]. Never below the exact value, at most 0.78% above.
  // Samples in overflow make high percentiles report max (exact).
  uint64_t percentile_ns(double pct) const;

 private:
  static void publish(uint64_t& field, uint64_t value) { std::atomic_ref<uint64_t>(field).store(value, std::memory_order_relaxed); }
  static uint64_t observe(const uint64_t& field) {
    return std::atomic_ref<uint64_t>(const_cast<uint64_t&>(field)).load(std::memory_order_relaxed);
  }

  alignas(std::atomic_ref<uint64_t>::required_alignment) std::array<uint64_t, kBuckets> buckets_{};
  uint64_t count_ = 0;
  alignas(std::atomic_ref<uint64_t>::required_alignment) uint64_t overflow_ = 0;
  uint64_t sum_ns_ = 0;
  double sum_sq_ = 0;
  uint64_t min_ns_ = std::numeric_limits<uint64_t>::max();
  uint64_t max_ns_ = 0;
};

}  // namespace diskvet::runner
