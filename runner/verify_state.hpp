// What a verifying run knows about one device across its phases: the generation each block was last
// written with (so a read knows what to expect) and the identity every block carries. Jobs own
// disjoint shares of it, so no locks; the in-flight bit keeps two I/Os off one block.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "runner/verify_block.hpp"

namespace diskvet::runner {

// An I/O slower than the run's latency limit: the stalls that vanish from averages.
struct SlowIo {
  double t_s = 0;  // completion, seconds into the workload
  uint64_t lba = 0;
  uint64_t lat_ns = 0;
  bool write = false;
};

// Counts and the first mismatches of one workload (or, summed, of a device's run).
struct VerifySummary {
  static constexpr size_t kMaxListed = 16;
  bool enabled = false;
  uint64_t blocks_written = 0;
  uint64_t blocks_verified = 0;   // read back and compared
  uint64_t blocks_unchecked = 0;  // read before this run wrote them: nothing to compare against
  uint64_t mismatches = 0;       // reads that found a block unlike what was written (one bad block read 500 times: 500)
  uint64_t bad_blocks = 0;       // distinct blocks found bad, each counted once over the device's whole run
  std::vector<BlockMismatch> first;  // the first kMaxListed bad blocks, each once, in the order found
  const char* crc_impl = "";
  uint64_t slow_limit_ns = 0;
  uint64_t slow_ios = 0;             // completions slower than slow_limit_ns
  std::vector<SlowIo> first_slow;    // at most kMaxListed

  void merge(const VerifySummary& o) {
    enabled = enabled || o.enabled;
    blocks_written += o.blocks_written;
    blocks_verified += o.blocks_verified;
    blocks_unchecked += o.blocks_unchecked;
    mismatches += o.mismatches;
    bad_blocks += o.bad_blocks;  // disjoint: a block is counted by the first read that finds it bad
    for (const auto& m : o.first)
      if (first.size() < kMaxListed) first.push_back(m);
    if (*o.crc_impl) crc_impl = o.crc_impl;
    if (o.slow_limit_ns) slow_limit_ns = o.slow_limit_ns;
    slow_ios += o.slow_ios;
    for (const auto& x : o.first_slow)
      if (first_slow.size() < kMaxListed) first_slow.push_back(x);
  }
};

class VerifyState {
 public:
  static constexpr uint32_t kInFlight = 1u << 31;
  static constexpr uint32_t kFoundBad = 1u << 30;  // a read found this block bad (counted once)
  static constexpr uint32_t kGenerationMask = kFoundBad - 1;

  VerifyState(uint64_t base_offset_bytes, uint64_t region_bytes, uint32_t bs_bytes, uint32_t lbs_bytes, uint64_t device_hash,
              uint64_t seed, uint64_t slow_ns = 1'000'000'000)
      : slow_limit_ns(slow_ns), base_(base_offset_bytes), bs_(bs_bytes), lbs_(lbs_bytes), device_hash_(device_hash), seed_(seed),
        gen_(region_bytes / bs_bytes, 0) {}

  const uint64_t slow_limit_ns;  // latency outliers: I/Os slower than this are listed

  uint64_t base_offset_bytes() const { return base_; }
  uint32_t bs_bytes() const { return bs_; }
  uint64_t blocks() const { return gen_.size(); }
  uint64_t device_hash() const { return device_hash_; }
  uint64_t seed() const { return seed_; }

  uint64_t block_of(uint64_t offset_bytes) const { return (offset_bytes - base_) / bs_; }
  uint64_t offset_of(uint64_t block) const { return base_ + block * bs_; }
  uint64_t lba_of(uint64_t block) const { return offset_of(block) / lbs_; }

  // Marks the block busy; false when an I/O to it is already in flight.
  bool claim(uint64_t block) {
    if (gen_[block] & kInFlight) return false;
    gen_[block] |= kInFlight;
    return true;
  }
  void release(uint64_t block) { gen_[block] &= ~kInFlight; }
  uint32_t generation(uint64_t block) const { return gen_[block] & kGenerationMask; }
  void set_generation(uint64_t block, uint32_t g) { gen_[block] = (gen_[block] & ~kGenerationMask) | (g & kGenerationMask); }
  // Marks the block found bad; true the first time, so each bad block is counted once.
  bool mark_bad(uint64_t block) {
    if (gen_[block] & kFoundBad) return false;
    gen_[block] |= kFoundBad;
    return true;
  }

  BlockIdentity identity(uint64_t block, uint32_t generation) const {
    return {device_hash_, lba_of(block), generation, seed_, bs_};
  }

 private:
  uint64_t base_;
  uint32_t bs_, lbs_;
  uint64_t device_hash_, seed_;
  std::vector<uint32_t> gen_;  // low 30 bits: generation (0: not written by this run); bit 30: found bad; bit 31: in flight
};

// FNV-1a of the device's identity (serial, WWN or path): what "this device" means in a block header.
inline uint64_t identity_hash(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325;
  for (char c : s) h = (h ^ static_cast<uint8_t>(c)) * 0x100000001b3;
  return h;
}

}  // namespace diskvet::runner
