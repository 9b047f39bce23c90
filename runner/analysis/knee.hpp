// The max-iops knee: a sweep over outstanding I/O stops once IOPS gain less than min_gain_pct per
// step (a plateau while latency grows means a cap was hit); the whole curve is kept.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runner/io/measurement.hpp"

namespace diskvet::runner {

struct SweepPoint {
  uint32_t iodepth = 1;
  uint32_t numjobs = 1;
  uint32_t outstanding = 1;  // iodepth x numjobs
  double iops = 0;
  double lat_mean_us = 0;
  double lat_p99_us = 0;
  double gain_pct = 0;       // over the previous step
};

// Little's law (IOPS x mean latency = outstanding I/Os) and the tool's own CPU: was the runner the bottleneck?
struct LittleCheck {
  double configured_outstanding = 0;
  double measured_outstanding = 0;    // sampled in flight when the engine sampled it, else IOPS x mean latency
  std::optional<double> sampled_inflight;  // mean I/Os in flight, sampled (Measurement::mean_inflight)
  double littles_outstanding = 0;     // IOPS x mean latency
  double job_cpu_busy_pct = 0;  // mean over the job threads
  bool polling = false;         // the jobs poll their completions (spin): busy by design
  bool applies = true;          // false when rate-capped (the queue is not meant to be full)
  bool queue_kept_full = true;
  bool runner_bound = false;
  std::string note;
};

// Fills in points.back().gain_pct and says whether the sweep should stop after it.
bool sweep_should_stop(std::vector<SweepPoint>& points, double min_gain_pct);
// The knee: the best point of the curve up to where it stopped rising.
size_t knee_index(const std::vector<SweepPoint>& points);

// Little's law and CPU check for one measurement (see LittleCheck).
LittleCheck little_check(const Measurement& m);

}  // namespace diskvet::runner
