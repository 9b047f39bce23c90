// Verification state within a memory budget: a 32 TB target's state fits 512 MiB, a budget that
// cannot hold it is refused by name, and the regional layout large devices get still finds
// corrupt, misdirected, unwritten and stale blocks, and a lost write when verify-behind reads it.
#include "runner/verify/verify_state.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "runner/io/job_loop.hpp"
#include "runner/verify/verify_report.hpp"
#include "tests/unit/support/memory_backend.hpp"
#include "tests/unit/support/run_job_harness.hpp"

using namespace diskvet::runner;
using diskvet::testing::MemoryBackend;

namespace {

constexpr uint64_t kTiB = 1ull << 40;
constexpr uint64_t kMiB = 1ull << 20;
constexpr uint32_t kBs = 4096;
constexpr uint64_t kBlocks = 256;
constexpr uint32_t kLbs = 512;
constexpr uint64_t kRegionBlocks = 16;

// A memory device that acknowledges one chosen write and keeps the block's old data: a lost write.
class LosingBackend : public MemoryBackend {
 public:
  LosingBackend(std::vector<std::byte>& disk, uint32_t depth, uint32_t bs) : MemoryBackend(disk, depth, bs), disk_(disk), bs_(bs) {}
  void stage(uint32_t slot, Direction d, uint64_t offset, uint32_t len) {
    if (d == Direction::write && ++writes_ == lose_write_number) {
      lost_offset = offset;
      lost_slot_ = slot;
      old_.assign(disk_.begin() + static_cast<ptrdiff_t>(offset), disk_.begin() + static_cast<ptrdiff_t>(offset + bs_));
    }
    MemoryBackend::stage(slot, d, offset, len);
  }
  template <typename F>
  void reap(F&& f) {
    MemoryBackend::reap([&](Completion c) {
      if (c.slot == lost_slot_ && !old_.empty()) {
        std::memcpy(disk_.data() + lost_offset, old_.data(), bs_);  // the device said done and kept the old block
        old_.clear();
        lost_slot_ = ~0u;
      }
      f(c);
    });
  }
  uint64_t lose_write_number = 0;  // the Nth write staged is lost (0: none)
  uint64_t lost_offset = ~0ull;

 private:
  std::vector<std::byte>& disk_;
  uint32_t bs_;
  uint64_t writes_ = 0;
  uint32_t lost_slot_ = ~0u;
  std::vector<std::byte> old_;
};

VerifyLayout regional_layout() {
  return VerifyLayout{VerifyMode::regional, kBlocks, kBs, kRegionBlocks, 0, 0};
}

struct RegionalLab {
  std::vector<std::byte> disk = std::vector<std::byte>(kBlocks * kBs);
  VerifyState state{regional_layout(), 0, kLbs, identity_hash("SERIAL-1"), 99};
  uint64_t lose_write_number = 0;
  uint64_t lost_offset = ~0ull;

  JobResult run(Pattern rw, uint64_t ios, uint32_t read_pct, uint64_t* overlaps = nullptr, uint32_t depth = 16) {
    JobPlan p;
    p.rw = rw;
    p.bs_bytes = kBs;
    p.depth = depth;
    p.read_pct = read_pct;
    p.region_blocks = kBlocks;
    p.io_limit_bytes = ios * kBs;
    p.seed = ios * 31 + read_pct + seed_bump++;
    LosingBackend backend(disk, depth, kBs);
    backend.lose_write_number = lose_write_number;
    BlockVerifier verifier(state, depth, 0);
    JobResult r = lab::run_to_limit(backend, p, verifier);
    if (overlaps) *overlaps += backend.overlaps;
    lost_offset = backend.lost_offset;
    return r;
  }
  void full_write() { run(Pattern::write, kBlocks, 0); }
  JobResult full_read() { return run(Pattern::read, kBlocks, 100); }
  uint64_t seed_bump = 0;
};

std::set<uint64_t> lbas(const VerifySummary& s) {
  std::set<uint64_t> out;
  for (const auto& m : s.first) out.insert(m.expected.lba);
  return out;
}

}  // namespace

TEST(VerifyLayout, A32TbTargetAt4KFitsTheRunsBudgetInRegionsAndSaysSo) {
  auto l = plan_verify_layout(32 * kTiB, 4096, kDefaultVerifyMemoryBytes);
  ASSERT_TRUE(l) << l.error().message();
  EXPECT_EQ(l->mode, VerifyMode::regional);
  EXPECT_LE(l->state_bytes, kDefaultVerifyMemoryBytes);
  EXPECT_EQ(l->region_blocks, 256u);  // 8 Gi blocks, 32 Mi records of 8 bytes
  // The state allocates what the layout says, not 4 bytes per block (32 GiB).
  VerifyState s(*l, 0, 512, 1, 2);
  EXPECT_LE(s.allocated_bytes(), kDefaultVerifyMemoryBytes);
  EXPECT_EQ(s.allocated_bytes(), l->state_bytes);
  std::string g = describe_guarantee(*l);
  EXPECT_NE(g.find("regional: one record per 256 blocks (1MiB)"), std::string::npos) << g;
}

