// fio's log files from the interval series: fio's names and fio 3.33's windowed line format.
#include "runner/report/fio_logs.hpp"

#include <gtest/gtest.h>

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
