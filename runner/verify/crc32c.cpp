// CRC-32C through ISA-L. It replaced our own SSE4.2 loop (three crc32 chains joined by polynomial
// arithmetic) and slicing-by-8 table: on the same buffers (tests/bench/crc32c_bench, AMD EPYC with
// AVX-512) ISA-L ran 44 GB/s against 8.7 at 4 KiB and 52 against 24 at 64 KiB (docs/benchmarks.md).
// Its variants for CPUs without AVX-512 (PCLMUL, plain SSE4.2), timed separately, still ran 22-24
// GB/s at 4 KiB, and were level with our loop at 64 KiB.
// Our table fallback went too: ISA-L dispatches to its own table code on a CPU without SSE4.2 (none
// made since 2008), and no x86-64 machine the appliance boots lacks it.
#include "runner/verify/crc32c.hpp"

#include <isa-l/crc.h>

#include <algorithm>

namespace diskvet::runner {

uint32_t crc32c(uint32_t crc, const void* data, size_t len) {
  // ISA-L's convention is iSCSI's: the caller seeds with ~0 and inverts the result; ours takes and
  // returns the finalised value, so the seed and the result are inverted here.
  auto* p = static_cast<unsigned char*>(const_cast<void*>(data));  // crc32_iscsi only reads
  uint32_t c = ~crc;
  constexpr size_t kMaxPiece = size_t{1} << 30;  // its length is an int
  while (len > 0) {
    size_t piece = std::min(len, kMaxPiece);
    c = crc32_iscsi(p, static_cast<int>(piece), c);
    p += piece;
    len -= piece;
  }
  return ~c;
}

Crc32cFn best_crc32c() { return &crc32c; }

const char* crc32c_name(Crc32cFn fn) { return fn == &crc32c ? "isa-l" : "other"; }

}  // namespace diskvet::runner