TEST(VerifyLayout, ABurninAt64KOn32TbFitsAndASmallDriveKeepsExactGenerations) {
  auto big = plan_verify_layout(32 * kTiB, 64 * 1024, kDefaultVerifyMemoryBytes);
  ASSERT_TRUE(big);
  EXPECT_EQ(big->mode, VerifyMode::regional);
  EXPECT_LE(big->state_bytes, kDefaultVerifyMemoryBytes);
  // 100 GiB at 4K: 100 MiB of exact state, within the budget: today's guarantees.
  auto small = plan_verify_layout(100ull << 30, 4096, kDefaultVerifyMemoryBytes);
  ASSERT_TRUE(small);
  EXPECT_EQ(small->mode, VerifyMode::exact);
  EXPECT_EQ(small->region_blocks, 1u);
  EXPECT_EQ(small->state_bytes, 100 * kMiB);
}

TEST(VerifyLayout, ABudgetTooSmallForEvenTheCoarsestStateIsRefusedNamingIt) {
  auto l = plan_verify_layout(32 * kTiB, 512, 4 * kMiB);
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error().exit_code(), 2);
  EXPECT_NE(l.error().message().find("4MiB"), std::string::npos) << l.error().message();
  EXPECT_NE(l.error().message().find("--verify-memory"), std::string::npos) << l.error().message();
}

