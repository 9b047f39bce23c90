// The address-integrity probe's plan: which blocks of a device's claimed capacity it writes and
// reads back, and where it writes the data that flushes a cache in between. Pure arithmetic on the
// claimed size: the first and last blocks, every power of two with its neighbours (a drive that
// drops high address bits wraps at one of them), and a random sample in extents spread over the
// whole capacity, all inside a byte budget.
#pragma once

#include <cstdint>
#include <vector>

namespace diskvet::runner {

// A run of consecutive probe blocks (block indices of `block_bytes` each).
struct ProbeExtent {
  uint64_t first_block = 0;
  uint32_t blocks = 1;
  uint64_t end() const { return first_block + blocks; }
};

struct AddressPlan {
  uint32_t block_bytes = 4096;
  uint64_t device_blocks = 0;            // claimed capacity / block_bytes
  std::vector<ProbeExtent> extents;      // sorted, disjoint, not touching the flush range
  uint64_t flush_first_block = 0;        // the data written between writing and reading back
  uint64_t flush_blocks = 0;
  uint64_t blocks() const;               // probe blocks in all extents
};

// The default budget: min(1 GiB, 0.1% of the capacity), but never below min(4 MiB, capacity / 16),
// so a small device still gets every power of two and a sample.
uint64_t default_probe_budget_bytes(uint64_t capacity_bytes);
// The default flush: min(256 MiB, capacity / 16), and at least the budget where the device allows.
uint64_t default_probe_flush_bytes(uint64_t capacity_bytes, uint64_t budget_bytes);

// The largest random extent: 1 MiB (fewer seeks on a disk, one I/O each).
inline constexpr uint64_t kMaxProbeExtentBytes = uint64_t{1} << 20;

// The plan for a device of `capacity_bytes` (at least 4 blocks). Blocks in order of priority until
// the budget is spent: first and last, each power of two 2^k and 2^k +- 1 (low k first), then
// random extents drawn from `seed`. The flush range is the lowest gap [2^k + 2, 2^(k+1) - 1) that
// holds `flush_bytes` (or the largest gap there is, the flush then shorter). Never a block twice,
// never more than budget_bytes / block_bytes blocks (at least the first and last).
AddressPlan plan_addresses(uint64_t capacity_bytes, uint32_t block_bytes, uint64_t budget_bytes, uint64_t flush_bytes, uint64_t seed);

// Extents of `candidates` blocks spread evenly over the open interval (good, bad) of block indices,
// for one round of bisection: at most `count`, each one block, none inside [flush_first, flush_end).
std::vector<ProbeExtent> bisection_extents(uint64_t good_block, uint64_t bad_block, uint32_t count, uint64_t flush_first, uint64_t flush_end);

}  // namespace diskvet::runner
