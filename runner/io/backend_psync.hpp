// The psync backend: pread/pwrite, one I/O at a time, for targets io_uring cannot drive. Like fio's
// psync it is synchronous: the job loop runs it at an effective queue depth of 1.
#pragma once

#include <vector>

#include "runner/io/backend.hpp"

namespace diskvet::runner {

class PsyncBackend {
 public:
  static Result<PsyncBackend> create(int fd, uint32_t depth, uint32_t bs_bytes, uint64_t seed);

  void stage(uint32_t slot, Direction d, uint64_t offset, uint32_t len) { staged_.push_back({slot, d, offset, len}); }
  int submit_and_wait(unsigned wait_nr);
  template <typename F>
  void reap(F&& on_complete) {
    for (const auto& c : done_) on_complete(c);
    done_.clear();
  }
  uint64_t syscalls() const { return syscalls_; }
  std::byte* buffer(uint32_t slot) const { return buffers_.slot(slot); }  // for verification

 private:
  struct Staged {
    uint32_t slot;
    Direction dir;
    uint64_t offset;
    uint32_t len;
  };
  int fd_ = -1;
  BufferPool buffers_;
  std::vector<Staged> staged_;
  std::vector<Completion> done_;
  uint64_t syscalls_ = 0;
};

}  // namespace diskvet::runner
