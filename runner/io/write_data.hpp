// Write data that a device cannot flatter (DESIGN.md "Engine"): every write carries bytes no other
// write of the run carries, unless the workload asks for fio's buffer_compress_percentage or
// dedupe_percentage, which reproduce a datasheet's assumed data reduction. An array that compresses
// or deduplicates inline would otherwise see the same few blocks over and over.
//
// Each job keeps one random block (its pool, filled once). A write's data is the pool XORed with an
// arithmetic stream s, s+G, s+2G, ... where s = mix(key) and mix is a bijection: two writes with
// different keys differ in every 8-byte word, and one with a repeated key (dedupe) repeats an earlier
// write byte for byte. One add and one XOR per word, vectorised: no random generator per byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runner/io/rng.hpp"

namespace diskvet::runner {

// fio's buffer_compress_percentage and dedupe_percentage (0 = fio's default, every write unique).
struct DataPattern {
  uint32_t compress_pct = 0;  // that share of each 512-byte chunk is zeros, the rest random
  uint32_t dedupe_pct = 0;    // that share of writes repeats an earlier write of the job
  bool operator==(const DataPattern&) const = default;
};

// fio's buffer_compress_chunk default: the compressible share is spread over every 512 bytes.
inline constexpr uint32_t kCompressChunkBytes = 512;

// In words: what the data of a write workload is, for reports.
std::string describe(const DataPattern& p);

class WriteData {
 public:
  WriteData(uint32_t bs_bytes, DataPattern p, uint64_t seed) : words_(bs_bytes / 8), pool_(words_), rng_(seed ^ 0x64617461) {
    Rng fill(seed * 0x9e3779b97f4a7c15 + 0x5eed);
    for (auto& w : pool_) w = fill.next();
    key_base_ = fill.next();
    dedupe_pct_ = p.dedupe_pct;
    constexpr uint32_t chunk_words = kCompressChunkBytes / 8;
    random_words_ = p.compress_pct ? (chunk_words * (100 - p.compress_pct) + 50) / 100 : chunk_words;
  }

  // Fills one write's buffer (bs_bytes, 8-byte aligned). Out of line, so that its loop is aligned
  // the same way in every build (write_data.cpp), not wherever the code around an inlined copy put it.
  void fill(std::byte* buf);

  uint64_t unique_writes() const { return unique_; }

  // splitmix64's finaliser: a bijection on 64 bits, so distinct keys give distinct streams.
  static constexpr uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
  }

 private:
  static constexpr uint64_t kStep = 0x9e3779b97f4a7c15;  // odd: the stream never repeats a word in a block
  size_t words_;
  std::vector<uint64_t> pool_;
  Rng rng_;
  uint64_t key_base_ = 0;
  uint64_t unique_ = 0;
  uint32_t dedupe_pct_ = 0;
  uint32_t random_words_ = 0;
};

}  // namespace diskvet::runner
