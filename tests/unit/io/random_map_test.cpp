// fio's random map: every block once per pass, a new order every pass, O(1) memory.
#include "runner/io/random_map.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace diskvet::runner;

namespace {

std::vector<uint64_t> pass_of(RandomMap& map, uint64_t blocks) {
  std::vector<uint64_t> order(blocks);
  for (auto& b : order) b = map.next();
  return order;
}

}  // namespace

TEST(RandomMap, EveryBlockExactlyOncePerPass) {
  for (uint64_t blocks : {1ull, 2ull, 3ull, 7ull, 8ull, 9ull, 1000ull, 2048ull, 4097ull, 65'536ull}) {
    RandomMap map(blocks, blocks * 31 + 7);
    for (int pass = 0; pass < 3; ++pass) {
      std::vector<uint64_t> order = pass_of(map, blocks);
      std::vector<bool> seen(blocks);
      for (uint64_t b : order) {
        ASSERT_LT(b, blocks);
        ASSERT_FALSE(seen[b]) << "block " << b << " twice in pass " << pass << " of " << blocks;
        seen[b] = true;
      }
    }
  }
}

TEST(RandomMap, EachPassAndEachSeedHasItsOwnOrder) {
  const uint64_t blocks = 2048;
  RandomMap a(blocks, 1), b(blocks, 2);
  const auto a1 = pass_of(a, blocks), a2 = pass_of(a, blocks), b1 = pass_of(b, blocks);
  EXPECT_NE(a1, a2);
  EXPECT_NE(a1, b1);
  // Random, not a walk: few neighbours follow each other.
  size_t steps = 0;
  for (size_t i = 1; i < a1.size(); ++i) steps += a1[i] == a1[i - 1] + 1;
  EXPECT_LT(steps, blocks / 50);
}

TEST(RandomMap, HugeRegionsNeedNoMemory) {
  const uint64_t blocks = uint64_t{1} << 50;  // 4 EiB of 4K blocks
  RandomMap map(blocks + 3, 9);
  EXPECT_LE(sizeof map, 128u);
  uint64_t lo = UINT64_MAX, hi = 0;
  for (int i = 0; i < 10'000; ++i) {
    const uint64_t b = map.next();
    ASSERT_LT(b, blocks + 3);
    lo = std::min(lo, b), hi = std::max(hi, b);
  }
  EXPECT_LT(lo, blocks / 100);
  EXPECT_GT(hi, blocks / 100 * 99);
}
