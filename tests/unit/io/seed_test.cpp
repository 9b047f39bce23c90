// Seeds: a run's own unless asked, and every engine run and job of it a stream of its own.
#include "runner/io/seed.hpp"

#include <gtest/gtest.h>

#include <set>

#include "runner/io/engine.hpp"
#include "runner/io/write_data.hpp"

using namespace diskvet::runner;

TEST(Seed, EachRunDrawsItsOwn) {
  std::set<uint64_t> seen;
  for (int i = 0; i < 64; ++i) seen.insert(random_seed());
  EXPECT_EQ(seen.size(), 64u);
  for (uint64_t s : seen) EXPECT_LT(s, uint64_t{1} << 53) << "a JSON reader holds it exactly";
}

TEST(Seed, DerivedSeedsAreDistinctPerIndexAndRepeatForTheSameParent) {
  std::set<uint64_t> seen;
  for (uint64_t parent : {0ull, 1ull, 42ull})
    for (uint64_t i = 0; i < 10'000; ++i) seen.insert(derive_seed(parent, i));
  EXPECT_EQ(seen.size(), 30'000u);
  EXPECT_EQ(derive_seed(42, 7), derive_seed(42, 7));
  SeedSequence a(42), b(42);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(a.next(), b.next());
  EXPECT_EQ(a.used(), 5u);
}

TEST(Seed, ParsesDecimalAndHex) {
  EXPECT_EQ(parse_seed("12345"), 12345u);
  EXPECT_EQ(parse_seed("0x10"), 16u);
  EXPECT_EQ(parse_seed("18446744073709551615"), UINT64_MAX);
  EXPECT_FALSE(parse_seed(""));
  EXPECT_FALSE(parse_seed("0x"));
  EXPECT_FALSE(parse_seed("-1"));
  EXPECT_FALSE(parse_seed("12a"));
  EXPECT_FALSE(parse_seed("18446744073709551616"));
}

// Two workloads (rounds, passes, runs) with different seeds: no 4K write of one equals a write of the other.
TEST(Seed, WorkloadsWithDifferentSeedsShareNoWriteData) {
  auto writes_of = [](uint64_t workload_seed) {
    Workload w;
    w.rw = Pattern::randwrite;
    w.numjobs = 2;
    w.size_bytes = 1 << 20;
    w.seed = workload_seed;
    std::set<std::vector<uint64_t>> blocks;
    for (const JobPlan& p : plan_jobs(w)) {
      WriteData data(4096, p.data, p.seed);
      std::vector<uint64_t> buf(512);
      for (int i = 0; i < 200; ++i) {
        data.fill(reinterpret_cast<std::byte*>(buf.data()));
        blocks.insert(buf);
      }
    }
    return blocks;
  };
  SeedSequence run(random_seed());
  auto first = writes_of(run.next()), second = writes_of(run.next());
  EXPECT_EQ(first.size(), 400u);  // unique within the workload, across its two jobs
  for (const auto& b : second) EXPECT_EQ(first.count(b), 0u);
}
