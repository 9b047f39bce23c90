// The address-integrity probe's plan of addresses.
#include "runner/verify/address_plan.hpp"

#include <algorithm>
#include <bit>

namespace diskvet::runner {

namespace {

uint64_t splitmix(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

// Consecutive blocks as extents, each at most max_blocks long.
std::vector<ProbeExtent> as_extents(const std::vector<uint64_t>& sorted, uint64_t max_blocks) {
  std::vector<ProbeExtent> out;
  for (uint64_t b : sorted) {
    if (!out.empty() && out.back().end() == b && out.back().blocks < max_blocks) ++out.back().blocks;
    else out.push_back(ProbeExtent{b, 1});
  }
  return out;
}

}  // namespace

uint64_t AddressPlan::blocks() const {
  uint64_t n = 0;
  for (const auto& e : extents) n += e.blocks;
  return n;
}

uint64_t default_probe_budget_bytes(uint64_t capacity_bytes) {
  const uint64_t share = std::min<uint64_t>(uint64_t{1} << 30, capacity_bytes / 1000);
  return std::max(share, std::min<uint64_t>(uint64_t{4} << 20, capacity_bytes / 16));
}

uint64_t default_probe_flush_bytes(uint64_t capacity_bytes, uint64_t budget_bytes) {
  return std::min(std::max<uint64_t>(budget_bytes, std::min<uint64_t>(uint64_t{256} << 20, capacity_bytes / 16)), capacity_bytes / 4);
}

AddressPlan plan_addresses(uint64_t capacity_bytes, uint32_t block_bytes, uint64_t budget_bytes, uint64_t flush_bytes, uint64_t seed) {
  AddressPlan plan;
  plan.block_bytes = block_bytes;
  const uint64_t blocks = capacity_bytes / block_bytes;
  plan.device_blocks = blocks;
  if (blocks < 4) return plan;
  const uint64_t max_blocks = std::max<uint64_t>(2, budget_bytes / block_bytes);

  // The flush range: the lowest gap between two powers of two that holds it, below the last block.
  const uint64_t want_flush = flush_bytes / block_bytes;
  for (uint64_t k = 2; (uint64_t{2} << k) < blocks - 1 && k < 63; ++k) {
    const uint64_t gap = (uint64_t{1} << k) - 3;
    plan.flush_first_block = (uint64_t{1} << k) + 2;
    plan.flush_blocks = std::min(gap, want_flush);
    if (gap >= want_flush) break;
  }
  const uint64_t flush_end = plan.flush_first_block + plan.flush_blocks;
  auto in_flush = [&](uint64_t b) { return b >= plan.flush_first_block && b < flush_end; };

  // First, last, then each power of two with its neighbours, low ones first.
  std::vector<uint64_t> chosen;
  auto take = [&](uint64_t b) {
    if (b < blocks && chosen.size() < max_blocks && std::find(chosen.begin(), chosen.end(), b) == chosen.end()) chosen.push_back(b);
  };
  take(0);
  take(blocks - 1);
  for (uint64_t p = 1; p < blocks && p != 0; p <<= 1) {
    take(p - 1);
    take(p);
    take(p + 1);
  }
  std::sort(chosen.begin(), chosen.end());

  // The rest of the budget: random extents, one per equal stratum of the capacity, so the sample
  // covers all of it; blocks already chosen or in the flush range are left out.
  const uint64_t rest = max_blocks - chosen.size();
  const uint64_t extent_blocks = std::clamp<uint64_t>(rest / 64, 1, kMaxProbeExtentBytes / block_bytes);
  const uint64_t strata = rest / extent_blocks;
  std::vector<uint64_t> sample;
  uint64_t state = seed;
  for (uint64_t s = 0; s < strata; ++s) {
    const uint64_t lo = s * blocks / strata, hi = (s + 1) * blocks / strata;
    if (hi - lo < extent_blocks) continue;
    const uint64_t start = lo + splitmix(state) % (hi - lo - extent_blocks + 1);
    for (uint64_t b = start; b < start + extent_blocks; ++b)
      if (!in_flush(b) && !std::binary_search(chosen.begin(), chosen.end(), b)) sample.push_back(b);
  }
  chosen.insert(chosen.end(), sample.begin(), sample.end());
  std::sort(chosen.begin(), chosen.end());
  plan.extents = as_extents(chosen, kMaxProbeExtentBytes / block_bytes);
  return plan;
}

std::vector<ProbeExtent> bisection_extents(uint64_t good_block, uint64_t bad_block, uint32_t count, uint64_t flush_first, uint64_t flush_end) {
  std::vector<uint64_t> picks;
  if (bad_block <= good_block + 1) return {};
  const uint64_t between = bad_block - good_block - 1;
  for (uint64_t i = 1; i <= std::min<uint64_t>(count, between); ++i) {
    const uint64_t b = between <= count ? good_block + i : good_block + i * (bad_block - good_block) / (uint64_t{count} + 1);
    if ((b < flush_first || b >= flush_end) && (picks.empty() || picks.back() != b)) picks.push_back(b);
  }
  return as_extents(picks, 1);
}

}  // namespace diskvet::runner
