// The job loop's verification policy. NoVerify compiles to nothing; BlockVerifier fills every
// write with a verification block, checks every read against the generations the device's state
// allows (exactly one, or a region's window: verify_state.hpp), keeps two I/Os off one block, and
// reads recently written blocks back first (verify-behind, like fio's verify_backlog), each against
// the generation it was written with. Everything it needs is allocated before the job starts.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <vector>

#include "runner/io/workload.hpp"
#include "runner/verify/verify_state.hpp"

namespace diskvet::runner {

struct NoVerify {
  static constexpr bool enabled = false;
};

// The blocks one job has in flight: a small open-addressed set (linear probing, backward-shift
// deletion) sized once for the job's depth, so a claim costs a hash and a probe or two whatever the
// device's size. Jobs own disjoint shares of the region, so each job's own set is enough.
class BusyBlocks {
 public:
  explicit BusyBlocks(uint32_t depth)
      : keys_(std::bit_ceil(std::max<size_t>(16, 4 * size_t{depth}))), mask_(keys_.size() - 1),
        shift_(64 - static_cast<unsigned>(std::countr_zero(keys_.size()))) {}

  // False when the block is already in the set.
  bool insert(uint64_t block) {
    const uint64_t k = block + 1;
    size_t i = home(k);
    for (; keys_[i]; i = (i + 1) & mask_)
      if (keys_[i] == k) return false;
    keys_[i] = k;
    return true;
  }
  void erase(uint64_t block) {
    const uint64_t k = block + 1;
    size_t i = home(k);
    for (; keys_[i] != k; i = (i + 1) & mask_)
      if (!keys_[i]) return;
    // Pull later keys of the probe run back over the hole when their home allows it.
    for (size_t j = (i + 1) & mask_; keys_[j]; j = (j + 1) & mask_) {
      if (((j - home(keys_[j])) & mask_) >= ((j - i) & mask_)) {
        keys_[i] = keys_[j];
        i = j;
      }
    }
    keys_[i] = 0;
  }

 private:
  size_t home(uint64_t k) const { return static_cast<size_t>((k * 0x9e3779b97f4a7c15) >> shift_); }
  std::vector<uint64_t> keys_;  // block + 1; 0: empty
  size_t mask_;
  unsigned shift_;
};

class BlockVerifier {
 public:
  static constexpr bool enabled = true;
  static constexpr uint32_t kBacklog = 256;

