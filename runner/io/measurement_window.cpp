// Joining the rounds of a steady-state measurement window.
#include "runner/io/measurement_window.hpp"

#include <algorithm>
#include <vector>

namespace diskvet::runner {

Measurement merge_rounds(std::span<const Measurement> rounds) {
  Measurement w;
  if (rounds.empty()) return w;
  w.workload = rounds.front().workload;
  w.uring_setup_flags = rounds.front().uring_setup_flags;
  double t0 = 0;
  for (const Measurement& r : rounds) {
    for (size_t d = 0; d < kDirections; ++d) w.dir[d].merge(r.dir[d]);
    w.intervals.append(r.intervals, t0);
    t0 += r.elapsed_s;
    w.elapsed_s += r.elapsed_s;
    w.usr_cpu_s += r.usr_cpu_s;
    w.sys_cpu_s += r.sys_cpu_s;
    w.syscalls += r.syscalls;
    w.ios_issued += r.ios_issued;
    w.write_bytes_issued += r.write_bytes_issued;
    w.io_errors += r.io_errors;
    for (const auto& e : r.first_errors)
      if (w.first_errors.size() < kMaxRecordedErrors) w.first_errors.push_back(e);
    w.interrupted = w.interrupted || r.interrupted;
    w.inflight_samples += r.inflight_samples;
    w.inflight_sum += r.inflight_sum;
    w.io_limit_reached = w.io_limit_reached || r.io_limit_reached;
    w.verify.merge(r.verify);
    for (const auto& s : r.stalls)
      if (w.stalls.size() < kMaxRecordedStalls) w.stalls.push_back(s);
    w.stall_count += r.stall_count;
    w.abandoned = w.abandoned || r.abandoned;
    w.job_cpus = r.job_cpus;
  }
  return w;
}

Measurement RoundWindow::merged_last(size_t n) const {
  n = std::min(n, rounds_.size());
  std::vector<Measurement> last(rounds_.end() - static_cast<std::ptrdiff_t>(n), rounds_.end());
  return merge_rounds(last);
}

}  // namespace diskvet::runner
