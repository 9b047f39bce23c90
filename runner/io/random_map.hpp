// fio's random map (its default, `norandommap` turns it off): a random job touches every block of
// its region exactly once per pass, in random order, then starts a new pass in a new order. fio
// keeps a bitmap (axmap) or walks an LFSR; this is the LFSR's idea with better mixing: a keyed
// bijection on k-bit numbers (k: the fewest bits that hold every block index) applied to a counter,
// skipping results past the last block. O(1) memory whatever the device's size, and O(1) per I/O:
// more than half of the 2^k results are blocks, so under two turns of a few multiplies on average.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "runner/io/rng.hpp"

namespace diskvet::runner {

class RandomMap {
 public:
  RandomMap(uint64_t blocks, uint64_t seed) : blocks_(blocks ? blocks : 1), keys_(seed) {
    const int bits = std::max(1, static_cast<int>(std::bit_width(blocks_ - 1)));
    mask_ = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    shift_ = static_cast<unsigned>(bits + 1) / 2;
    rekey();
  }

  // The next block of the pass, in [0, blocks).
  uint64_t next() {
    for (;;) {
      const uint64_t v = permute(counter_);
      if (counter_++ == mask_) {  // every k-bit number seen: the pass is over, the next is ordered anew
        counter_ = 0;
        rekey();
      }
      if (v < blocks_) return v;
    }
  }

 private:
  // Each step is a bijection on k-bit numbers: adding or XORing a key, multiplying by an odd
  // number (mod 2^k), and x ^ (x >> s). Their composition is one too: a permutation of the counter.
  uint64_t permute(uint64_t x) const {
    x = (x + k_[0]) & mask_;
    x ^= x >> shift_;
    x = (x * m_[0]) & mask_;
    x ^= x >> shift_;
    x = ((x ^ k_[1]) * m_[1]) & mask_;
    x ^= x >> shift_;
    x = (x * m_[2]) & mask_;
    return x ^ (x >> shift_);
  }
  void rekey() {
    k_[0] = keys_.next() & mask_;
    k_[1] = keys_.next() & mask_;
    for (auto& m : m_) m = keys_.next() | 1;
  }

  uint64_t blocks_;
  uint64_t mask_ = 1;
  unsigned shift_ = 1;
  Rng keys_;
  uint64_t counter_ = 0;
  uint64_t k_[2]{};
  uint64_t m_[3]{};
};

}  // namespace diskvet::runner
