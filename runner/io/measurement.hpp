// Measurement: what one workload run produced — per-direction counts and latency histograms,
// the interval series, CPU time and the tool's own overhead. A plain value; rendering is elsewhere.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runner/io/histogram.hpp"
#include "runner/io/running_stats.hpp"
#include "runner/io/workload.hpp"
#include "runner/verify/verify_state.hpp"

namespace diskvet::runner {

struct DirectionResult {
  uint64_t ios = 0;
  uint64_t bytes = 0;
  LatencyHistogram lat;  // total latency: submission to reaped completion

  void merge(const DirectionResult& o) {
    ios += o.ios;
    bytes += o.bytes;
    lat.merge(o.lat);
  }
};

// One interval of the series: what completed inside [t_s, t_s + dur_s) of the measured window.
struct IntervalSample {
  double t_s = 0;
  double dur_s = 0;
  std::array<uint64_t, kDirections> ios{};
  std::array<uint64_t, kDirections> bytes{};
  std::array<uint64_t, kDirections> lat_sum_ns{};
  // Latency percentiles of the interval (runner/io/interval_latency.hpp): bucket upper edges, so
  // never below the exact value. lat_samples counts the I/Os they cover (ios but for the few that
  // completed while the sampler read, which fall into the next interval).
  std::array<uint64_t, kDirections> lat_samples{};
  std::array<uint64_t, kDirections> lat_p99_ns{};
  uint64_t total_lat_p99_ns = 0;  // both directions together

  double iops(Direction d) const { return dur_s > 0 ? static_cast<double>(ios[size_t(d)]) / dur_s : 0; }
  double total_iops() const { return dur_s > 0 ? static_cast<double>(ios[0] + ios[1]) / dur_s : 0; }
  double bw_bytes_per_s(Direction d) const { return dur_s > 0 ? static_cast<double>(bytes[size_t(d)]) / dur_s : 0; }
  double mean_lat_ns(Direction d) const {
    return ios[size_t(d)] ? static_cast<double>(lat_sum_ns[size_t(d)]) / static_cast<double>(ios[size_t(d)]) : 0;
  }
};

// The interval series. Statistics of per-interval IOPS are exact running statistics over every
// full interval pushed, however many (a full interval lasts at least 0.9 of the first one's length:
// the last, usually short, one is left out as it would skew the deviation). The samples kept for
// plots and slowdown scans are bounded: past kMaxSamples, neighbouring samples are merged pairwise
// and later intervals are gathered by as many (the resolution halves, evenly over the run), so
// memory stays flat however long a run lasts; each kept sample holds merge_factor() intervals
// (the last one may hold fewer).
class IntervalSeries {
 public:
  static constexpr size_t kMaxSamples = 1 << 16;
  void push(const IntervalSample& s);
  // Joins a series measured after this one (a steady-state window's next round): its statistics
  // exactly, its samples shifted by t_offset_s.
  void append(const IntervalSeries& later, double t_offset_s);
  const std::vector<IntervalSample>& samples() const { return samples_; }
  bool empty() const { return samples_.empty(); }
  size_t size() const { return samples_.size(); }
  // Per-interval IOPS of one direction over every full interval pushed (never decimated).
  const RunningStats& iops_stats(Direction d) const { return iops_[size_t(d)]; }
  uint64_t pushed() const { return pushed_; }
  uint64_t merge_factor() const { return merge_factor_; }

