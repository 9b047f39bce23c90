// CRC-32C (Castagnoli), the checksum of verification blocks: the CPU's SSE4.2 crc32 instruction
// when it has one (checked once at run time), else a slicing-by-8 table.
#pragma once

#include <cstddef>
#include <cstdint>

namespace diskvet::runner {

using Crc32cFn = uint32_t (*)(uint32_t crc, const void* data, size_t len);

// Each takes and returns the finalised value: crc32c(crc32c(0, a), b) == crc32c(0, a + b).
uint32_t crc32c_table(uint32_t crc, const void* data, size_t len);
uint32_t crc32c_sse42(uint32_t crc, const void* data, size_t len);  // only where the CPU has SSE4.2

bool cpu_has_sse42();
// The fastest implementation this CPU runs: chosen once by the caller, called through a pointer.
Crc32cFn best_crc32c();
const char* crc32c_name(Crc32cFn fn);

}  // namespace diskvet::runner
