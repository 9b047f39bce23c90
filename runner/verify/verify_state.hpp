// What a verifying run knows about one device across its phases: which generations each block may
// hold (so a read knows what to expect) and the identity every block carries, in memory the run
// sized before anything was written.
//
// Two layouts, chosen by plan_verify_layout from the device's share of the run's memory budget:
//
// - exact (4 bytes per block, whenever that fits): the generation each block was last written with.
//   A read must find exactly it: a lost write of any age is `stale`, zeros where the run wrote are
//   `unwritten`, and each bad block is counted once.
// - regional (8 bytes per region of N blocks, N the smallest power of two that fits: a 30 TB drive
//   at 4 KiB in 512 MiB has N = 128). Generations are numbered per region (every write in a region
//   takes the region's next number, so they rise and never repeat for one LBA), and a region keeps:
//     hi  the highest generation issued in it: no block may hold a newer one;
//     lo  a floor: every block holds at least lo, raised when one pass writes the region's blocks in
//         order (a sequential write pass, whatever else runs) to the generation that pass started at.
//   A read accepts any generation in [lo, hi]; one read right after a write (verify-behind) accepts
//   only that write's generation or newer. So, at every size:
//     exact per block: corruption (checksum), misdirected writes (another LBA's header), foreign
//       blocks (another device or run), torn writes are reported as corrupt, unwritten blocks once a
//       pass has covered the region, and every lost write that a verify-behind read comes to;
//     at region granularity: a block read later that kept a generation older than the region's last
//       full pass (a lost write of that pass or earlier) is `stale`;
//     not detected: a lost random write (not read back right after) whose block still holds a
//       generation from the region's current window [lo, hi]; after 1023 writes to a region without
//       a full pass, or a failed write, the region's floor is dropped (zeros there read as unchecked).
//   Distinct bad blocks are counted in a fixed table of kBadTableSlots; should it fill up, further
//   bad blocks are counted without the "once" check (the report says so).
//
// Jobs own disjoint shares of the region (plan_jobs), so an exact record has one writer; a region
// record may straddle two shares, so regional records are updated with compare-and-swap.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "runner/verify/verify_block.hpp"

namespace diskvet::runner {

// The whole run's verification memory (every device, every job) unless --verify-memory says otherwise.
inline constexpr uint64_t kDefaultVerifyMemoryBytes = 512ull << 20;

enum class VerifyMode : uint8_t { exact, regional };
std::string_view to_string(VerifyMode m);

// How one device's verification state is laid out; decided before anything is written.
struct VerifyLayout {
  VerifyMode mode = VerifyMode::exact;
  uint64_t blocks = 0;         // verification blocks in the tested region
  uint32_t bs_bytes = 0;
  uint64_t region_blocks = 1;  // blocks sharing one record (1: exact)
  uint64_t state_bytes = 0;    // what the state allocates
  uint64_t budget_bytes = 0;   // the device's share of the run's budget
};

// The finest layout of `region_bytes` in `bs_bytes` blocks whose state fits `budget_bytes` beside
// what the verifying jobs hold (`jobs_bytes`); an input error naming the budget when even the
// coarsest does not.
Result<VerifyLayout> plan_verify_layout(uint64_t region_bytes, uint32_t bs_bytes, uint64_t budget_bytes, uint64_t jobs_bytes = 0);

// What the layout guarantees, in words (the report's "guarantee").
std::string describe_guarantee(const VerifyLayout& l);

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
  bool bad_blocks_exact = true;  // false: the regional layout's table of bad blocks filled up (bad_blocks may count a block twice)
  std::vector<BlockMismatch> first;  // the first kMaxListed bad blocks, each once, in the order found
  const char* crc_impl = "";
  uint64_t slow_limit_ns = 0;
  uint64_t slow_ios = 0;             // completions slower than slow_limit_ns
  std::vector<SlowIo> first_slow;    // at most kMaxListed
  VerifyLayout layout;               // how the state was kept (blocks == 0: unknown)

  void merge(const VerifySummary& o) {
    enabled = enabled || o.enabled;
    blocks_written += o.blocks_written;
    blocks_verified += o.blocks_verified;
    blocks_unchecked += o.blocks_unchecked;
    mismatches += o.mismatches;
    bad_blocks += o.bad_blocks;  // disjoint: a block is counted by the first read that finds it bad
    bad_blocks_exact = bad_blocks_exact && o.bad_blocks_exact;
    for (const auto& m : o.first)
      if (first.size() < kMaxListed) first.push_back(m);
    if (*o.crc_impl) crc_impl = o.crc_impl;
    if (o.slow_limit_ns) slow_limit_ns = o.slow_limit_ns;
    slow_ios += o.slow_ios;
    for (const auto& x : o.first_slow)
      if (first_slow.size() < kMaxListed) first_slow.push_back(x);
    if (o.layout.blocks) layout = o.layout;
  }
};

// The generations a read of one block may find: [lo, hi]. hi == 0: the run has not written it
// (nothing to check); lo == 0 < hi: it may also be unwritten (zeros read as unchecked).
struct ExpectedGenerations {
  uint64_t lo = 0, hi = 0;
};

// Zero-filled words from anonymous memory: pages cost memory only once the run touches them.
class ZeroedWords {
 public:
  ZeroedWords() = default;
  explicit ZeroedWords(uint64_t count);  // throws std::bad_alloc
  ~ZeroedWords();
  ZeroedWords(const ZeroedWords&) = delete;
  ZeroedWords& operator=(const ZeroedWords&) = delete;
  std::atomic<uint64_t>& operator[](uint64_t i) const { return words_[i]; }

