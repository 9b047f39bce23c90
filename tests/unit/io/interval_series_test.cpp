// The interval series over very long runs: every interval counts in the IOPS statistics however
// many there are, while the kept plot samples stay bounded and evenly decimated.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "runner/io/measurement.hpp"
#include "runner/io/measurement_window.hpp"
#include "runner/io/running_stats.hpp"
#include "runner/report/measurement_json.hpp"

using namespace diskvet::runner;

namespace {

// A deterministic, uneven IOPS pattern: a slow drift, a periodic dip and a pseudo-random jitter, so
// every stretch of the run has its own mean and the late intervals differ from the early ones.
uint64_t ios_of(size_t i) {
  uint64_t jitter = (i * 2654435761u) % 997;
  uint64_t dip = (i % 1000) < 50 ? 40'000 : 0;
  return 100'000 + i / 4 + jitter - dip;
}

IntervalSample interval(size_t i, double dur_s = 1.0) {
  IntervalSample s;
  s.t_s = static_cast<double>(i);
  s.dur_s = dur_s;
  s.ios = {ios_of(i), ios_of(i) / 3};
  s.bytes = {s.ios[0] * 4096, s.ios[1] * 4096};
  return s;
}

// Population stddev computed the plain way, two passes in long double, over every value.
long double exact_stddev(const std::vector<long double>& v) {
  long double mean = 0;
  for (auto x : v) mean += x;
  mean /= static_cast<long double>(v.size());
  long double sq = 0;
  for (auto x : v) sq += (x - mean) * (x - mean);
  return std::sqrt(sq / static_cast<long double>(v.size()));
}

}  // namespace

TEST(IntervalSeries, EverySampleCountsInTheIopsStatisticsHoweverLongTheRun) {
  constexpr size_t kIntervals = 250'000;  // almost 3 days of 1 s intervals: decimated twice
  Measurement m;
  std::vector<long double> reads, writes;
  for (size_t i = 0; i < kIntervals; ++i) {
    IntervalSample s = interval(i);
    m.intervals.push(s);
    reads.push_back(static_cast<long double>(s.iops(Direction::read)));
    writes.push_back(static_cast<long double>(s.iops(Direction::write)));
  }
  // A short last interval (the window's end) is left out, as fio leaves out partial ones.
  m.intervals.push(interval(kIntervals, 0.3));

  long double mean = 0;
  for (auto x : reads) mean += x;
  mean /= kIntervals;
  const long double sd_read = exact_stddev(reads), sd_write = exact_stddev(writes);
  EXPECT_NEAR(m.iops_stddev(Direction::read), static_cast<double>(sd_read), 1e-6 * static_cast<double>(sd_read));
  EXPECT_NEAR(m.iops_stddev(Direction::write), static_cast<double>(sd_write), 1e-6 * static_cast<double>(sd_write));
  EXPECT_NEAR(m.iops_mean_over_intervals(Direction::read), static_cast<double>(mean), 1e-9 * static_cast<double>(mean));

  const auto job = job_json(m, "diskvet", "/dev/x");
  const auto& read = job.at("read").as_object();
  EXPECT_EQ(read.at("iops_samples").to_number<uint64_t>(), kIntervals);
  EXPECT_NEAR(read.at("iops_stddev").to_number<double>(), static_cast<double>(sd_read), 1e-6 * static_cast<double>(sd_read));
  EXPECT_EQ(read.at("iops_min").to_number<double>(), static_cast<double>(*std::min_element(reads.begin(), reads.end())));
  EXPECT_EQ(read.at("iops_max").to_number<double>(), static_cast<double>(*std::max_element(reads.begin(), reads.end())));
}

