// fio's histogram log (write_hist_log, log_hist_msec), the file fiologparser_hist.py reads:
// NAME_clat_hist.1.log, one line per window and direction, "time, direction, block size, bin0, ...,
// bin1855": time in ms from the start of the measured window at the window's end, then the
// window's own latency counts in fio's 1856 plat bins (runner/io/fio_plat.hpp), as fio 3.33 writes
// them. The counts come from the engine's interval sampler (no work on the hot path) and the lines
// are streamed to the claimed file as the run goes, so memory stays bounded however long it runs.
// A window is whole intervals: it closes at the first interval end at or past its length.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "common/error.hpp"
#include "runner/io/engine.hpp"
#include "runner/io/fio_plat.hpp"
#include "runner/report/report_file.hpp"

namespace diskvet::runner {

std::string fio_hist_log_path(const std::string& name);

// One line of the log.
std::string fio_hist_line(uint64_t t_ms, Direction d, uint32_t bs_bytes, const FioPlatBins& bins);

class FioHistLog final : public IntervalLatencyObserver {
 public:
  // `out` must outlive the log; `window_s` is log_hist_msec; lines are written for the directions
  // the workload does, every window, as fio does.
  FioHistLog(ClaimedOutput& out, double window_s, const Workload& w);
  void on_interval_latency(const IntervalSample& sample, const IntervalLatencyTotals& latency) override;
  // Writes the last, partial window and puts the file in place; the first write error, if any.
  Status finish();

 private:
  void close_window();
  ClaimedOutput& out_;
  double window_s_ = 1;
  uint32_t bs_bytes_ = 0;
  std::array<bool, kDirections> logged_{};
  std::array<FioPlatBins, kDirections> window_{};
  double window_end_s_ = 0;  // end of the last interval taken into the open window
  bool open_ = false;
  std::string pending_;
  Status error_ = ok_status();
};

}  // namespace diskvet::runner
