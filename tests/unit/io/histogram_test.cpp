#include "runner/io/histogram.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using diskvet::runner::LatencyHistogram;

namespace {

uint64_t exact_percentile(std::vector<uint64_t> v, double pct) {
  std::sort(v.begin(), v.end());
  auto rank = static_cast<size_t>(std::ceil(pct / 100.0 * static_cast<double>(v.size())));
  rank = std::clamp<size_t>(rank, 1, v.size());
  return v[rank - 1];
}

void expect_bounded(const std::vector<uint64_t>& values, const LatencyHistogram& h) {
  for (double p : {1.0, 10.0, 50.0, 90.0, 99.0, 99.9, 99.99, 99.999, 100.0}) {
    uint64_t exact = exact_percentile(values, p);
    uint64_t got = h.percentile_ns(p);
    EXPECT_GE(got, exact) << "p" << p;  // never under-states latency
    EXPECT_LE(static_cast<double>(got), static_cast<double>(exact) * (1.0 + 1.0 / 128) + 1) << "p" << p;
  }
}

}  // namespace

TEST(Histogram, BucketsAreContiguousAndNarrow) {
  for (unsigned b = 1; b < LatencyHistogram::kBuckets; ++b) {
    ASSERT_EQ(LatencyHistogram::bucket_low(b), LatencyHistogram::bucket_high(b - 1) + 1) << b;
    uint64_t lo = LatencyHistogram::bucket_low(b), hi = LatencyHistogram::bucket_high(b);
    ASSERT_EQ(LatencyHistogram::bucket_of(lo), b);
    ASSERT_EQ(LatencyHistogram::bucket_of(hi), b);
    ASSERT_LE(static_cast<double>(hi - lo + 1), static_cast<double>(lo) / 128 + 1);
  }
  EXPECT_EQ(LatencyHistogram::bucket_high(LatencyHistogram::kBuckets - 1), LatencyHistogram::kLimitNs - 1);
}

TEST(Histogram, PercentilesWithinBoundOnUniformLatencies) {
  std::mt19937_64 gen(1);
  std::uniform_int_distribution<uint64_t> dist(50'000, 150'000);
  std::vector<uint64_t> v(200'000);
  LatencyHistogram h;
  for (auto& x : v) h.record(x = dist(gen));
  expect_bounded(v, h);
}

TEST(Histogram, PercentilesWithinBoundOnLongTail) {
  std::mt19937_64 gen(2);
  std::lognormal_distribution<double> dist(std::log(80'000.0), 1.2);
  std::vector<uint64_t> v(300'000);
  LatencyHistogram h;
  for (auto& x : v) h.record(x = static_cast<uint64_t>(dist(gen)) + 100);
  expect_bounded(v, h);
}

TEST(Histogram, PercentilesWithinBoundOnBimodalCacheHitsAndMisses) {
  std::mt19937_64 gen(3);
  std::normal_distribution<double> hit(2'000, 100), miss(8'000'000, 400'000);
  std::bernoulli_distribution is_miss(0.02);
  std::vector<uint64_t> v(100'000);
  LatencyHistogram h;
  for (auto& x : v) h.record(x = static_cast<uint64_t>(std::max(1.0, is_miss(gen) ? miss(gen) : hit(gen))));
  expect_bounded(v, h);
}

TEST(Histogram, SmallValuesAreExact) {
  LatencyHistogram h;
  for (uint64_t i = 1; i <= 100; ++i) h.record(i);
  EXPECT_EQ(h.percentile_ns(50), 50u);
  EXPECT_EQ(h.percentile_ns(99), 99u);
  EXPECT_EQ(h.percentile_ns(100), 100u);
  EXPECT_EQ(h.min_ns(), 1u);
  EXPECT_DOUBLE_EQ(h.mean_ns(), 50.5);
}

TEST(Histogram, MinMaxMeanStddevAreExact) {
  LatencyHistogram h;
  for (uint64_t v : {1000u, 3000u, 5000u, 7000u}) h.record(v);
  EXPECT_EQ(h.min_ns(), 1000u);
  EXPECT_EQ(h.max_ns(), 7000u);
  EXPECT_DOUBLE_EQ(h.mean_ns(), 4000.0);
  EXPECT_NEAR(h.stddev_ns(), std::sqrt(5e6), 1e-6);
}

TEST(Histogram, MergeEqualsRecordingEverythingInOne) {
  std::mt19937_64 gen(4);
  std::exponential_distribution<double> dist(1.0 / 50'000);
  LatencyHistogram a, b, all;
  std::vector<uint64_t> v;
  for (int i = 0; i < 50'000; ++i) {
    uint64_t x = static_cast<uint64_t>(dist(gen)) + 1;
    v.push_back(x);
    (i % 3 ? a : b).record(x);
    all.record(x);
  }
  a.merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.min_ns(), all.min_ns());
  EXPECT_EQ(a.max_ns(), all.max_ns());
  EXPECT_EQ(a.sum_ns(), all.sum_ns());
  for (double p : {50.0, 99.0, 99.99}) EXPECT_EQ(a.percentile_ns(p), all.percentile_ns(p));
  expect_bounded(v, a);
}

TEST(Histogram, OverflowIsCountedNotClamped) {
  LatencyHistogram h;
  h.record(1000);
  h.record(LatencyHistogram::kLimitNs + 5);
  EXPECT_EQ(h.overflow(), 1u);
  EXPECT_EQ(h.count(), 2u);
  EXPECT_EQ(h.max_ns(), LatencyHistogram::kLimitNs + 5);
  EXPECT_EQ(h.percentile_ns(100), LatencyHistogram::kLimitNs + 5);
  EXPECT_GE(h.percentile_ns(50), 1000u);
  EXPECT_LE(h.percentile_ns(50), 1000u + 1000u / 128);
}

TEST(Histogram, EmptyReportsZeros) {
  LatencyHistogram h;
  EXPECT_EQ(h.percentile_ns(99), 0u);
  EXPECT_EQ(h.min_ns(), 0u);
  EXPECT_EQ(h.mean_ns(), 0.0);
}
