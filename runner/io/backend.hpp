// The I/O backend seam, after fio's engine split: stage an I/O without a syscall, submit the staged
// batch and wait for at least N completions, reap every ready completion. A backend is chosen once
// per job and the job loop is instantiated for it, so no virtual call or branch picks it per I/O.
#pragma once

#include <sys/mman.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/error.hpp"
#include "runner/io/workload.hpp"

namespace diskvet::runner {

// A completion as the job loop sees it: which slot, and the byte count or -errno.
struct Completion {
  uint32_t slot;
  int32_t res;
};

template <typename B>
concept IoBackend = requires(B b, uint32_t slot, Direction d, uint64_t offset, uint32_t len, unsigned wait_nr) {
  b.stage(slot, d, offset, len);                        // no syscall
  { b.submit_and_wait(wait_nr) } -> std::same_as<int>;  // >= 0, or -errno
  b.reap([](Completion) {});                            // calls back for each ready completion
  { b.syscalls() } -> std::convertible_to<uint64_t>;    // submit/wait syscalls made so far
};

// One aligned buffer per slot, allocated once before the run (and registered by io_uring).
// Write buffers are filled with pseudo-random bytes so that compression or deduplication in the
// device cannot flatter the numbers.
class BufferPool {
 public:
  BufferPool() = default;
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;
  BufferPool(BufferPool&& o) noexcept { *this = std::move(o); }
  BufferPool& operator=(BufferPool&& o) noexcept {
    std::swap(base_, o.base_);
    std::swap(bytes_, o.bytes_);
    std::swap(slot_bytes_, o.slot_bytes_);
    return *this;
  }
  ~BufferPool() {
    if (base_) ::munmap(base_, bytes_);
  }

  static Result<BufferPool> create(uint32_t slots, uint32_t slot_bytes, uint64_t seed);
  std::byte* slot(uint32_t i) const { return base_ + static_cast<size_t>(i) * slot_bytes_; }
  uint32_t slot_bytes() const { return slot_bytes_; }

 private:
  std::byte* base_ = nullptr;
  size_t bytes_ = 0;
  uint32_t slot_bytes_ = 0;
};

}  // namespace diskvet::runner
