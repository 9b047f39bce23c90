// Little-endian integers read out of a byte buffer a controller returned (NVMe log pages).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace diskvet::devices {

// The T at byte `off` of `b`; the caller checks that sizeof(T) bytes are there.
template <typename T>
T le(std::span<const uint8_t> b, size_t off) {
  T v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) v |= static_cast<T>(static_cast<T>(b[off + i]) << (8 * i));
  return v;
}

}  // namespace diskvet::devices
