// The job loop with verification on, over a memory backend: clean passes raise no alarm, damage
// done behind the loop's back between phases is found at the right LBAs, a lost write is stale; and
// the set of blocks in flight that keeps a read off a block being written.
#include "runner/io/verify_job.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>

#include "runner/io/job_loop.hpp"
#include "tests/unit/support/memory_backend.hpp"
#include "tests/unit/support/run_job_harness.hpp"

using namespace diskvet::runner;
using diskvet::testing::MemoryBackend;

namespace {

constexpr uint32_t kBs = 4096;
constexpr uint64_t kBlocks = 256;
constexpr uint32_t kLbs = 512;

struct Lab {
  std::vector<std::byte> disk = std::vector<std::byte>(kBlocks * kBs);
  VerifyState state{0, kBlocks * kBs, kBs, kLbs, identity_hash("SERIAL-1"), 99, 40'000'000};  // outliers: > 40 ms
  uint64_t slow_offset = 0;
  unsigned slow_ms = 0;

  // One job of `ios` I/Os; returns what it found and counts overlapping in-flight I/Os.
  JobResult run(Pattern rw, uint64_t ios, uint32_t read_pct, uint64_t* overlaps = nullptr, uint32_t depth = 16) {
    JobPlan p;
    p.rw = rw;
    p.bs_bytes = kBs;
    p.depth = depth;
    p.read_pct = read_pct;
    p.region_blocks = kBlocks;
    p.io_limit_bytes = ios * kBs;
    p.seed = ios * 31 + read_pct;
    MemoryBackend backend(disk, depth, kBs);
    backend.delay_offset = slow_offset;
    backend.delay_ms = slow_ms;
    lab::StepClock clock;
    backend.clock_ns = &clock.t;
    BlockVerifier verifier(state, depth, 0);
    JobResult r = lab::run_to_limit(backend, p, verifier, clock);
    if (overlaps) *overlaps += backend.overlaps;
    return r;
  }
  void full_write() { run(Pattern::write, kBlocks, 0); }
  JobResult full_read() { return run(Pattern::read, kBlocks, 100); }
};

std::set<uint64_t> lbas(const VerifySummary& s) {
  std::set<uint64_t> out;
  for (const auto& m : s.first) out.insert(m.expected.lba);
  return out;
}

}  // namespace

TEST(VerifyingJob, ACleanDeviceRaisesNoAlarmOverManyPassesOfMixedLoad) {
  Lab lab;
  uint64_t overlaps = 0;
  lab.run(Pattern::write, kBlocks, 0, &overlaps);
  VerifySummary total;
  for (int pass = 0; pass < 20; ++pass) {
    total.merge(lab.run(Pattern::randrw, 4 * kBlocks, 70, &overlaps).verify);
    total.merge(lab.full_read().verify);
  }
  EXPECT_EQ(total.mismatches, 0u);
  EXPECT_EQ(overlaps, 0u) << "two I/Os were in flight to one block";
  EXPECT_GT(total.blocks_verified, 20 * kBlocks);
  EXPECT_GT(total.blocks_written, 10 * kBlocks);
  EXPECT_EQ(total.blocks_unchecked, 0u);
}

TEST(VerifyingJob, ReadsFollowWritesBehindSoEveryWriteIsReadBackDuringMixedLoad) {
  Lab lab;
  lab.full_write();
  JobResult r = lab.run(Pattern::randrw, 2000, 70);
  // With more reads than writes, the backlog hands every written block to a read.
  EXPECT_GE(r.verify.blocks_verified, r.verify.blocks_written);
  EXPECT_EQ(r.verify.mismatches, 0u);
}

TEST(VerifyingJob, CorruptionBetweenPhasesIsFoundAtTheRightLbas) {
  Lab lab;
  lab.full_write();
  for (uint64_t b : {3u, 77u, 200u}) lab.disk[b * kBs + 100] ^= std::byte{0xff};
  JobResult r = lab.full_read();
  EXPECT_EQ(r.verify.mismatches, 3u);
  EXPECT_EQ(lbas(r.verify), (std::set<uint64_t>{3 * 8, 77 * 8, 200 * 8}));
  for (const auto& m : r.verify.first) {
    EXPECT_EQ(m.kind, MismatchKind::corrupt);
    EXPECT_EQ(m.first_bad_byte, 100u);
    EXPECT_EQ(m.bad_bytes, 1u);
  }
}

