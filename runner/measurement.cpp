// Derived figures of a Measurement and the bounded interval series.
#include "runner/measurement.hpp"

#include <algorithm>
#include <cmath>

namespace diskvet::runner {

void IntervalSeries::push(const IntervalSample& s) {
  if (samples_.size() == kMaxSamples) {
    std::vector<IntervalSample> halved;
    halved.reserve(kMaxSamples);
    for (size_t i = 0; i + 1 < samples_.size(); i += 2) {
      IntervalSample m = samples_[i];
      const IntervalSample& n = samples_[i + 1];
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
      halved.push_back(m);
    }
    samples_ = std::move(halved);
  }
  samples_.push_back(s);
}

namespace {
// Full intervals only: the last one is usually short and would skew the deviation.
template <typename F>
void for_full_intervals(const IntervalSeries& series, F&& f) {
  const auto& s = series.samples();
  if (s.empty()) return;
  double nominal = s.front().dur_s;
  for (const auto& x : s)
    if (x.dur_s >= 0.9 * nominal || s.size() == 1) f(x);
}
}  // namespace

double Measurement::iops_mean_over_intervals(Direction d) const {
  double sum = 0;
  size_t n = 0;
  for_full_intervals(intervals, [&](const IntervalSample& x) { sum += x.iops(d), ++n; });
  return n ? sum / static_cast<double>(n) : 0;
}

double Measurement::iops_stddev(Direction d) const {
  double mean = iops_mean_over_intervals(d);
  double sq = 0;
  size_t n = 0;
  for_full_intervals(intervals, [&](const IntervalSample& x) {
    double dv = x.iops(d) - mean;
    sq += dv * dv, ++n;
  });
  return n > 1 ? std::sqrt(sq / static_cast<double>(n)) : 0;
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

}  // namespace diskvet::runner
