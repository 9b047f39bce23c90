// fio's log files: names and fio 3.33's windowed line format from the interval series, and the
// histogram log's lines from the interval sampler's counts.
#include "runner/report/fio_logs.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "runner/report/fio_hist_log.hpp"

using namespace diskvet::runner;

namespace {

Measurement two_windows() {
  Measurement m;
  IntervalSample s;
  s.dur_s = 0.5;
  s.ios = {1000, 0};
  s.bytes = {1000 * 4096, 0};
  s.lat_sum_ns = {1000 * 80'000, 0};
  m.intervals.push(s);
  s.t_s = 0.5;
  s.ios = {500, 250};
  s.bytes = {500 * 4096, 250 * 4096};
  s.lat_sum_ns = {500 * 90'000, 250 * 200'000};
  m.intervals.push(s);
  return m;
}

}  // namespace

TEST(FioLogs, NamesAreFiosPerOption) {
  const auto files = fio_log_files(FioLogNames{"a", "b", "c"});
  ASSERT_EQ(files.size(), 5u);
  EXPECT_EQ(files[0].path, "a_bw.1.log");
  EXPECT_EQ(files[1].path, "b_iops.1.log");
  EXPECT_EQ(files[2].path, "c_lat.1.log");
  EXPECT_EQ(files[3].path, "c_clat.1.log");
  EXPECT_EQ(files[4].path, "c_slat.1.log");
  EXPECT_STREQ(files[4].option, "--write_lat_log");
  EXPECT_TRUE(fio_log_files(FioLogNames{}).empty());
}

TEST(FioLogs, EachWindowGivesALinePerDirectionThatDidIo) {
  const Measurement m = two_windows();
  // KiB/s: 1000 x 4 KiB in 0.5 s = 8000 KiB/s.
  EXPECT_EQ(render_fio_log(m, FioLogKind::bw), "500, 8000, 0, 0, 0\n1000, 4000, 0, 0, 0\n1000, 2000, 1, 0, 0\n");
  EXPECT_EQ(render_fio_log(m, FioLogKind::iops), "500, 2000, 0, 0, 0\n1000, 1000, 0, 0, 0\n1000, 500, 1, 0, 0\n");
  EXPECT_EQ(render_fio_log(m, FioLogKind::lat), "500, 80000, 0, 0, 0\n1000, 90000, 0, 0, 0\n1000, 200000, 1, 0, 0\n");
  EXPECT_EQ(render_fio_log(m, FioLogKind::clat), render_fio_log(m, FioLogKind::lat));
  EXPECT_EQ(render_fio_log(m, FioLogKind::slat), "");  // not measured
}

TEST(FioHistLog, ALineIsTimeDirectionBlockSizeAndFiosBins) {
  FioPlatBins bins{};
  bins[fio_plat_index(100)] = 3;
  bins[kFioPlatNr - 1] = 1;
  const std::string line = fio_hist_line(500, Direction::write, 4096, bins);
  EXPECT_EQ(line.rfind("500, 1, 4096, 0, ", 0), 0u) << line.substr(0, 40);
  EXPECT_EQ(std::count(line.begin(), line.end(), ','), 3 + 1856 - 1);
  EXPECT_EQ(line.substr(line.size() - 4), ", 1\n");
  EXPECT_EQ(fio_hist_log_path("x/job"), "x/job_clat_hist.1.log");
}

TEST(FioHistLog, AWindowOfTwoIntervalsSumsTheirCountsAndTheLastPartialOneIsWritten) {
  const std::string dir = ::testing::TempDir() + "fio-hist-log-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string path = fio_hist_log_path(dir + "/job");
  {
    auto out = claim_output(path, "--write_hist_log");
    ASSERT_TRUE(out);
    Workload w;
    w.rw = Pattern::randread;
    w.bs_bytes = 8192;
    FioHistLog log(*out, 1.0, w);
    for (int i = 0; i < 3; ++i) {  // intervals of 0.5 s: [0, 0.5), [0.5, 1), [1, 1.3)
      IntervalSample s;
      s.t_s = 0.5 * i;
      s.dur_s = i < 2 ? 0.5 : 0.3;
      IntervalLatencyTotals lat;
      for (int k = 0; k <= i; ++k) lat.dir[0].record(1000);
      log.on_interval_latency(s, lat);
    }
    ASSERT_TRUE(log.finish());
  }
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::filesystem::remove_all(dir);
  ASSERT_EQ(lines.size(), 2u);  // a read-only workload: read lines only
  auto count_at = [](const std::string& l, unsigned idx) {
    std::stringstream ss(l);
    std::string f;
    for (unsigned i = 0; i <= idx + 3; ++i) std::getline(ss, f, ',');
    return std::stoull(f);
  };
  EXPECT_EQ(lines[0].rfind("1000, 0, 8192, ", 0), 0u);
  EXPECT_EQ(count_at(lines[0], fio_plat_index(1000)), 3u);  // 1 + 2
  EXPECT_EQ(lines[1].rfind("1300, 0, 8192, ", 0), 0u);
  EXPECT_EQ(count_at(lines[1], fio_plat_index(1000)), 3u);
}

TEST(FioLogs, RunLogsAreNamedByDeviceSerialTestAndWorkload) {
  RunResult r;
  DeviceResult d;
  d.device.path = "/dev/nvme0n1";
  d.device.serial = "S4EW 12/3";
  TestRecord t;
  t.id = "latency-qd1";
  WorkloadRecord skipped;  // never ran: no logs
  WorkloadRecord ran;
  ran.ran = true;
  ran.workload.rw = Pattern::randwrite;
  ran.workload.bs_bytes = 4096;
  ran.result = two_windows();
  t.workloads = {skipped, ran};
  d.tests.push_back(t);
  r.devices.push_back(d);
  const auto logs = run_fio_logs(r);
  ASSERT_EQ(logs.size(), 5u);
  EXPECT_EQ(logs[0].file_name, "nvme0n1-S4EW-12-3_latency-qd1_2-randwrite-4KiB_bw.1.log");
  EXPECT_EQ(logs[0].text, render_fio_log(ran.result, FioLogKind::bw));
  EXPECT_EQ(logs[4].file_name, "nvme0n1-S4EW-12-3_latency-qd1_2-randwrite-4KiB_slat.1.log");
}