 private:
  std::atomic<uint64_t>* words_ = nullptr;
  uint64_t count_ = 0;
};

class VerifyState {
 public:
  static constexpr uint32_t kFoundBad = 1u << 30;  // exact: a read found this block bad (counted once)
  static constexpr uint32_t kGenerationMask = kFoundBad - 1;
  static constexpr uint64_t kMaxRegionBlocks = 4096;  // the cursor's 12 bits
  static constexpr uint64_t kBadTableSlots = 1u << 16;  // regional: distinct bad blocks, 8 bytes each

  // Exact state for the region (the layout tests and small targets use); throws std::bad_alloc.
  VerifyState(uint64_t base_offset_bytes, uint64_t region_bytes, uint32_t bs_bytes, uint32_t lbs_bytes, uint64_t device_hash,
              uint64_t seed, uint64_t slow_ns = 1'000'000'000);
  // The state `layout` describes; throws std::bad_alloc (create() catches it).
  VerifyState(const VerifyLayout& layout, uint64_t base_offset_bytes, uint32_t lbs_bytes, uint64_t device_hash, uint64_t seed,
              uint64_t slow_ns = 1'000'000'000);
  // Allocates the state up front; an allocation that fails is a runtime error naming the size, never an abort.
  static Result<std::unique_ptr<VerifyState>> create(const VerifyLayout& layout, uint64_t base_offset_bytes, uint32_t lbs_bytes,
                                                     uint64_t device_hash, uint64_t seed, uint64_t slow_ns);

  const uint64_t slow_limit_ns;  // latency outliers: I/Os slower than this are listed

  uint64_t base_offset_bytes() const { return base_; }
  uint32_t bs_bytes() const { return layout_.bs_bytes; }
  uint64_t blocks() const { return layout_.blocks; }
  uint64_t device_hash() const { return device_hash_; }
  uint64_t seed() const { return seed_; }
  const VerifyLayout& layout() const { return layout_; }
  uint64_t allocated_bytes() const;
  bool bad_table_full() const { return bad_table_full_.load(std::memory_order_relaxed); }

  uint64_t block_of(uint64_t offset_bytes) const { return (offset_bytes - base_) / layout_.bs_bytes; }
  uint64_t offset_of(uint64_t block) const { return base_ + block * layout_.bs_bytes; }
  uint64_t lba_of(uint64_t block) const { return offset_of(block) / lbs_; }

  // The generation a write about to be issued to `block` carries (regional: reserved now).
  uint64_t begin_write(uint64_t block) {
    if (exact()) return (gen_[block] & kGenerationMask) + 1;
    return begin_regional_write(block);
  }
  // The write of `generation` to `block` completed (ok) or failed (its data is then unknown).
  void end_write(uint64_t block, uint64_t generation, bool ok) {
    if (exact()) {
      if (ok) gen_[block] = (gen_[block] & ~kGenerationMask) | (static_cast<uint32_t>(generation) & kGenerationMask);
      return;
    }
    if (!ok) drop_floor(block);
  }
  ExpectedGenerations expected(uint64_t block) const {
    if (exact()) {
      uint64_t g = gen_[block] & kGenerationMask;
      return {g, g};
    }
    uint64_t r = regions_[block >> region_shift_].load(std::memory_order_relaxed);
    uint64_t hi = r & 0xffffffff;
    uint64_t lo_d = (r >> 32) & kDeltaMax;
    return {lo_d >= kDeltaMax || lo_d > hi ? 0 : hi - lo_d, hi};
  }
  // Exact-layout view: the generation last written (the tests' and the exact layout's).
  uint32_t generation(uint64_t block) const { return static_cast<uint32_t>(expected(block).hi); }
  // Marks the block found bad; true the first time, so each bad block is counted once.
  bool mark_bad(uint64_t block);

  BlockIdentity identity(uint64_t block, uint64_t generation) const {
    return {device_hash_, lba_of(block), generation, seed_, layout_.bs_bytes};
  }

 private:
  // A region record: hi (bits 0-31), hi - lo (32-41; kDeltaMax: no floor), hi - the current pass's
  // first generation (42-51; kDeltaMax: the pass is void), the pass's cursor (52-63: blocks written in order).
  static constexpr uint64_t kDeltaMax = 1023;
  bool exact() const { return layout_.mode == VerifyMode::exact; }
  uint64_t begin_regional_write(uint64_t block);
  void drop_floor(uint64_t block);

  VerifyLayout layout_;
  uint64_t base_;
  uint32_t lbs_;
  uint64_t device_hash_, seed_;
  std::vector<uint32_t> gen_;  // exact: low 30 bits the generation (0: not written by this run); bit 30: found bad
  ZeroedWords regions_;  // regional: one record per region
  uint32_t region_shift_ = 0;
  ZeroedWords bad_;  // regional: open-addressed set of block + 1
  std::atomic<bool> bad_table_full_{false};
};

// FNV-1a of the device's identity (serial, WWN or path): what "this device" means in a block header.
inline uint64_t identity_hash(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325;
  for (char c : s) h = (h ^ static_cast<uint8_t>(c)) * 0x100000001b3;
  return h;
}

}  // namespace diskvet::runner
