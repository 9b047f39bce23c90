// The address-integrity probe on a fake block device: the plan's properties, each finding, and the
// real capacity bisection finds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <set>
#include <vector>

#include "runner/verify/address_plan.hpp"
#include "runner/verify/address_probe.hpp"
#include "runner/verify/crc32c.hpp"

namespace diskvet::runner {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint32_t kBs = 4096;

// A device claiming `claimed` bytes and storing `real` of them, the rest as a fake drive would.
class FakeDevice final : public ProbeDevice {
 public:
  enum class Mode { honest, wrap, drop, stale, errors };
  FakeDevice(uint64_t claimed, uint64_t real, Mode mode) : claimed_(claimed), real_(real), mode_(mode) {}

  int read(uint64_t offset, std::byte* buf, size_t len) override {
    for (size_t done = 0; done < len; done += kBs) {
      const uint64_t at = offset + done;
      if (at >= claimed_) return EIO;
      if (mode_ == Mode::errors && at >= real_) return EIO;
      if (mode_ != Mode::honest && mode_ != Mode::wrap && at >= real_) {
        if (mode_ == Mode::drop) std::memset(buf + done, 0, kBs);
        else std::memset(buf + done, static_cast<int>(0x40 + (at / kBs) % 64), kBs);  // what the drive held before
        continue;
      }
      const uint64_t where = mode_ == Mode::wrap ? at % real_ : at;
      auto it = blocks_.find(where);
      if (it == blocks_.end()) std::memset(buf + done, 0, kBs);
      else std::memcpy(buf + done, it->second.data(), kBs);
    }
    return 0;
  }
  int write(uint64_t offset, const std::byte* buf, size_t len) override {
    for (size_t done = 0; done < len; done += kBs) {
      const uint64_t at = offset + done;
      if (at >= claimed_) return EIO;
      if (mode_ == Mode::errors && at >= real_) return EIO;
      if (mode_ != Mode::honest && mode_ != Mode::wrap && at >= real_) continue;  // dropped
      auto& b = blocks_[mode_ == Mode::wrap ? at % real_ : at];
      b.assign(buf + done, buf + done + kBs);
    }
    return 0;
  }

