// Verification blocks and crc32c: a written block checks clean, and each kind of damage is named;
// no two (block, generation) pairs carry the same bytes.
#include "runner/verify/verify_block.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "runner/io/rng.hpp"
#include "runner/verify/crc32c.hpp"

using namespace diskvet::runner;

namespace {

constexpr uint32_t kBs = 4096;

struct Blocks {
  alignas(64) std::byte block[kBs];
  alignas(64) std::byte scratch[kBs];
};

BlockIdentity id_for(uint64_t lba, uint64_t gen) { return {0xabcdef, lba, gen, 42, kBs}; }

// CRC-32C bit by bit, straight from the definition (reflected polynomial 0x82f63b78): slow, obvious.
uint32_t crc32c_bitwise(uint32_t crc, const void* data, size_t len) {
  const auto* p = static_cast<const uint8_t*>(data);
  uint32_t c = ~crc;
  for (size_t i = 0; i < len; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ ((c & 1) ? 0x82f63b78u : 0);
  }
  return ~c;
}

}  // namespace

TEST(Crc32c, MatchesTheCastagnoliCheckValueAndTheIscsiVectors) {
  EXPECT_EQ(crc32c(0, "123456789", 9), 0xe3069283u);
  // RFC 3720 appendix B.4: 32 bytes of zeros, of ones, ascending and descending.
  uint8_t b[32];
  std::memset(b, 0, sizeof b);
  EXPECT_EQ(crc32c(0, b, sizeof b), 0x8a9136aau);
  std::memset(b, 0xff, sizeof b);
  EXPECT_EQ(crc32c(0, b, sizeof b), 0x62a8ab43u);
  for (uint8_t i = 0; i < 32; ++i) b[i] = i;
  EXPECT_EQ(crc32c(0, b, sizeof b), 0x46dd794eu);
  for (uint8_t i = 0; i < 32; ++i) b[i] = static_cast<uint8_t>(31 - i);
  EXPECT_EQ(crc32c(0, b, sizeof b), 0x113fdb5cu);
  EXPECT_EQ(crc32c(0x1234, b, 0), 0x1234u);
}