TEST(IntervalSeries, KeptSamplesStayBoundedAndEachHoldsTheSameNumberOfIntervals) {
  constexpr size_t kIntervals = 3 * IntervalSeries::kMaxSamples + 5;
  IntervalSeries series;
  uint64_t total_ios = 0;
  for (size_t i = 0; i < kIntervals; ++i) {
    series.push(interval(i));
    total_ios += ios_of(i);
  }
  EXPECT_LE(series.size(), IntervalSeries::kMaxSamples);
  EXPECT_EQ(series.merge_factor(), 4u);
  EXPECT_EQ(series.pushed(), kIntervals);
  uint64_t kept_ios = 0;
  const auto& s = series.samples();
  for (size_t i = 0; i < s.size(); ++i) {
    kept_ios += s[i].ios[0];
    if (i + 1 < s.size()) {
      ASSERT_EQ(s[i].dur_s, 4.0) << "sample " << i << " of " << s.size();
    }
    if (i > 0) {
      ASSERT_EQ(s[i].t_s, s[i - 1].t_s + s[i - 1].dur_s) << "sample " << i;
    }
  }
  EXPECT_EQ(s.back().dur_s, 1.0);  // 3 x 65,536 + 5 intervals: the last sample holds the 5th alone
  EXPECT_EQ(kept_ios, total_ios);  // merging loses no I/O

  const auto job = job_json([&] {
    Measurement m;
    m.intervals = series;
    return m;
  }(), "diskvet", "/dev/x");
  EXPECT_EQ(job.at("intervals_merged").to_number<uint64_t>(), 4u);
  EXPECT_EQ(job.at("intervals_measured").to_number<uint64_t>(), kIntervals);
}

TEST(IntervalSeries, AMeasurementWindowJoinedFromRoundsKeepsEveryIntervalInItsStatistics) {
  // A steady-state window of three long rounds, each past the kept-sample bound: the joined
  // window's statistics are those of every interval of the three, not of the samples kept for plots.
  constexpr size_t kPerRound = IntervalSeries::kMaxSamples + 1000;
  std::vector<Measurement> rounds(3);
  std::vector<long double> reads;
  size_t i = 0;
  for (auto& r : rounds) {
    for (size_t k = 0; k < kPerRound; ++k, ++i) {
      IntervalSample s = interval(i);
      s.t_s = static_cast<double>(k);
      r.intervals.push(s);
      reads.push_back(static_cast<long double>(s.iops(Direction::read)));
    }
    r.elapsed_s = static_cast<double>(kPerRound);
  }
  Measurement w = merge_rounds(rounds);
  EXPECT_EQ(w.intervals.pushed(), 3 * kPerRound);
  EXPECT_EQ(w.intervals.iops_stats(Direction::read).count, 3 * kPerRound);
  const double sd = static_cast<double>(exact_stddev(reads));
  EXPECT_NEAR(w.iops_stddev(Direction::read), sd, 1e-6 * sd);
  EXPECT_LE(w.intervals.size(), IntervalSeries::kMaxSamples);
  // The later rounds' samples come after the earlier ones on the window's clock.
  EXPECT_GT(w.intervals.samples().back().t_s, 2.0 * static_cast<double>(kPerRound));
}

TEST(RunningStats, MergingTwoStreamsIsAddingBoth) {
  RunningStats a, b, all;
  for (int k = 0; k < 1000; ++k) {
    const double x = 1e6 + (k * 7919 % 1000);  // large values, small spread: cancellation-prone
    (k % 3 ? a : b).add(x);
    all.add(x);
  }
  RunningStats joined = a;
  joined.merge(b);
  EXPECT_EQ(joined.count, all.count);
  EXPECT_NEAR(joined.mean, all.mean, 1e-9 * all.mean);
  EXPECT_NEAR(joined.stddev(), all.stddev(), 1e-9 * all.stddev());
  EXPECT_EQ(joined.min, all.min);
  EXPECT_EQ(joined.max, all.max);
  RunningStats empty;
  empty.merge(a);
  EXPECT_EQ(empty.count, a.count);
  EXPECT_EQ(empty.mean, a.mean);
}
