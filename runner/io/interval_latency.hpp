// Per-interval latency percentiles at no cost per I/O: the interval sampler reads each job's own
// cumulative histogram while the job records, and subtracts what it saw at the previous interval.
//
// Why this scheme: the job already increments one bucket of its run histogram per I/O; those
// increments are relaxed atomic stores (runner/io/histogram.hpp; single writer, a plain mov on x86),
// so reading them from the sampler needs no lock, flip or handshake, and the job does nothing
// more than before. A bucket only grows and its single writer's stores are seen in order, so the
// difference of two reads counts exactly the I/Os recorded in between: summed over the intervals
// (the last one read after the jobs ended), every I/O is counted once. Buckets are read one after
// another, not at one instant, so an I/O completing during the read may land in the next interval.
// The percentiles have the run histogram's precision: never below the exact value, at most 0.78% above.
#pragma once

#include <array>
#include <cstdint>

#include "runner/io/histogram.hpp"
#include "runner/io/workload.hpp"

namespace diskvet::runner {

struct IntervalSample;
struct DirectionResult;

// Bucket counts of one interval (LatencyHistogram's buckets, without count, min or sums).
class LatencyBuckets {
 public:
  void record(uint64_t ns);
  void merge(const LatencyBuckets& o);
  uint64_t count() const;
  uint64_t bucket(unsigned b) const { return buckets_[b]; }
  uint64_t overflow() const { return overflow_; }
  // Nearest rank, the upper edge of its bucket. A rank past the buckets (an I/O of over 137 s)
  // reports the largest recorded value when record() saw it, else the 137 s limit ("at least").
  uint64_t percentile_ns(double pct) const;

 private:
  friend class IntervalLatencyReader;
  std::array<uint64_t, LatencyHistogram::kBuckets> buckets_{};
  uint64_t overflow_ = 0;
  uint64_t overflow_max_ns_ = 0;
};

// What the sampler gathers from every job for one interval.
struct IntervalLatencyTotals {
  std::array<LatencyBuckets, kDirections> dir;
  uint64_t count() const { return dir[0].count() + dir[1].count(); }
  // Sets the sample's lat_samples, lat_p99_ns per direction and total_lat_p99_ns.
  void fill(IntervalSample& s) const;
};

// The sampler's memory of one job: the cumulative counts it saw last time.
class IntervalLatencyReader {
 public:
  // Adds what `job` (a job's per-direction results, possibly being recorded right now) recorded
  // since the previous call to `into`.
  void take(const std::array<DirectionResult, kDirections>& job, IntervalLatencyTotals& into);

 private:
  std::array<LatencyBuckets, kDirections> seen_;
};

}  // namespace diskvet::runner
