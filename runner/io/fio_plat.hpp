// fio's latency bins ("plat", stat.h/stat.c): the layout of json+'s `bins` and of fio's histogram
// logs, so fio's own readers (fio_jsonplus_clat2csv, fiologparser_hist.py) read diskvet's numbers.
//
// fio keeps FIO_IO_U_PLAT_BITS = 6: values below 2^7 ns have a bin each; above, each power of two
// [2^e, 2^(e+1)) holds 64 bins of width 2^(e-6), in 29 groups (1856 bins); values of 2^34 ns
// (17.2 s) and more all fall into the last bin. A bin is named by the middle of its range
// (plat_idx_to_val). LatencyHistogram's buckets are the same log-linear shape with one more
// sub-bucket bit, aligned on the same powers of two, so every one of its buckets lies inside
// exactly one fio bin: the conversion is exact, no count is split or guessed.
#pragma once

#include <array>
#include <cstdint>

#include "runner/io/histogram.hpp"
#include "runner/io/interval_latency.hpp"

namespace diskvet::runner {

inline constexpr unsigned kFioPlatBits = 6;
inline constexpr unsigned kFioPlatVal = 1u << kFioPlatBits;
inline constexpr unsigned kFioPlatGroups = 29;
inline constexpr unsigned kFioPlatNr = kFioPlatGroups * kFioPlatVal;

using FioPlatBins = std::array<uint64_t, kFioPlatNr>;

// fio's plat_val_to_idx: the bin a latency of `ns` falls into.
unsigned fio_plat_index(uint64_t ns);
// fio's plat_idx_to_val: the value fio names bin `idx` by (the middle of its range).
uint64_t fio_plat_value(unsigned idx);
// Smallest and largest value in bin `idx` (the last bin is open-ended: its high is UINT64_MAX).
uint64_t fio_plat_low(unsigned idx);
uint64_t fio_plat_high(unsigned idx);

// The histogram's counts in fio's bins; its overflow (over 137 s) goes to the last bin, as fio
// clamps every value past its range there.
FioPlatBins to_fio_plat(const LatencyHistogram& h);
// One interval's counts (fio's histogram log).
FioPlatBins to_fio_plat(const LatencyBuckets& b);

}  // namespace diskvet::runner
