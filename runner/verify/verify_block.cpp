// Filling and checking verification blocks, and classifying a mismatch.
#include "runner/verify/verify_block.hpp"

#include <cstring>

namespace diskvet::runner {

namespace {

constexpr size_t kCrcOffset = offsetof(BlockHeader, crc32c);

uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

uint32_t block_crc(const std::byte* block, uint32_t bs_bytes, Crc32cFn crc) {
  static constexpr uint32_t kZero = 0;
  uint32_t c = crc(0, block, kCrcOffset);
  c = crc(c, &kZero, sizeof kZero);
  return crc(c, block + sizeof(BlockHeader), bs_bytes - sizeof(BlockHeader));
}

BlockHeader read_header(const std::byte* block) {
  BlockHeader h;
  std::memcpy(&h, block, sizeof h);
  return h;
}

}  // namespace

std::string_view to_string(MismatchKind k) {
  switch (k) {
    case MismatchKind::unwritten: return "unwritten";
    case MismatchKind::corrupt: return "corrupt";
    case MismatchKind::torn: return "torn";
    case MismatchKind::misdirected: return "misdirected";
    case MismatchKind::stale: return "stale";
    case MismatchKind::foreign: return "foreign";
  }
  return "?";
}

void fill_block(std::byte* block, const BlockIdentity& id, Crc32cFn crc) {
  BlockHeader h{kVerifyMagic, id.device_hash, id.lba, id.generation, id.seed, id.bs_bytes, 0};
  std::memcpy(block, &h, sizeof h);
  // The payload is a stream derived from the header, so every block and every generation differ
  // (no deduplication or compression can flatter the device) and a diff can be regenerated.
  // Four independent xorshift lanes, so the compiler can keep them in one vector register.
  uint64_t x0 = mix(id.seed ^ mix(id.lba * 0x9e3779b97f4a7c15 + id.generation) ^ id.device_hash) | 1;
  uint64_t x[4] = {x0, mix(x0) | 1, mix(x0 + 1) | 1, mix(x0 + 2) | 1};
  auto* w = reinterpret_cast<uint64_t*>(block + sizeof h);
  const size_t words = (id.bs_bytes - sizeof h) / sizeof(uint64_t);  // bs is a multiple of 512: words % 4 == 2
  size_t i = 0;
  for (; i + 4 <= words; i += 4)
    for (size_t l = 0; l < 4; ++l) {
      x[l] ^= x[l] << 13;
      x[l] ^= x[l] >> 7;
      x[l] ^= x[l] << 17;
      w[i + l] = x[l];
    }
  for (size_t l = 0; i < words; ++i, ++l) w[i] = mix(x[l] + i);
  uint32_t c = block_crc(block, id.bs_bytes, crc);
  std::memcpy(block + kCrcOffset, &c, sizeof c);
}

bool block_matches(const std::byte* block, const BlockIdentity& id, Crc32cFn crc) {
  BlockHeader h = read_header(block);
  return h.magic == kVerifyMagic && h.device_hash == id.device_hash && h.lba == id.lba && h.generation == id.generation &&
         h.seed == id.seed && h.bs_bytes == id.bs_bytes && h.crc32c == block_crc(block, id.bs_bytes, crc);
}

bool block_valid(const std::byte* block, const BlockIdentity& id, Crc32cFn crc, uint64_t& generation) {
  BlockHeader h = read_header(block);
  generation = h.generation;
  return h.magic == kVerifyMagic && h.device_hash == id.device_hash && h.lba == id.lba && h.seed == id.seed && h.bs_bytes == id.bs_bytes &&
         h.crc32c == block_crc(block, id.bs_bytes, crc);
}

BlockMismatch explain_mismatch(const std::byte* block, const BlockIdentity& id, uint64_t offset_bytes, Crc32cFn crc,
                               std::byte* scratch) {
  BlockMismatch m;
  m.offset_bytes = offset_bytes;
  m.expected = id;
  m.expected_min_generation = id.generation;
  m.found = read_header(block);
  m.crc_ok = m.found.magic == kVerifyMagic && m.found.bs_bytes == id.bs_bytes && m.found.crc32c == block_crc(block, id.bs_bytes, crc);
  fill_block(scratch, id, crc);
  bool first = true;
  for (uint32_t i = 0; i < id.bs_bytes; ++i) {
    if (block[i] == scratch[i]) continue;
    if (first) m.first_bad_byte = i, first = false;
    m.last_bad_byte = i;
    ++m.bad_bytes;
  }
  bool zeros = true;
  for (uint32_t i = 0; i < id.bs_bytes && zeros; ++i) zeros = block[i] == std::byte{0};
  const BlockHeader& f = m.found;
  if (zeros) m.kind = MismatchKind::unwritten;
  else if (!m.crc_ok) {
    // A torn write: the device wrote the first sectors of the block and not the rest, so from a
    // sector boundary to the end the block still holds exactly its previous generation. Damage that
    // is anything else there (garbage, zeros, another block) is corruption, however it is shaped.
    // Generation 1 has no earlier generation of this run to compare with: never called torn.
    const bool header_ok = f.magic == kVerifyMagic && f.device_hash == id.device_hash && f.lba == id.lba && f.seed == id.seed;
    const uint32_t tail_from = m.first_bad_byte / 512 * 512;
    bool torn = header_ok && tail_from >= 512 && id.generation >= 2;
    if (torn) {
      BlockIdentity previous = id;
      previous.generation = id.generation - 1;
      fill_block(scratch, previous, crc);
      torn = std::memcmp(block + tail_from, scratch + tail_from, id.bs_bytes - tail_from) == 0;
    }
    m.kind = torn ? MismatchKind::torn : MismatchKind::corrupt;
  } else if (f.device_hash != id.device_hash || f.seed != id.seed) m.kind = MismatchKind::foreign;
  else if (f.lba != id.lba) m.kind = MismatchKind::misdirected;
  else if (f.generation < id.generation) m.kind = MismatchKind::stale;
  else m.kind = MismatchKind::corrupt;  // a valid block from the future: the bookkeeping or the device lies
  return m;
}

}  // namespace diskvet::runner
