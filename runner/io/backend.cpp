// Buffer pool shared by the device backends.
#include "runner/io/backend.hpp"

#include <cerrno>

#include "runner/io/rng.hpp"

namespace diskvet::runner {

Result<BufferPool> BufferPool::create(uint32_t slots, uint32_t slot_bytes, uint64_t seed) {
  BufferPool pool;
  pool.slot_bytes_ = slot_bytes;
  pool.bytes_ = static_cast<size_t>(slots) * slot_bytes;
  void* p = ::mmap(nullptr, pool.bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (p == MAP_FAILED) return system_error("buffers", "cannot allocate I/O buffers", errno, "lower --iodepth or --bs");
  pool.base_ = static_cast<std::byte*>(p);
  Rng rng(seed);
  auto* words = reinterpret_cast<uint64_t*>(pool.base_);
  for (size_t i = 0; i < pool.bytes_ / sizeof(uint64_t); ++i) words[i] = rng.next();
  return pool;
}

}  // namespace diskvet::runner
