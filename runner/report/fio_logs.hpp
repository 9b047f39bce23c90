// fio's log files (write_bw_log, write_iops_log, write_lat_log; fio's HOWTO "Log File Formats")
// rendered from a Measurement's interval series, so fio2gnuplot, fio_generate_plots and other
// readers of fio's logs plot diskvet's runs.
//
// A line is "time, value, direction, block size, priority" as fio 3.33 writes a windowed log: time
// in ms from the start of the measured window at the end of the window, the value (bw: KiB/s; iops:
// I/Os per second; lat, clat: mean latency in ns), direction 0 read / 1 write, block size and
// priority 0 (fio writes 0 there for windowed logs). One line per direction that completed I/O in
// the window, read first. diskvet always logs windows (fio's log_avg_msec; the engine's interval),
// never every I/O: the hot path does no logging work, and the lines come from the interval series,
// whose memory is bounded however long the run (IntervalSeries: past 65,536 samples neighbours are
// merged, and a line then covers the merged windows).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runner/io/measurement.hpp"
#include "runner/run/run_result.hpp"

namespace diskvet::runner {

enum class FioLogKind { bw, iops, lat, clat, slat };

// fio's names: write_bw_log=NAME gives NAME_bw.1.log (1: the job number; diskvet's jobs share
// one file per log); write_lat_log=NAME gives NAME_lat.1.log, NAME_clat.1.log and NAME_slat.1.log.
struct FioLogNames {
  std::string bw, iops, lat;  // fio's NAME for each option; empty: not asked for

  bool any() const { return !bw.empty() || !iops.empty() || !lat.empty(); }
};

struct FioLogFile {
  FioLogKind kind = FioLogKind::bw;
  std::string path;
  const char* option = "";  // the option that asked for it, for messages
};

// The files the names ask for, in a fixed order (bw, iops, lat, clat, slat).
std::vector<FioLogFile> fio_log_files(const FioLogNames& names);

// The text of one log. slat is not measured by diskvet (its latency starts just before the submit):
// its file is empty, as fio's is when it records no submission latency.
std::string render_fio_log(const Measurement& m, FioLogKind kind);

// `diskvet run --logs DIR`: every log of every workload that ran, per device and test, named so a
// reader knows which: DEVICE_TEST_N-RW-BS_bw.1.log (DEVICE: the device's kernel name, then its
// serial when it has one; N: the workload's place in the test, from 1), e.g.
// nvme0n1-S4EW123_latency-qd1_1-randread-4KiB_clat.1.log. Each is the workload's measurement the
// verdicts read (a sweep's knee, a steady-state window).
struct NamedLog {
  std::string file_name;  // no directory
  std::string text;
};
std::vector<NamedLog> run_fio_logs(const RunResult& r);

}  // namespace diskvet::runner
