// fio's plat bins (json+ `bins`, histogram logs): the layout matches fio's stat.c, and a latency
// histogram converts into it exactly.
#include "runner/io/fio_plat.hpp"

#include <gtest/gtest.h>

#include <numeric>

using namespace diskvet::runner;

TEST(FioPlat, ValuesBelow128HaveABinEach) {
  for (uint64_t ns = 0; ns < 128; ++ns) {
    EXPECT_EQ(fio_plat_index(ns), ns);
    EXPECT_EQ(fio_plat_value(static_cast<unsigned>(ns)), ns);
  }
}

TEST(FioPlat, IndexAndValueAreFiosFormulas) {
  // Worked by hand from fio's plat_val_to_idx / plat_idx_to_val (FIO_IO_U_PLAT_BITS = 6).
  EXPECT_EQ(fio_plat_index(128), 128u);  // msb 7: error bits 1, width 2
  EXPECT_EQ(fio_plat_index(129), 128u);
  EXPECT_EQ(fio_plat_index(255), 191u);
  EXPECT_EQ(fio_plat_value(128), 129u);  // 128 + 0.5 * 2
  EXPECT_EQ(fio_plat_index(256), 192u);  // msb 8: width 4
  EXPECT_EQ(fio_plat_value(192), 258u);
  EXPECT_EQ(fio_plat_index(1'000'000), 896u + ((1'000'000 >> 13) & 63));  // msb 19: error bits 13
  EXPECT_EQ(fio_plat_value(896), (uint64_t{1} << 19) + 4096);
  // The last group starts at 2^33; everything from 2^34 on is clamped into the last bin.
  EXPECT_EQ(fio_plat_index(uint64_t{1} << 33), 28u * 64);
  EXPECT_EQ(fio_plat_index((uint64_t{1} << 34) - 1), kFioPlatNr - 1);
  EXPECT_EQ(fio_plat_index(uint64_t{1} << 34), kFioPlatNr - 1);
  EXPECT_EQ(fio_plat_index(uint64_t{1} << 50), kFioPlatNr - 1);
  EXPECT_EQ(fio_plat_value(kFioPlatNr - 1), 17112760320u);  // the largest value fio's clat2csv knows
}

TEST(FioPlat, BinsTileTheValuesAndNameTheirMiddle) {
  for (unsigned i = 0; i + 1 < kFioPlatNr; ++i) {
    EXPECT_EQ(fio_plat_high(i) + 1, fio_plat_low(i + 1)) << i;
    EXPECT_EQ(fio_plat_index(fio_plat_low(i)), i);
    EXPECT_EQ(fio_plat_index(fio_plat_high(i)), i);
    EXPECT_GE(fio_plat_value(i), fio_plat_low(i));
    EXPECT_LE(fio_plat_value(i), fio_plat_high(i));
  }
}

TEST(FioPlat, EveryHistogramBucketLiesInsideOneFioBin) {
  for (unsigned b = 0; b < LatencyHistogram::kBuckets; ++b)
    EXPECT_EQ(fio_plat_index(LatencyHistogram::bucket_low(b)), fio_plat_index(LatencyHistogram::bucket_high(b))) << b;
}

TEST(FioPlat, ConversionKeepsEveryCountInTheBinOfItsValue) {
  LatencyHistogram h;
  const uint64_t values[] = {0, 5, 127, 128, 129, 1000, 65'535, 1'000'000, 123'456'789, uint64_t{1} << 35, uint64_t{1} << 40};
  for (uint64_t v : values) h.record(v);
  const FioPlatBins bins = to_fio_plat(h);
  EXPECT_EQ(std::accumulate(bins.begin(), bins.end(), uint64_t{0}), h.count());
  FioPlatBins expected{};
  for (uint64_t v : values) ++expected[fio_plat_index(v)];
  EXPECT_EQ(bins, expected);
  EXPECT_EQ(bins[kFioPlatNr - 1], 2u);  // 2^35 (a bucket) and 2^40 (diskvet's overflow) both clamp there
}
