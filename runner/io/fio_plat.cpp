// fio's plat bin layout (fio stat.c, plat_val_to_idx and plat_idx_to_val) and the exact conversion
// from LatencyHistogram's buckets.
#include "runner/io/fio_plat.hpp"

#include <bit>
#include <limits>

namespace diskvet::runner {

static_assert(LatencyHistogram::kSubBits > kFioPlatBits, "every histogram bucket must lie inside one fio bin");

unsigned fio_plat_index(uint64_t ns) {
  const unsigned msb = ns ? static_cast<unsigned>(std::bit_width(ns)) - 1 : 0;
  if (msb <= kFioPlatBits) return static_cast<unsigned>(ns);  // below 2^7: one bin per value
  const unsigned error_bits = msb - kFioPlatBits;
  const uint64_t idx = (uint64_t{error_bits + 1} << kFioPlatBits) + ((ns >> error_bits) & (kFioPlatVal - 1));
  return idx < kFioPlatNr - 1 ? static_cast<unsigned>(idx) : kFioPlatNr - 1;
}

uint64_t fio_plat_low(unsigned idx) {
  if (idx < 2 * kFioPlatVal) return idx;
  const unsigned error_bits = (idx >> kFioPlatBits) - 1;
  return (uint64_t{1} << (error_bits + kFioPlatBits)) + (uint64_t{idx % kFioPlatVal} << error_bits);
}

uint64_t fio_plat_high(unsigned idx) {
  if (idx >= kFioPlatNr - 1) return std::numeric_limits<uint64_t>::max();
  if (idx < 2 * kFioPlatVal) return idx;
  const unsigned error_bits = (idx >> kFioPlatBits) - 1;
  return fio_plat_low(idx) + (uint64_t{1} << error_bits) - 1;
}

uint64_t fio_plat_value(unsigned idx) {
  if (idx < 2 * kFioPlatVal) return idx;
  const unsigned error_bits = (idx >> kFioPlatBits) - 1;
  // fio computes base + (k + 0.5) * 2^error_bits in double and truncates: the same as this.
  return fio_plat_low(idx) + (uint64_t{1} << error_bits) / 2;
}

namespace {

// `count(b)` is bucket b's count in LatencyHistogram's layout.
template <class Count>
FioPlatBins convert(Count count, uint64_t overflow) {
  FioPlatBins bins{};
  for (unsigned b = 0; b < LatencyHistogram::kBuckets; ++b)
    if (uint64_t n = count(b)) bins[fio_plat_index(LatencyHistogram::bucket_low(b))] += n;
  bins[kFioPlatNr - 1] += overflow;
  return bins;
}

}  // namespace

FioPlatBins to_fio_plat(const LatencyHistogram& h) {
  return convert([&](unsigned b) { return h.bucket_published(b); }, h.overflow());
}

FioPlatBins to_fio_plat(const LatencyBuckets& l) {
  return convert([&](unsigned b) { return l.bucket(b); }, l.overflow());
}

}  // namespace diskvet::runner
