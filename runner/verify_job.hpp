// The job loop's verification policy. NoVerify compiles to nothing; BlockVerifier fills every
// write with a verification block, checks every read against the generation it expects, keeps
// two I/Os off one block, and reads recently written blocks back first (verify-behind, like fio's
// verify_backlog). Everything it needs is allocated before the job starts.
#pragma once

#include <sys/mman.h>

#include <array>
#include <cstddef>
#include <vector>

#include "runner/verify_state.hpp"
#include "runner/workload.hpp"

namespace diskvet::runner {

struct NoVerify {
  static constexpr bool enabled = false;
};

class BlockVerifier {
 public:
  static constexpr bool enabled = true;
  static constexpr uint32_t kBacklog = 256;

  BlockVerifier(VerifyState& state, uint32_t depth, uint64_t start_ns)
      : state_(state), slot_block_(depth), slot_gen_(depth), crc_(best_crc32c()), start_ns_(start_ns) {
    void* p = ::mmap(nullptr, state.bs_bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    scratch_ = p == MAP_FAILED ? nullptr : static_cast<std::byte*>(p);
    sum_.enabled = true;
    sum_.crc_impl = crc32c_name(crc_);
    sum_.first.reserve(VerifySummary::kMaxListed);
    sum_.first_slow.reserve(VerifySummary::kMaxListed);
    sum_.slow_limit_ns = state.slow_limit_ns;
  }
  ~BlockVerifier() {
    if (scratch_) ::munmap(scratch_, state_.bs_bytes());
  }
  BlockVerifier(const BlockVerifier&) = delete;
  BlockVerifier& operator=(const BlockVerifier&) = delete;

  void set_start_ns(uint64_t t) { start_ns_ = t; }

  // Verify-behind: a read goes to the oldest written-but-unread block when there is one.
  uint64_t read_offset(uint64_t random_offset_bytes) {
    if (backlog_head_ != backlog_tail_) return state_.offset_of(backlog_[backlog_head_++ % kBacklog]);
    return random_offset_bytes;
  }

  bool claim(uint32_t slot, uint64_t offset_bytes) {
    uint64_t b = state_.block_of(offset_bytes);
    if (!state_.claim(b)) return false;
    slot_block_[slot] = b;
    return true;
  }

  void prepare_write(uint32_t slot, std::byte* buf) {
    uint64_t b = slot_block_[slot];
    uint32_t g = state_.generation(b) + 1;
    slot_gen_[slot] = g;
    fill_block(buf, state_.identity(b, g), crc_);
  }

  // Called for every completion; `ok` false for an error or short transfer.
  void complete(uint32_t slot, Direction d, bool ok, const std::byte* buf, uint64_t t_ns, uint64_t lat_ns) {
    uint64_t b = slot_block_[slot];
    state_.release(b);
    if (lat_ns > sum_.slow_limit_ns) [[unlikely]] {
      ++sum_.slow_ios;
      if (sum_.first_slow.size() < VerifySummary::kMaxListed)
        sum_.first_slow.push_back({static_cast<double>(t_ns - start_ns_) / 1e9, state_.lba_of(b), lat_ns, d == Direction::write});
    }
    if (!ok) return;
    if (d == Direction::write) {
      state_.set_generation(b, slot_gen_[slot]);
      ++sum_.blocks_written;
      if (backlog_tail_ - backlog_head_ == kBacklog) ++backlog_head_;  // full: the oldest is read at random later
      backlog_[backlog_tail_++ % kBacklog] = b;
      return;
    }
    uint32_t g = state_.generation(b);
    if (g == 0) {
      ++sum_.blocks_unchecked;
      return;
    }
    ++sum_.blocks_verified;
    BlockIdentity id = state_.identity(b, g);
    if (block_matches(buf, id, crc_)) [[likely]]
      return;
    ++sum_.mismatches;
    if (!state_.mark_bad(b)) return;  // found before: one more read of a known bad block
    ++sum_.bad_blocks;
    if (sum_.first.size() < VerifySummary::kMaxListed && scratch_) {
      BlockMismatch m = explain_mismatch(buf, id, state_.offset_of(b), crc_, scratch_);
      m.t_s = static_cast<double>(t_ns - start_ns_) / 1e9;
      sum_.first.push_back(m);
    }
  }

  const VerifySummary& summary() const { return sum_; }

 private:
  VerifyState& state_;
  std::vector<uint64_t> slot_block_;
  std::vector<uint32_t> slot_gen_;
  std::array<uint64_t, kBacklog> backlog_{};
  uint64_t backlog_head_ = 0, backlog_tail_ = 0;
  Crc32cFn crc_;
  std::byte* scratch_ = nullptr;
  uint64_t start_ns_;
  VerifySummary sum_;
};

}  // namespace diskvet::runner
