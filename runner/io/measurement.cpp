// Derived figures of a Measurement and the bounded interval series.
#include "runner/io/measurement.hpp"

#include <algorithm>
#include <cmath>

namespace diskvet::runner {

namespace {
// Adds the next interval `n` to `m`, which ends where `n` starts.
void merge_into(IntervalSample& m, const IntervalSample& n) {
  m.dur_s += n.dur_s;
  for (size_t d = 0; d < kDirections; ++d) {
    m.ios[d] += n.ios[d];
    m.bytes[d] += n.bytes[d];
    m.lat_sum_ns[d] += n.lat_sum_ns[d];
    m.lat_samples[d] += n.lat_samples[d];
    // The pair's exact p99 is gone with its buckets: the larger one bounds it from above.
    m.lat_p99_ns[d] = std::max(m.lat_p99_ns[d], n.lat_p99_ns[d]);
  }
  m.total_lat_p99_ns = std::max(m.total_lat_p99_ns, n.total_lat_p99_ns);
}
}  // namespace

double ramp_bucket_s(double ramp_s, double interval_s) {
  const double want = std::max(interval_s, ramp_s / static_cast<double>(kMaxRampSamples));
  if (want <= interval_s) return interval_s;
  for (double decade = 1e-3;; decade *= 10)
    for (double f : {1.0, 2.0, 5.0})
      if (f * decade >= want * (1 - 1e-9)) return f * decade;
}

void IntervalSeries::push(const IntervalSample& s) {
  // The statistics first, from the interval as measured: decimation never touches them.
  if (pushed_++ == 0) nominal_dur_s_ = s.dur_s;
  if (s.dur_s >= 0.9 * nominal_dur_s_)
    for (size_t d = 0; d < kDirections; ++d) iops_[d].add(s.iops(Direction(d)));
  keep(s);
}

void IntervalSeries::append(const IntervalSeries& later, double t_offset_s) {
  // The statistics exactly, whatever either series kept for plots.
  if (pushed_ == 0) nominal_dur_s_ = later.nominal_dur_s_;
  pushed_ += later.pushed_;
  for (size_t d = 0; d < kDirections; ++d) iops_[d].merge(later.iops_[d]);
  for (IntervalSample s : later.samples_) {
    s.t_s += t_offset_s;
    keep(s);
  }
}

void IntervalSeries::keep(const IntervalSample& s) {
  // The kept samples, each holding merge_factor_ intervals (the last one may still be filling).
  if (!samples_.empty() && last_fill_ < merge_factor_) {
    merge_into(samples_.back(), s);
    ++last_fill_;
    return;
  }
  if (samples_.size() == kMaxSamples) {
    std::vector<IntervalSample> halved;
    halved.reserve(kMaxSamples);
    for (size_t i = 0; i + 1 < samples_.size(); i += 2) {
      halved.push_back(samples_[i]);
      merge_into(halved.back(), samples_[i + 1]);
    }
    samples_ = std::move(halved);
    merge_factor_ *= 2;
  }
  samples_.push_back(s);
  last_fill_ = 1;
}

double Measurement::ios_per_syscall() const {
  return syscalls ? static_cast<double>(ios_issued) / static_cast<double>(syscalls) : 0;
}

double Measurement::cpu_ns_per_io() const {
  uint64_t n = total_ios();
  return n ? (usr_cpu_s + sys_cpu_s) * 1e9 / static_cast<double>(n) : 0;
}

double Measurement::mean_outstanding() const {
  double sum = 0;
  for (size_t d = 0; d < kDirections; ++d) sum += iops(Direction(d)) * dir[d].lat.mean_ns() / 1e9;
  return sum;
}

size_t excuse_paused_stalls(std::vector<Stall>& stalls, const std::vector<Pause>& pauses, double timeout_s) {
  if (pauses.empty()) return 0;
  const auto explained = [&](const Stall& st) {
    const double from = st.submit_s, to = st.submit_s + st.out_s;
    double paused = 0;
    for (const Pause& p : pauses) paused += std::max(0.0, std::min(to, p.at_s + p.dur_s) - std::max(from, p.at_s));
    return st.out_s - paused <= timeout_s;
  };
  const auto removed = std::erase_if(stalls, explained);
  return static_cast<size_t>(removed);
}

}  // namespace diskvet::runner
