// The null backend: every I/O completes at once and moves nothing. It measures the tool's own
// cost per I/O, like fio's null ioengine; write workloads get buffers, so that cost includes
// making each write's data.
#pragma once

#include <vector>

#include "runner/io/backend.hpp"

namespace diskvet::runner {

class NullBackend {
 public:
  // bs_bytes 0: no buffers (reads only).
  explicit NullBackend(uint32_t depth, uint32_t bs_bytes = 0, uint64_t seed = 1) : done_(depth) {
    if (bs_bytes)
      if (auto pool = BufferPool::create(depth, bs_bytes, seed)) buffers_ = std::move(*pool);
  }
  std::byte* buffer(uint32_t slot) const { return buffers_.slot(slot); }

  void stage(uint32_t slot, Direction, uint64_t, uint32_t len) { done_[staged_++] = {slot, static_cast<int32_t>(len)}; }
  int submit_and_wait(unsigned) {
    int n = static_cast<int>(staged_ - ready_);
    ready_ = staged_;
    return n;
  }
  template <typename F>
  void reap(F&& on_complete) {
    for (uint32_t i = 0; i < ready_; ++i) on_complete(done_[i]);
    // Staged-but-unsubmitted I/Os (none in the job loop) would move to the front.
    uint32_t rest = staged_ - ready_;
    for (uint32_t i = 0; i < rest; ++i) done_[i] = done_[ready_ + i];
    staged_ = rest;
    ready_ = 0;
  }
  uint64_t syscalls() const { return 0; }

 private:
  std::vector<Completion> done_;
  BufferPool buffers_;
  uint32_t staged_ = 0;
  uint32_t ready_ = 0;
};

}  // namespace diskvet::runner