  BlockVerifier(VerifyState& state, uint32_t depth, uint64_t start_ns)
      : state_(state), slot_block_(depth), slot_gen_(depth), slot_floor_(depth), busy_(depth), crc_(best_crc32c()), start_ns_(start_ns) {
    void* p = ::mmap(nullptr, state.bs_bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    scratch_ = p == MAP_FAILED ? nullptr : static_cast<std::byte*>(p);
    sum_.enabled = true;
    sum_.crc_impl = crc32c_name(crc_);
    sum_.first.reserve(VerifySummary::kMaxListed);
    sum_.first_slow.reserve(VerifySummary::kMaxListed);
    sum_.slow_limit_ns = state.slow_limit_ns;
    sum_.layout = state.layout();
  }
  ~BlockVerifier() {
    if (scratch_) ::munmap(scratch_, state_.bs_bytes());
  }
  BlockVerifier(const BlockVerifier&) = delete;
  BlockVerifier& operator=(const BlockVerifier&) = delete;

  void set_start_ns(uint64_t t) { start_ns_ = t; }

  // Verify-behind: a read goes to the oldest written-but-unread block when there is one, and must
  // find that write's generation or a newer one (exact even where the state is regional).
  uint64_t read_offset(uint64_t random_offset_bytes) {
    if (backlog_head_ != backlog_tail_) {
      const Written& w = backlog_[backlog_head_++ % kBacklog];
      behind_ = w;
      return state_.offset_of(w.block);
    }
    return random_offset_bytes;
  }

  bool claim(uint32_t slot, uint64_t offset_bytes) {
    uint64_t b = state_.block_of(offset_bytes);
    if (!busy_.insert(b)) return false;
    slot_block_[slot] = b;
    slot_floor_[slot] = behind_.block == b ? behind_.generation : 0;
    behind_ = {};
    return true;
  }

  void prepare_write(uint32_t slot, std::byte* buf) {
    uint64_t b = slot_block_[slot];
    uint64_t g = state_.begin_write(b);
    slot_gen_[slot] = g;
    fill_block(buf, state_.identity(b, g), crc_);
  }

  // Called for every completion; `ok` false for an error or short transfer.
  void complete(uint32_t slot, Direction d, bool ok, const std::byte* buf, uint64_t t_ns, uint64_t lat_ns) {
    uint64_t b = slot_block_[slot];
    busy_.erase(b);
    if (lat_ns > sum_.slow_limit_ns) [[unlikely]] {
      ++sum_.slow_ios;
      if (sum_.first_slow.size() < VerifySummary::kMaxListed)
        sum_.first_slow.push_back({static_cast<double>(t_ns - start_ns_) / 1e9, state_.lba_of(b), lat_ns, d == Direction::write});
    }
    if (d == Direction::write) {
      state_.end_write(b, slot_gen_[slot], ok);
      if (!ok) return;
      ++sum_.blocks_written;
      if (backlog_tail_ - backlog_head_ == kBacklog) ++backlog_head_;  // full: the oldest is read at random later
      backlog_[backlog_tail_++ % kBacklog] = {b, slot_gen_[slot]};
      return;
    }
    if (!ok) return;
    const ExpectedGenerations e = state_.expected(b);
    if (e.hi == 0) {
      ++sum_.blocks_unchecked;
      return;
    }
    const uint64_t lo = std::max(e.lo, slot_floor_[slot]);
    BlockIdentity id = state_.identity(b, e.hi);
    uint64_t found = 0;
    const bool valid = block_valid(buf, id, crc_, found);
    if (valid && found >= lo && found <= e.hi) [[likely]] {
      ++sum_.blocks_verified;
      return;
    }
    if (lo == 0 && all_zero(buf, state_.bs_bytes())) {  // a block of the region the run has not reached yet
      ++sum_.blocks_unchecked;
      return;
    }
    ++sum_.blocks_verified;
    ++sum_.mismatches;
    if (!state_.mark_bad(b)) return;  // found before: one more read of a known bad block
    ++sum_.bad_blocks;
    sum_.bad_blocks_exact = !state_.bad_table_full();
    if (sum_.first.size() < VerifySummary::kMaxListed && scratch_) {
      // The generation to compare with: the one the header names when the state allows it (a damaged
      // block of a regional state), else the nearest one the state allows.
      const uint64_t least = std::max<uint64_t>(lo, 1);
      id.generation = found >= least && found <= e.hi ? found : valid && found < least ? least : e.hi;
      BlockMismatch m = explain_mismatch(buf, id, state_.offset_of(b), crc_, scratch_);
      m.expected_min_generation = std::min(least, id.generation);
      m.t_s = static_cast<double>(t_ns - start_ns_) / 1e9;
      sum_.first.push_back(m);
    }
  }

  const VerifySummary& summary() const { return sum_; }

 private:
  struct Written {
    uint64_t block = ~uint64_t{0};
    uint64_t generation = 0;
  };
  static bool all_zero(const std::byte* buf, uint32_t bytes) {
    for (uint32_t i = 0; i < bytes; ++i)
      if (buf[i] != std::byte{0}) return false;
    return true;
  }

  VerifyState& state_;
  std::vector<uint64_t> slot_block_;
  std::vector<uint64_t> slot_gen_;
  std::vector<uint64_t> slot_floor_;  // a verify-behind read: the generation it must at least find
  BusyBlocks busy_;
  std::array<Written, kBacklog> backlog_{};
  uint64_t backlog_head_ = 0, backlog_tail_ = 0;
  Written behind_;  // the block read_offset just handed out, until it is claimed
  Crc32cFn crc_;
  std::byte* scratch_ = nullptr;
  uint64_t start_ns_;
  VerifySummary sum_;
};

}  // namespace diskvet::runner
