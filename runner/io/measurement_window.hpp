// The SNIA PTS measurement window as one Measurement: the rounds that met the steady-state criteria
// (PTS v2.0.2 2.1: "the interval, measured in Rounds, ... bounded by Round x and Round x-4"),
// averaged. The verdicts read it; no new window is measured after steady state.
#pragma once

#include <deque>
#include <span>

#include "runner/io/measurement.hpp"

namespace diskvet::runner {

// The rounds joined into one measurement: counts, bytes, latency histograms, CPU and syscalls
// summed, so IOPS and bandwidth are the window's averages (rounds of equal length weigh equally)
// and latency percentiles cover every I/O of the window. The interval series runs on across the
// rounds. Errors, stalls and verification of every round count. Empty input: an empty measurement.
Measurement merge_rounds(std::span<const Measurement> rounds);

// The last `capacity` rounds of a workload, oldest first: the candidate measurement window.
class RoundWindow {
 public:
  explicit RoundWindow(size_t capacity) : capacity_(capacity) {}
  void push(Measurement m) {
    rounds_.push_back(std::move(m));
    while (rounds_.size() > capacity_) rounds_.pop_front();
  }
  size_t size() const { return rounds_.size(); }
  // The last n rounds merged (all of them when fewer were kept).
  Measurement merged_last(size_t n) const;

 private:
  size_t capacity_;
  std::deque<Measurement> rounds_;
};

}  // namespace diskvet::runner
