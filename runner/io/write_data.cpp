// Write data per write (write_data.hpp), and descriptions of the patterns for reports.
#include "runner/io/write_data.hpp"

#include <fmt/format.h>

namespace diskvet::runner {

namespace {

// The loop almost every write runs: 256 turns of 10 instructions per 4K write. It ran 55 ns slower per
// 4K write when an unrelated change moved it across a 64-byte fetch block, with the very same
// instructions (docs/benchmarks.md, issue 14). Alone in its function and compiled with
// -falign-loops=32 (CMakeLists.txt), it starts on a 32-byte boundary whatever code surrounds it.
[[gnu::noinline]] void xor_stream(uint64_t* out, const uint64_t* pool, size_t words, uint64_t x, uint64_t step) {
  for (size_t i = 0; i < words; ++i, x += step) out[i] = pool[i] ^ x;
}

}  // namespace

void WriteData::fill(std::byte* buf) {
  uint64_t key;
  if (dedupe_pct_ && unique_ && rng_.below(100) < dedupe_pct_) [[unlikely]]
    key = rng_.below(unique_);  // a repeat of an earlier write, byte for byte
  else
    key = unique_++;
  const uint64_t s = mix(key_base_ + key);
  auto* out = reinterpret_cast<uint64_t*>(buf);
  const uint64_t* pool = pool_.data();
  // Members in locals: the stores through out could alias them, and a length reloaded every turn
  // keeps the loop from vectorising.
  const size_t words = words_, random_words = random_words_;
  constexpr uint32_t chunk_words = kCompressChunkBytes / 8;
  // The stream as an induction (x += kStep), not s + i * kStep: SSE2 has no 64-bit multiply, and
  // with one the loop stays scalar (5 GB/s here against 20+ vectorised).
  if (random_words == chunk_words) {
    xor_stream(out, pool, words, s, kStep);
    return;
  }
  for (size_t c = 0; c < words; c += chunk_words) {
    uint64_t x = s + c * kStep;
    for (size_t i = c; i < c + random_words; ++i, x += kStep) out[i] = pool[i] ^ x;
    for (size_t i = c + random_words; i < c + chunk_words; ++i) out[i] = 0;
  }
}

std::string describe(const DataPattern& p) {
  if (p.compress_pct >= 100) return "zeros (buffer_compress_percentage=100): every write identical";
  std::string d = p.dedupe_pct ? fmt::format("{}% of writes repeat an earlier write (dedupe_percentage), the rest unique", p.dedupe_pct)
                               : std::string("unique per write");
  if (p.compress_pct) d += fmt::format("; {}% of each 512 bytes zeros (buffer_compress_percentage), the rest random", p.compress_pct);
  else d += "; random, incompressible";
  return d;
}

}  // namespace diskvet::runner
