// pread/pwrite backend.
#include "runner/io/backend_psync.hpp"

#include <unistd.h>

#include <cerrno>

namespace diskvet::runner {

Result<PsyncBackend> PsyncBackend::create(int fd, uint32_t depth, uint32_t bs_bytes, uint64_t seed) {
  auto pool = BufferPool::create(depth, bs_bytes, seed);
  if (!pool) return pool.error();
  PsyncBackend b;
  b.fd_ = fd;
  b.buffers_ = std::move(*pool);
  b.staged_.reserve(depth);
  b.done_.reserve(depth);
  return b;
}

int PsyncBackend::submit_and_wait(unsigned) {
  int n = 0;
  for (const auto& s : staged_) {
    ssize_t r = s.dir == Direction::read ? ::pread(fd_, buffers_.slot(s.slot), s.len, static_cast<off_t>(s.offset))
                                         : ::pwrite(fd_, buffers_.slot(s.slot), s.len, static_cast<off_t>(s.offset));
    ++syscalls_;
    done_.push_back({s.slot, r < 0 ? -errno : static_cast<int32_t>(r)});
    ++n;
  }
  staged_.clear();
  return n;
}

}  // namespace diskvet::runner