// ISA-L's seed and result are not inverted, ours are: every length (its code changes with the
// length: folding for long buffers, bytes at the tail), seeds and chains against the bitwise
// definition.
TEST(Crc32c, AgreesWithTheBitwiseDefinitionOnEveryLengthSeedAndChain) {
  std::vector<uint8_t> data(70'000);
  Rng rng(3);
  for (auto& b : data) b = static_cast<uint8_t>(rng.next());
  std::vector<size_t> lengths;
  for (size_t len = 0; len < 1100; ++len) lengths.push_back(len);
  for (size_t len : {4095u, 4096u, 4097u, 8191u, 8192u, 12'345u, 65'536u, 70'000u}) lengths.push_back(len);
  for (size_t len : lengths) {
    ASSERT_EQ(crc32c(0, data.data(), len), crc32c_bitwise(0, data.data(), len)) << len;
    ASSERT_EQ(crc32c(0x1234, data.data(), len), crc32c_bitwise(0x1234, data.data(), len)) << len;
    uint32_t chained = crc32c(crc32c(0, data.data(), len / 3), data.data() + len / 3, len - len / 3);
    ASSERT_EQ(chained, crc32c_bitwise(0, data.data(), len)) << len;
  }
}

TEST(VerifyBlock, AFilledBlockMatchesItsIdentityAndNoOther) {
  Blocks b;
  fill_block(b.block, id_for(8, 3), best_crc32c());
  EXPECT_TRUE(block_matches(b.block, id_for(8, 3), best_crc32c()));
  EXPECT_TRUE(block_matches(b.block, id_for(8, 3), &crc32c_bitwise));
  EXPECT_FALSE(block_matches(b.block, id_for(16, 3), best_crc32c()));
  EXPECT_FALSE(block_matches(b.block, id_for(8, 4), best_crc32c()));
}

TEST(VerifyBlock, AFlippedPayloadByteIsCorruptionAtThatByte) {
  Blocks b;
  fill_block(b.block, id_for(8, 1), best_crc32c());
  b.block[1000] ^= std::byte{0x10};
  ASSERT_FALSE(block_matches(b.block, id_for(8, 1), best_crc32c()));
  BlockMismatch m = explain_mismatch(b.block, id_for(8, 1), 8 * 512, best_crc32c(), b.scratch);
  EXPECT_EQ(m.kind, MismatchKind::corrupt);
  EXPECT_FALSE(m.crc_ok);
  EXPECT_EQ(m.first_bad_byte, 1000u);
  EXPECT_EQ(m.last_bad_byte, 1000u);
  EXPECT_EQ(m.bad_bytes, 1u);
  EXPECT_EQ(m.offset_bytes, 8u * 512);
}

TEST(VerifyBlock, AValidBlockOfAnotherLbaIsAMisdirectedWrite) {
  Blocks b;
  fill_block(b.block, id_for(16, 1), best_crc32c());
  BlockMismatch m = explain_mismatch(b.block, id_for(8, 1), 8 * 512, best_crc32c(), b.scratch);
  EXPECT_EQ(m.kind, MismatchKind::misdirected);
  EXPECT_TRUE(m.crc_ok);
  EXPECT_EQ(m.found.lba, 16u);
  EXPECT_EQ(m.expected.lba, 8u);
}

TEST(VerifyBlock, AnOlderGenerationIsALostWrite) {
  Blocks b;
  fill_block(b.block, id_for(8, 2), best_crc32c());
  BlockMismatch m = explain_mismatch(b.block, id_for(8, 5), 8 * 512, best_crc32c(), b.scratch);
  EXPECT_EQ(m.kind, MismatchKind::stale);
  EXPECT_EQ(m.found.generation, 2u);
  EXPECT_EQ(m.expected.generation, 5u);
}

TEST(VerifyBlock, ADamagedSectorInsideTheBlockIsCorruptionNotATear) {
  Blocks b;
  fill_block(b.block, id_for(8, 1), best_crc32c());
  std::memset(b.block + 1024, 'X', 512);
  EXPECT_EQ(explain_mismatch(b.block, id_for(8, 1), 0, best_crc32c(), b.scratch).kind, MismatchKind::corrupt);
}

TEST(VerifyBlock, NewFirstSectorsOverOldOnesAreATornBlock) {
  Blocks b, old;
  fill_block(old.block, id_for(8, 1), best_crc32c());
  fill_block(b.block, id_for(8, 2), best_crc32c());
  std::memcpy(b.block + 1024, old.block + 1024, kBs - 1024);  // only two sectors of generation 2 landed
  BlockMismatch m = explain_mismatch(b.block, id_for(8, 2), 8 * 512, best_crc32c(), b.scratch);
  EXPECT_EQ(m.kind, MismatchKind::torn);
  EXPECT_EQ(m.first_bad_byte, 1024u);
}

TEST(VerifyBlock, GarbageAfterIntactFirstSectorsIsCorruptNotTorn) {
  // Shaped like a tear (new header and first sectors, damage to the end) but the tail is random
  // bytes, not the previous generation: nothing says a write was cut short.
  Blocks b;
  fill_block(b.block, id_for(8, 2), best_crc32c());
  Rng rng(7);
  for (uint32_t i = 1024; i < kBs; ++i) b.block[i] = static_cast<std::byte>(rng.next());
  BlockMismatch m = explain_mismatch(b.block, id_for(8, 2), 8 * 512, best_crc32c(), b.scratch);
  EXPECT_EQ(m.kind, MismatchKind::corrupt);
  EXPECT_EQ(m.first_bad_byte / 512 * 512, 1024u);
}

TEST(VerifyBlock, ZerosAreAnUnwrittenBlockAndAnotherSeedIsForeign) {
  Blocks b{};
  EXPECT_EQ(explain_mismatch(b.block, id_for(8, 1), 0, best_crc32c(), b.scratch).kind, MismatchKind::unwritten);
  BlockIdentity other_run = id_for(8, 1);
  other_run.seed = 43;
  fill_block(b.block, other_run, best_crc32c());
  EXPECT_EQ(explain_mismatch(b.block, id_for(8, 1), 0, best_crc32c(), b.scratch).kind, MismatchKind::foreign);
}

TEST(WriteData, VerificationBlocksStayUniquePerBlockAndGeneration) {
  // Verifying writes carry the verifier's blocks, not the write-data pattern: each names its LBA
  // and generation, so no two (block, generation) pairs ever carry the same bytes.
  const Crc32cFn crc = best_crc32c();
  std::vector<std::byte> buf(4096);
  std::set<std::string> seen;
  for (uint64_t lba = 0; lba < 64; ++lba)
    for (uint32_t gen = 1; gen <= 16; ++gen) {
      BlockIdentity id{};
      id.lba = lba;
      id.generation = gen;
      id.bs_bytes = 4096;
      fill_block(buf.data(), id, crc);
      seen.insert(std::string(reinterpret_cast<const char*>(buf.data()), buf.size()));
    }
  EXPECT_EQ(seen.size(), 64u * 16);
}
