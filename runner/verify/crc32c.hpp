// CRC-32C (Castagnoli), the checksum of verification blocks, computed by ISA-L (crc32_iscsi), which
// picks the fastest code for the CPU once (AVX-512 or PCLMUL folding, the crc32 instruction, a table).
#pragma once

#include <cstddef>
#include <cstdint>

namespace diskvet::runner {

using Crc32cFn = uint32_t (*)(uint32_t crc, const void* data, size_t len);

// Takes and returns the finalised value: crc32c(crc32c(0, a), b) == crc32c(0, a + b), and
// crc32c(0, "123456789") == 0xe3069283.
uint32_t crc32c(uint32_t crc, const void* data, size_t len);

// The implementation a verifier calls through a pointer, and its name for the report.
Crc32cFn best_crc32c();
const char* crc32c_name(Crc32cFn fn);

}  // namespace diskvet::runner