 private:
  uint64_t claimed_, real_;
  Mode mode_;
  std::map<uint64_t, std::vector<std::byte>> blocks_;
};

AddressProbeResult probe(FakeDevice& dev, uint64_t claimed, uint64_t budget = 2 * kMiB, uint64_t flush = 4 * kMiB) {
  AddressProbeOptions o;
  o.budget_bytes = budget;
  o.flush_bytes = flush;
  return run_address_probe(dev, claimed, kBs, 512, 0x1234, 0xabcdef, o);
}

std::set<uint64_t> planned_blocks(const AddressPlan& p) {
  std::set<uint64_t> s;
  for (const auto& e : p.extents)
    for (uint64_t b = e.first_block; b < e.end(); ++b) EXPECT_TRUE(s.insert(b).second) << "block " << b << " planned twice";
  return s;
}

TEST(AddressPlan, HoldsFirstLastEveryPowerOfTwoAndNoBlockTwiceWithinTheBudget) {
  for (uint64_t claimed : {64 * kMiB, 100 * kMiB + 12288, 3 * (uint64_t{1} << 30), uint64_t{8} << 40}) {
    for (uint64_t seed : {1u, 7u, 99u}) {
      const uint64_t budget = std::min<uint64_t>(claimed / 64, 8 * kMiB);
      const AddressPlan p = plan_addresses(claimed, kBs, budget, 4 * kMiB, seed);
      const std::set<uint64_t> s = planned_blocks(p);
      const uint64_t blocks = claimed / kBs;
      EXPECT_LE(s.size() * kBs, budget) << claimed;
      EXPECT_EQ(p.blocks(), s.size());
      EXPECT_TRUE(s.count(0));
      EXPECT_TRUE(s.count(blocks - 1));
      for (uint64_t q = 1; q < blocks; q <<= 1) {
        EXPECT_TRUE(s.count(q)) << "power of two " << q << " of " << claimed;
        EXPECT_TRUE(s.count(q - 1));
        if (q + 1 < blocks) {
          EXPECT_TRUE(s.count(q + 1));
        }
      }
      EXPECT_LT(*s.rbegin(), blocks);
      EXPECT_TRUE(std::is_sorted(p.extents.begin(), p.extents.end(), [](auto& a, auto& b) { return a.first_block < b.first_block; }));
      for (uint64_t b = p.flush_first_block; b < p.flush_first_block + p.flush_blocks; b += 97) EXPECT_FALSE(s.count(b)) << "block in the flush range";
      EXPECT_GT(p.flush_blocks, 0u);
      // The random sample reaches the top quarter of the capacity, not only its start.
      EXPECT_GT(std::count_if(s.begin(), s.end(), [&](uint64_t b) { return b > blocks / 4 * 3 && b != blocks - 1; }), 1);
    }
  }
}

TEST(AddressPlan, NeverExceedsATinyBudget) {
  const AddressPlan p = plan_addresses(uint64_t{1} << 40, kBs, 10 * kBs, kMiB, 3);
  EXPECT_EQ(planned_blocks(p).size(), 10u);
  EXPECT_EQ(p.extents.front().first_block, 0u);
  EXPECT_EQ(p.extents.back().end(), (uint64_t{1} << 40) / kBs);
}

TEST(AddressPlan, DefaultBudgetIsTheSmallerOfOneGibAndATenthOfAPercent) {
  EXPECT_EQ(default_probe_budget_bytes(uint64_t{8} << 40), uint64_t{1} << 30);
  EXPECT_EQ(default_probe_budget_bytes(uint64_t{32} << 30), (uint64_t{32} << 30) / 1000);
  EXPECT_EQ(default_probe_budget_bytes(64 * kMiB), 4 * kMiB);  // a small device: the floor
}

TEST(AddressProbe, AnHonestDevicePasses) {
  FakeDevice dev(64 * kMiB, 64 * kMiB, FakeDevice::Mode::honest);
  auto r = probe(dev, 64 * kMiB);
  EXPECT_FALSE(r.failed()) << r.summary();
  EXPECT_EQ(r.real_bytes, 64 * kMiB);
  EXPECT_EQ(r.blocks_checked, r.blocks_planned);
  EXPECT_EQ(r.flush_bytes, 4 * kMiB);
}

TEST(AddressProbe, WrappedAddressesAreAliasingAtTheWrapPoint) {
  FakeDevice dev(256 * kMiB, 32 * kMiB, FakeDevice::Mode::wrap);
  auto r = probe(dev, 256 * kMiB);
  ASSERT_TRUE(r.failed());
  EXPECT_GT(r.faults[static_cast<size_t>(AddressFault::aliased)], 0u) << r.summary();
  EXPECT_EQ(r.real_bytes, 32 * kMiB) << r.summary();
  ASSERT_TRUE(r.wrap_period_blocks);
  EXPECT_EQ(*r.wrap_period_blocks * kBs, 32 * kMiB);
  const auto& first = r.evidence.front();
  EXPECT_EQ(first.fault, AddressFault::aliased);
  EXPECT_EQ(first.block * kBs, 32 * kMiB);
  EXPECT_EQ(first.tag_block, 0u);
  EXPECT_NE(r.summary().find("carries the tag of block 0"), std::string::npos) << r.summary();
}

// A fake of `real` bytes claiming 128 MiB: found failing with `fault`, its real capacity to the byte.
AddressProbeResult expect_found(FakeDevice::Mode mode, uint64_t real, AddressFault fault) {
  FakeDevice dev(128 * kMiB, real, mode);
  auto r = probe(dev, 128 * kMiB);
  EXPECT_TRUE(r.failed());
  EXPECT_GT(r.faults[static_cast<size_t>(fault)], 0u) << r.summary();
  EXPECT_EQ(r.faults[static_cast<size_t>(AddressFault::aliased)], 0u) << r.summary();
  EXPECT_EQ(r.faults[static_cast<size_t>(AddressFault::garbage)], 0u) << r.summary();
  EXPECT_EQ(r.real_bytes, real) << r.summary();
  return r;
}

TEST(AddressProbe, AWrapAtAnAddressThatIsNoPowerOfTwoIsFoundWhereTheFlushLandsOnAnAlias) {
  for (uint64_t real : {40 * kMiB, 48 * kMiB + kBs, 100 * kMiB}) {
    FakeDevice dev(128 * kMiB, real, FakeDevice::Mode::wrap);
    auto r = probe(dev, 128 * kMiB);
    EXPECT_GT(r.faults[static_cast<size_t>(AddressFault::aliased)], 0u) << r.summary();
    EXPECT_EQ(r.real_bytes, real) << r.summary();
  }
}

TEST(AddressProbe, DroppedWritesReadZerosAndBisectionFindsTheRealCapacity) {
  auto r = expect_found(FakeDevice::Mode::drop, 40 * kMiB + 3 * kBs, AddressFault::zeros);
  EXPECT_GT(r.bisect_rounds, 0u);
  ASSERT_TRUE(r.highest_good_block && r.lowest_bad_block);
  EXPECT_EQ(*r.highest_good_block + 1, *r.lowest_bad_block);
}

TEST(AddressProbe, StaleDataPastTheRealCapacityIsALostWrite) { expect_found(FakeDevice::Mode::stale, 20 * kMiB, AddressFault::stale); }

TEST(AddressProbe, ErrorsPastSomeAddressAreFindings) {
  auto r = expect_found(FakeDevice::Mode::errors, 50 * kMiB, AddressFault::write_error);
  ASSERT_FALSE(r.evidence.empty());
  EXPECT_EQ(r.evidence.front().error, EIO);
}

TEST(AddressProbe, ClassifiesGarbageApartFromStaleData) {
  std::vector<std::byte> block(kBs), written(kBs);
  const BlockIdentity id{1, 8, 1, 2, kBs};
  fill_block(written.data(), id, crc32c);
  for (size_t i = 0; i < kBs; ++i) block[i] = std::byte(static_cast<uint8_t>(i * 7 + 1));
  uint64_t tag = 0;
  EXPECT_EQ(classify_block(written.data(), id, 0, crc32c, tag), std::nullopt);
  EXPECT_EQ(classify_block(block.data(), id, 0, crc32c, tag), AddressFault::garbage);
  EXPECT_EQ(classify_block(block.data(), id, crc32c(0, block.data(), kBs), crc32c, tag), AddressFault::stale);
  // A block of an earlier run (another seed) at this very address: old data, not this run's write.
  std::vector<std::byte> earlier(kBs);
  fill_block(earlier.data(), BlockIdentity{1, 8, 1, 3, kBs}, crc32c);
  EXPECT_EQ(classify_block(earlier.data(), id, 0, crc32c, tag), AddressFault::stale);
  std::vector<std::byte> other(kBs);
  fill_block(other.data(), BlockIdentity{1, 64, 1, 2, kBs}, crc32c);
  EXPECT_EQ(classify_block(other.data(), id, 0, crc32c, tag), AddressFault::aliased);
  EXPECT_EQ(tag, 64u);
}

TEST(AddressProbe, StopsWhenAskedAndSaysSo) {
  FakeDevice dev(64 * kMiB, 64 * kMiB, FakeDevice::Mode::honest);
  std::atomic<bool> stop{true};
  auto r = run_address_probe(dev, 64 * kMiB, kBs, 512, 1, 2, AddressProbeOptions{}, {}, &stop);
  EXPECT_TRUE(r.interrupted);
  EXPECT_EQ(r.blocks_checked, 0u);
}

}  // namespace
}  // namespace diskvet::runner
