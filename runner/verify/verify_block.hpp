// The verification block: a header (magic, device identity hash, LBA, write generation, run seed)
// followed by a payload derived from it, with a crc32c over the whole block. Writing fills one;
// reading checks one and, on a mismatch, says what was expected, what was found and which bytes differ.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "runner/verify/crc32c.hpp"

namespace diskvet::runner {

inline constexpr uint64_t kVerifyMagic = 0x3174657676736964;  // "diskvet1" little-endian

struct BlockHeader {
  uint64_t magic = 0;
  uint64_t device_hash = 0;  // identity of the device the run wrote (serial/WWN)
  uint64_t lba = 0;          // in logical blocks of the device
  uint64_t generation = 0;   // how many times the run has written this block
  uint64_t seed = 0;         // the run's seed: a block left by an earlier run does not match
  uint32_t bs_bytes = 0;
  uint32_t crc32c = 0;       // over the whole block with this field taken as zero
};
static_assert(sizeof(BlockHeader) == 48);

// What a block should hold.
struct BlockIdentity {
  uint64_t device_hash = 0;
  uint64_t lba = 0;
  uint64_t generation = 0;
  uint64_t seed = 0;
  uint32_t bs_bytes = 0;
};

enum class MismatchKind : uint8_t {
  unwritten,    // all zeros where the run wrote data
  corrupt,      // bad magic or checksum with no better explanation (garbage where a tear would leave old data)
  torn,         // the first sectors hold the new write, every later one the block's previous generation
  misdirected,  // a valid block of this run, written for another LBA
  stale,        // a valid block of an older generation: a lost write
  foreign,      // a valid block of another device or another run
};
std::string_view to_string(MismatchKind k);

// One block that did not hold what the run wrote; only built on a mismatch (slow path).
struct BlockMismatch {
  MismatchKind kind = MismatchKind::corrupt;
  uint64_t offset_bytes = 0;
  BlockIdentity expected;              // expected.generation: the newest the run allows
  uint64_t expected_min_generation = 0;  // the oldest it allows (== expected.generation when exact)
  BlockHeader found;
  bool crc_ok = false;
  uint32_t first_bad_byte = 0;  // offset inside the block of the first byte unlike the expected block
  uint32_t last_bad_byte = 0;
  uint32_t bad_bytes = 0;
  double t_s = 0;                // seconds into the workload
};

// Fills `block` (bs_bytes long, 8-byte aligned) for `id`.
void fill_block(std::byte* block, const BlockIdentity& id, Crc32cFn crc);

// True when `block` holds exactly what fill_block wrote for `id`: header fields and checksum (the
// checksum covers the payload, so the payload is not regenerated on the fast path).
bool block_matches(const std::byte* block, const BlockIdentity& id, Crc32cFn crc);

// True when `block` is a whole, intact block of this run for `id`'s LBA (every header field but the
// generation, and the checksum); `generation` is set to the header's generation either way.
bool block_valid(const std::byte* block, const BlockIdentity& id, Crc32cFn crc, uint64_t& generation);

// Explains a block that does not match. `scratch` (bs_bytes) is overwritten (the expected block,
// then the previous generation when a tear is suspected).
BlockMismatch explain_mismatch(const std::byte* block, const BlockIdentity& id, uint64_t offset_bytes, Crc32cFn crc,
                               std::byte* scratch);

}  // namespace diskvet::runner
