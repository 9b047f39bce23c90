// fio's histogram log, streamed from the interval sampler.
#include "runner/report/fio_hist_log.hpp"

#include <fmt/format.h>

#include <cmath>

namespace diskvet::runner {

namespace {

constexpr size_t kFlushBytes = 256 * 1024;  // written out in pieces of about this size

}  // namespace

std::string fio_hist_log_path(const std::string& name) { return fmt::format("{}_clat_hist.1.log", name); }

std::string fio_hist_line(uint64_t t_ms, Direction d, uint32_t bs_bytes, const FioPlatBins& bins) {
  std::string line = fmt::format("{}, {}, {}", t_ms, static_cast<int>(d), bs_bytes);
  for (uint64_t n : bins) fmt::format_to(std::back_inserter(line), ", {}", n);
  line += '\n';
  return line;
}

FioHistLog::FioHistLog(ClaimedOutput& out, double window_s, const Workload& w)
    : out_(out), window_s_(window_s), bs_bytes_(w.bs_bytes), logged_{reads(w.rw), writes(w.rw)} {}

void FioHistLog::on_interval_latency(const IntervalSample& sample, const IntervalLatencyTotals& latency) {
  for (size_t d = 0; d < kDirections; ++d) {
    const FioPlatBins bins = to_fio_plat(latency.dir[d]);
    for (unsigned i = 0; i < kFioPlatNr; ++i) window_[d][i] += bins[i];
  }
  open_ = true;
  window_end_s_ = sample.t_s + sample.dur_s;
  // A window of whole intervals: closed once it is at least window_s long (1 us of slack for the
  // sampler's own timing).
  const double start_s = std::floor(sample.t_s / window_s_ + 1e-6) * window_s_;
  if (window_end_s_ - start_s >= window_s_ - 1e-6) close_window();
}

void FioHistLog::close_window() {
  const auto t_ms = static_cast<uint64_t>(std::llround(window_end_s_ * 1000));
  for (size_t d = 0; d < kDirections; ++d)
    if (logged_[d]) pending_ += fio_hist_line(t_ms, static_cast<Direction>(d), bs_bytes_, window_[d]);
  window_ = {};
  open_ = false;
  if (pending_.size() >= kFlushBytes && error_) {
    error_ = out_.append(pending_);
    pending_.clear();
  }
}

Status FioHistLog::finish() {
  if (open_) close_window();
  if (!error_) return error_;
  return out_.commit(pending_);
}

}  // namespace diskvet::runner
