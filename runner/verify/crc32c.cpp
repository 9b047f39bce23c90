// CRC-32C: the SSE4.2 instruction path (8 bytes a step) and the portable slicing-by-8 table path.
#include "runner/verify/crc32c.hpp"

#include <nmmintrin.h>

#include <array>
#include <cstring>

namespace diskvet::runner {

namespace {

constexpr uint32_t kPoly = 0x82f63b78;  // reflected Castagnoli polynomial

constexpr std::array<std::array<uint32_t, 256>, 8> make_tables() {
  std::array<std::array<uint32_t, 256>, 8> t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ ((c & 1) ? kPoly : 0);
    t[0][i] = c;
  }
  for (uint32_t i = 0; i < 256; ++i)
    for (size_t s = 1; s < 8; ++s) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xff];
  return t;
}

constexpr auto kTables = make_tables();

// GF(2) polynomial arithmetic modulo the CRC polynomial (reflected), after zlib's crc32_combine:
// it joins CRCs of adjacent pieces, so the instruction path can run three independent chains.
constexpr uint32_t multmodp(uint32_t a, uint32_t b) {
  uint32_t m = 1u << 31, p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) == 0) break;
    }
    m >>= 1;
    b = b & 1 ? (b >> 1) ^ kPoly : b >> 1;
  }
  return p;
}

constexpr std::array<uint32_t, 32> make_x2n() {
  std::array<uint32_t, 32> t{};
  uint32_t p = 1u << 30;  // x^1
  t[0] = p;
  for (size_t n = 1; n < 32; ++n) t[n] = p = multmodp(p, p);
  return t;
}

constexpr auto kX2n = make_x2n();

// x^(8 * len_bytes) modulo the polynomial.
uint32_t x8nmodp(uint64_t len_bytes) {
  uint32_t p = 1u << 31;  // x^0
  unsigned k = 3;
  for (uint64_t n = len_bytes; n; n >>= 1, ++k)
    if (n & 1) p = multmodp(kX2n[k & 31], p);
  return p;
}

// crc(A + B) from crc(A), crc(B) and the length of B.
uint32_t crc32c_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b) { return multmodp(x8nmodp(len_b), crc_a) ^ crc_b; }

}  // namespace

uint32_t crc32c_table(uint32_t crc, const void* data, size_t len) {
  const auto* p = static_cast<const uint8_t*>(data);
  uint32_t c = ~crc;
  while (len >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    w ^= c;
    c = kTables[7][w & 0xff] ^ kTables[6][(w >> 8) & 0xff] ^ kTables[5][(w >> 16) & 0xff] ^ kTables[4][(w >> 24) & 0xff] ^
        kTables[3][(w >> 32) & 0xff] ^ kTables[2][(w >> 40) & 0xff] ^ kTables[1][(w >> 48) & 0xff] ^ kTables[0][w >> 56];
    p += 8;
    len -= 8;
  }
  while (len--) c = (c >> 8) ^ kTables[0][(c ^ *p++) & 0xff];
  return ~c;
}

__attribute__((target("sse4.2"))) uint32_t crc32c_sse42(uint32_t crc, const void* data, size_t len) {
  const auto* p = static_cast<const uint8_t*>(data);
  // The crc32 instruction has a latency of 3 cycles and a throughput of 1: three independent
  // chains over three thirds of a long buffer keep it busy, and the thirds' CRCs are then joined.
  constexpr size_t kThreeWayMin = 8192;
  if (len >= kThreeWayMin) {
    const size_t words = len / 24;
    const size_t third = words * 8;
    uint64_t c0 = static_cast<uint32_t>(~crc), c1 = 0xffffffffu, c2 = 0xffffffffu;
    const uint8_t* p1 = p + third;
    const uint8_t* p2 = p + 2 * third;
    for (size_t i = 0; i < words; ++i) {
      uint64_t w0, w1, w2;
      std::memcpy(&w0, p + 8 * i, 8);
      std::memcpy(&w1, p1 + 8 * i, 8);
      std::memcpy(&w2, p2 + 8 * i, 8);
      c0 = _mm_crc32_u64(c0, w0);
      c1 = _mm_crc32_u64(c1, w1);
      c2 = _mm_crc32_u64(c2, w2);
    }
    uint32_t joined = crc32c_combine(crc32c_combine(~static_cast<uint32_t>(c0), ~static_cast<uint32_t>(c1), third),
                                     ~static_cast<uint32_t>(c2), third);
    return crc32c_sse42(joined, p + 3 * third, len - 3 * third);
  }
  uint64_t c = ~crc;
  while (len >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    c = _mm_crc32_u64(c, w);
    p += 8;
    len -= 8;
  }
  uint32_t c32 = static_cast<uint32_t>(c);
  while (len--) c32 = _mm_crc32_u8(c32, *p++);
  return ~c32;
}

bool cpu_has_sse42() { return __builtin_cpu_supports("sse4.2"); }

Crc32cFn best_crc32c() { return cpu_has_sse42() ? &crc32c_sse42 : &crc32c_table; }

const char* crc32c_name(Crc32cFn fn) { return fn == &crc32c_sse42 ? "sse4.2" : "table"; }

}  // namespace diskvet::runner