 private:
  void keep(const IntervalSample& s);
  std::vector<IntervalSample> samples_;
  std::array<RunningStats, kDirections> iops_{};
  double nominal_dur_s_ = 0;  // the first interval's length: what a full interval lasts
  uint64_t pushed_ = 0;
  uint64_t merge_factor_ = 1;
  uint64_t last_fill_ = 0;  // intervals in the last kept sample
};

// The ramp's own series (runner/analysis/burst.hpp reads a burst spent there): kept only for a ramp
// of kRampSeriesMinS or longer (shorter ones warm a device, they do not hide a burst), in buckets
// of ramp_bucket_s: the interval, or coarser so that a ramp gives at most kMaxRampSamples (31
// minutes in 5 s buckets), rounded up to 1, 2 or 5 times a power of ten.
inline constexpr double kRampSeriesMinS = 10;
inline constexpr size_t kMaxRampSamples = 400;
double ramp_bucket_s(double ramp_s, double interval_s);

struct IoError {
  Direction dir = Direction::read;
  uint64_t offset_bytes = 0;
  int err = 0;          // errno, or 0 for a short transfer
  int32_t result = 0;   // what the kernel returned
};

// An I/O out longer than the workload's io_timeout_s (DESIGN.md "Engine": every I/O has a deadline).
struct Stall {
  Direction dir = Direction::read;
  uint64_t offset_bytes = 0;
  double submit_s = 0;      // when it was submitted, from the workload's start (ramp included)
  double out_s = 0;         // how long it was out: until it completed, or until the run gave up on it
  bool completed = true;    // false: still out when its job was abandoned
};
inline constexpr size_t kMaxRecordedStalls = 8;
// What each job keeps of the stalls it saw complete, so that those a pause of diskvet itself
// explains can be told apart once the run is over (excuse_paused_stalls); the run keeps the first
// kMaxRecordedStalls of the rest.
inline constexpr size_t kMaxJobStallRecords = 256;

// A time diskvet itself did not run: its sampler woke far past the time it slept to (the process
// was stopped by SIGSTOP or Ctrl-Z, its VM paused, or the host starved it). I/Os out across it are
// not the device's stalls, and their latencies hold the pause.
struct Pause {
  double at_s = 0;   // from the workload's start (ramp included), as a Stall's submit_s
  double dur_s = 0;
};
// The stalls of `stalls` that a pause explains, removed: an I/O whose time out, less the part of it
// diskvet was paused, is within timeout_s. Returns how many were removed.
size_t excuse_paused_stalls(std::vector<Stall>& stalls, const std::vector<Pause>& pauses, double timeout_s);
// How many I/O errors a job, a merge of jobs and a merge of rounds keep, first come first kept.
inline constexpr size_t kMaxRecordedErrors = 8;

struct Measurement {
  Workload workload;
  std::array<DirectionResult, kDirections> dir;
  IntervalSeries intervals;
  // What completed in each bucket of the ramp (not measured; see kRampSeriesMinS), t_s counted
  // from the workload's start; counts only (no latency).
  std::vector<IntervalSample> ramp_intervals;
  double ramp_bucket_s = 0;
  double elapsed_s = 0;     // length of the measured window
  double usr_cpu_s = 0;     // CPU time of the job threads inside the window
  double sys_cpu_s = 0;
  uint64_t syscalls = 0;    // submit/wait system calls inside and outside the window
  uint64_t ios_issued = 0;  // every I/O issued, ramp included
  // Every write issued, ramp and tail included: what the device was sent (the write accounting's
  // count of diskvet's writes, devices/write_accounting.hpp).
  uint64_t write_bytes_issued = 0;
  uint64_t io_errors = 0;
  std::vector<IoError> first_errors;  // at most a few, in order
  bool interrupted = false;           // stopped by a signal or the caller
  // I/Os in flight (submitted, not yet completed), summed over the jobs and sampled by the engine's
  // sampler every few tens of ms over the measured window: what the device actually held.
  uint64_t inflight_samples = 0;
  double inflight_sum = 0;
  std::optional<double> mean_inflight() const {
    return inflight_samples ? std::optional<double>(inflight_sum / static_cast<double>(inflight_samples)) : std::nullopt;
  }
  bool io_limit_reached = false;      // stopped by io_limit_bytes before the runtime ran out
  unsigned uring_setup_flags = 0;
  std::vector<int> job_cpus;          // per job, the CPU it finished on (-1: unknown)
  VerifySummary verify;               // enabled only for verifying workloads
  std::vector<Stall> stalls;          // the first few, completed or not
  uint64_t stall_count = 0;           // every I/O past io_timeout_s
  // An I/O stayed out past io_timeout_s + io_grace_s: the jobs holding one were left behind (their
  // counts are missing here) and the device's run must not go on.
  bool abandoned = false;
  // Times diskvet itself did not run (see Pause): the run's numbers are not the device's alone.
  std::vector<Pause> pauses;

  const DirectionResult& of(Direction d) const { return dir[size_t(d)]; }
  uint64_t total_ios() const { return dir[0].ios + dir[1].ios; }
  double iops(Direction d) const { return elapsed_s > 0 ? static_cast<double>(of(d).ios) / elapsed_s : 0; }
  double total_iops() const { return elapsed_s > 0 ? static_cast<double>(total_ios()) / elapsed_s : 0; }
  double bw_bytes_per_s(Direction d) const { return elapsed_s > 0 ? static_cast<double>(of(d).bytes) / elapsed_s : 0; }
  // Population stddev of per-interval IOPS over every full interval, fio's iops_stddev.
  double iops_stddev(Direction d) const { return intervals.iops_stats(d).stddev(); }
  double iops_mean_over_intervals(Direction d) const { return intervals.iops_stats(d).mean; }
  double ios_per_syscall() const;
  double cpu_ns_per_io() const;
  // Little's law: IOPS x mean latency = mean outstanding I/Os.
  double mean_outstanding() const;
};

}  // namespace diskvet::runner