TEST(VerifyingJob, AMisdirectedWriteIsFoundWhereItLandedAndWhereItWasMeant) {
  Lab lab;
  lab.full_write();
  std::memcpy(lab.disk.data() + 10 * kBs, lab.disk.data() + 20 * kBs, kBs);  // block 20's data landed on 10
  JobResult r = lab.full_read();
  ASSERT_EQ(r.verify.mismatches, 1u);
  EXPECT_EQ(r.verify.first[0].kind, MismatchKind::misdirected);
  EXPECT_EQ(r.verify.first[0].expected.lba, 80u);
  EXPECT_EQ(r.verify.first[0].found.lba, 160u);
}

TEST(VerifyingJob, AStaleGenerationIsALostWrite) {
  Lab lab;
  lab.full_write();
  std::vector<std::byte> old(lab.disk.begin() + 5 * kBs, lab.disk.begin() + 6 * kBs);
  lab.full_write();  // generation 2 everywhere
  std::memcpy(lab.disk.data() + 5 * kBs, old.data(), kBs);  // the device "lost" the second write of block 5
  JobResult r = lab.full_read();
  ASSERT_EQ(r.verify.mismatches, 1u);
  const BlockMismatch& m = r.verify.first[0];
  EXPECT_EQ(m.kind, MismatchKind::stale);
  EXPECT_EQ(m.expected.lba, 40u);
  EXPECT_EQ(m.expected.generation, 2u);
  EXPECT_EQ(m.found.generation, 1u);
}

TEST(VerifyingJob, ListsTheFirstMismatchesAndCountsThemAll) {
  Lab lab;
  lab.full_write();
  std::memset(lab.disk.data(), 0x5a, 100 * kBs);
  JobResult r = lab.full_read();
  EXPECT_EQ(r.verify.mismatches, 100u);
  EXPECT_EQ(r.verify.first.size(), VerifySummary::kMaxListed);
}

TEST(VerifyingJob, AnIoSlowerThanTheLimitIsCountedAndListedWithItsLba) {
  Lab lab;
  lab.full_write();
  lab.slow_offset = 7 * kBs;
  lab.slow_ms = 100;
  JobResult r = lab.run(Pattern::read, kBlocks, 100, nullptr, 1);  // QD1: only that one I/O waits
  EXPECT_EQ(r.verify.slow_ios, 1u);
  ASSERT_EQ(r.verify.first_slow.size(), 1u);
  EXPECT_EQ(r.verify.first_slow[0].lba, 7 * kBs / kLbs);
  EXPECT_EQ(r.verify.first_slow[0].lat_ns, 100'000'000u) << "on the loop's synthetic clock the slow read took exactly its 100 ms";
  EXPECT_FALSE(r.verify.first_slow[0].write);
  EXPECT_EQ(r.verify.mismatches, 0u);
}

TEST(VerifyingJob, TwoBadBlocksReadManyTimesAreTwoBlocksFoundByManyReads) {
  Lab lab;
  lab.full_write();
  for (uint64_t b : {9u, 130u}) lab.disk[b * kBs + 700] ^= std::byte{0x01};
  VerifySummary total;
  for (int pass = 0; pass < 5; ++pass) total.merge(lab.full_read().verify);
  total.merge(lab.run(Pattern::randread, 4 * kBlocks, 100).verify);
  EXPECT_GE(total.mismatches, 10u) << "every read of a bad block counts as a read that found one";
  EXPECT_EQ(total.bad_blocks, 2u) << "each bad block counts once, over every phase of the device's run";
  EXPECT_EQ(lbas(total), (std::set<uint64_t>{9 * 8, 130 * 8}));
  EXPECT_EQ(total.first.size(), 2u) << "a known bad block is not listed again";
}

TEST(BusyBlocks, AgreesWithASetUnderRandomInsertsAndErases) {
  BusyBlocks busy(16);
  std::set<uint64_t> model;
  std::mt19937_64 rng(5);
  for (int i = 0; i < 200000; ++i) {
    uint64_t b = rng() % 97;
    if (model.size() < 16 && rng() % 2) {
      EXPECT_EQ(busy.insert(b), model.insert(b).second);
    } else if (!model.empty()) {
      auto it = model.lower_bound(b);
      if (it == model.end()) it = model.begin();
      busy.erase(*it);
      EXPECT_TRUE(busy.insert(*it)) << "an erased block is free again";
      busy.erase(*it);
      model.erase(it);
    }
    for (uint64_t x : model) ASSERT_FALSE(busy.insert(x)) << "lost block " << x << " at step " << i;
  }
}