TEST(VerifyLayout, AStateThatCannotBeAllocatedIsAnErrorNotAnAbort) {
  for (VerifyMode mode : {VerifyMode::exact, VerifyMode::regional}) {
    VerifyLayout l{mode, 1ull << 62, 4096, mode == VerifyMode::exact ? 1u : VerifyState::kMaxRegionBlocks, 1ull << 62, kDefaultVerifyMemoryBytes};
    auto s = VerifyState::create(l, 0, 512, 1, 2, 1'000'000'000);
    ASSERT_FALSE(s) << to_string(mode);
    EXPECT_EQ(s.error().exit_code(), 3);
    EXPECT_NE(s.error().message().find("could not allocate"), std::string::npos) << s.error().message();
  }
}

TEST(VerifyLayout, TheReportStatesTheStateAndItsGuarantee) {
  VerifySummary s;
  s.enabled = true;
  s.layout = *plan_verify_layout(32 * kTiB, 4096, kDefaultVerifyMemoryBytes);
  auto j = verify_json(s);
  const auto& st = j.at("state").as_object();
  EXPECT_EQ(st.at("mode").as_string(), "regional");
  EXPECT_EQ(st.at("region_blocks").to_number<uint64_t>(), 256u);
  EXPECT_EQ(st.at("region_bytes").to_number<uint64_t>(), 1 * kMiB);
  EXPECT_EQ(st.at("budget_bytes").to_number<uint64_t>(), kDefaultVerifyMemoryBytes);
  EXPECT_LE(st.at("memory_bytes").to_number<uint64_t>(), kDefaultVerifyMemoryBytes);
  EXPECT_NE(std::string(st.at("guarantee").as_string()).find("not detected"), std::string::npos);
}

TEST(VerifyLayout, ARunThatVerifiedNothingReportsNoState) {
  // A plain suite run on a writable device: a layout of its region, but no state allocated. The
  // text report printed "verification state: 0B of a 0B budget" for the quick suite.
  VerifySummary s;
  s.layout.blocks = 1000;
  s.layout.bs_bytes = 4096;
  EXPECT_FALSE(verify_json(s).contains("state"));
}

TEST(RegionalVerify, ACleanDeviceRaisesNoAlarmOverManyPassesOfMixedLoad) {
  RegionalLab lab;
  uint64_t overlaps = 0;
  lab.run(Pattern::write, kBlocks, 0, &overlaps);
  VerifySummary total;
  for (int pass = 0; pass < 20; ++pass) {
    total.merge(lab.run(Pattern::randrw, 4 * kBlocks, 70, &overlaps).verify);
    total.merge(lab.full_read().verify);
    if (pass % 5 == 4) lab.full_write();
  }
  EXPECT_EQ(total.mismatches, 0u) << (total.first.empty() ? "" : diskvet::runner::describe_mismatch(total.first[0]));
  EXPECT_EQ(overlaps, 0u) << "two I/Os were in flight to one block";
  EXPECT_GT(total.blocks_verified, 20 * kBlocks);
  EXPECT_EQ(total.blocks_unchecked, 0u);
  EXPECT_EQ(total.layout.mode, VerifyMode::regional);
}

TEST(RegionalVerify, CorruptionAndMisdirectedWritesAreFoundAtTheRightLbas) {
  RegionalLab lab;
  lab.full_write();
  lab.run(Pattern::randrw, 2 * kBlocks, 50);
  for (uint64_t b : {3u, 200u}) lab.disk[b * kBs + 100] ^= std::byte{0xff};
  std::memcpy(lab.disk.data() + 10 * kBs, lab.disk.data() + 20 * kBs, kBs);  // block 20's data landed on 10
  JobResult r = lab.full_read();
  EXPECT_EQ(r.verify.mismatches, 3u);
  EXPECT_EQ(lbas(r.verify), (std::set<uint64_t>{3 * 8, 10 * 8, 200 * 8}));
  for (const auto& m : r.verify.first) {
    if (m.expected.lba == 10 * 8) {
      EXPECT_EQ(m.kind, MismatchKind::misdirected);
      EXPECT_EQ(m.found.lba, 160u);
    } else {
      EXPECT_EQ(m.kind, MismatchKind::corrupt);
      EXPECT_EQ(m.first_bad_byte, 100u);
    }
  }
}

TEST(RegionalVerify, ABlockThatMissedTheLastFullPassIsStale) {
  RegionalLab lab;
  lab.full_write();
  std::vector<std::byte> old(lab.disk.begin() + 37 * kBs, lab.disk.begin() + 38 * kBs);
  lab.run(Pattern::randrw, 2 * kBlocks, 50);
  lab.full_write();  // every region passed again: its floor rises to this pass
  std::memcpy(lab.disk.data() + 37 * kBs, old.data(), kBs);  // the device "lost" the second pass's write of block 37
  JobResult r = lab.full_read();
  ASSERT_EQ(r.verify.mismatches, 1u);
  const BlockMismatch& m = r.verify.first[0];
  EXPECT_EQ(m.kind, MismatchKind::stale);
  EXPECT_EQ(m.expected.lba, 37u * 8);
  EXPECT_LT(m.found.generation, m.expected_min_generation);
  EXPECT_NE(diskvet::runner::describe_mismatch(m).find("a lost write"), std::string::npos);
}

TEST(RegionalVerify, ZerosWhereAPassWroteAreUnwritten) {
  RegionalLab lab;
  lab.full_write();
  std::memset(lab.disk.data() + 99 * kBs, 0, kBs);
  JobResult r = lab.full_read();
  ASSERT_EQ(r.verify.mismatches, 1u);
  EXPECT_EQ(r.verify.first[0].kind, MismatchKind::unwritten);
  EXPECT_EQ(r.verify.first[0].expected.lba, 99u * 8);
}

TEST(RegionalVerify, ALostRandomWriteIsFoundByTheVerifyBehindRead) {
  RegionalLab lab;
  lab.full_write();
  lab.lose_write_number = 40;  // the 40th write of the mixed load: acknowledged, never stored
  JobResult r = lab.run(Pattern::randrw, 2000, 70);
  ASSERT_NE(lab.lost_offset, ~0ull);
  ASSERT_GE(r.verify.mismatches, 1u);
  EXPECT_EQ(lbas(r.verify), (std::set<uint64_t>{lab.lost_offset / kLbs}));
  EXPECT_EQ(r.verify.first[0].kind, MismatchKind::stale);
}

TEST(RegionalVerify, TwoBadBlocksReadManyTimesAreTwoBlocks) {
  RegionalLab lab;
  lab.full_write();
  for (uint64_t b : {9u, 130u}) lab.disk[b * kBs + 700] ^= std::byte{0x01};
  VerifySummary total;
  for (int pass = 0; pass < 5; ++pass) total.merge(lab.full_read().verify);
  EXPECT_EQ(total.mismatches, 10u);
  EXPECT_EQ(total.bad_blocks, 2u);
  EXPECT_TRUE(total.bad_blocks_exact);
}

TEST(RegionalVerify, BeforeAnyFullPassZerosAreUncheckedAndWrittenBlocksAreChecked) {
  RegionalLab lab;
  JobResult w = lab.run(Pattern::randwrite, 40, 0);  // a few blocks here and there, no region complete
  JobResult r = lab.full_read();
  EXPECT_EQ(r.verify.mismatches, 0u);
  EXPECT_EQ(r.verify.blocks_verified + r.verify.blocks_unchecked, kBlocks);
  EXPECT_GT(r.verify.blocks_verified, 0u);
  EXPECT_GT(r.verify.blocks_unchecked, 0u);
  (void)w;
}
