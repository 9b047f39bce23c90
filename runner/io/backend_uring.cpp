// io_uring ring setup and teardown.
#include "runner/io/backend_uring.hpp"

#include <sys/uio.h>

#include <cstring>
#include <vector>

namespace diskvet::runner {

Result<UringBackend> UringBackend::create(int fd, uint32_t depth, uint32_t bs_bytes, uint64_t seed, uint64_t spin_ns, bool iopoll) {
  UringBackend b;
  auto pool = BufferPool::create(depth, bs_bytes, seed);
  if (!pool) return pool.error();
  b.buffers_ = std::move(*pool);

  b.spin_ns_ = spin_ns;
  const int rc = init_ring(b.ring_, depth, spin_ns > 0, iopoll ? IORING_SETUP_IOPOLL : 0, b.flags_);
  if (rc < 0)
    return system_error("io_uring", iopoll ? "cannot set up a polled ring" : "cannot set up a ring", -rc,
                        iopoll ? "drop --hipri" : "try --engine psync");
  b.live_ = true;

  if (auto registered = register_file_and_buffers(b.ring_, fd, b.buffers_, depth); !registered) return registered.error();
  return b;
}

int init_ring(io_uring& ring, uint32_t depth, bool spin, unsigned extra_flags, unsigned& flags_out) {
  // Newest flags first; older kernels reject them with EINVAL and we fall back. A polling ring
  // must show completions while the job spins in user space: deferred task work with the task-run
  // flag (6.1+), else plain task work, posted by IPI (never cooperative: that waits for an enter).
  constexpr unsigned kDeferred = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
  const std::vector<unsigned> candidates = spin ? std::vector<unsigned>{kDeferred | IORING_SETUP_TASKRUN_FLAG, IORING_SETUP_SINGLE_ISSUER, 0}
                                                : std::vector<unsigned>{kDeferred, IORING_SETUP_COOP_TASKRUN, 0};
  int rc = -EINVAL;
  for (unsigned flags : candidates) {
    flags |= extra_flags;
    io_uring_params p{};
    p.flags = flags;
    rc = io_uring_queue_init_params(depth, &ring, &p);
    if (rc == 0) {
      flags_out = flags;
      return 0;
    }
    if (rc != -EINVAL) break;
  }
  return rc;
}

Status register_file_and_buffers(io_uring& ring, int fd, const BufferPool& buffers, uint32_t depth) {
  int rc = io_uring_register_files(&ring, &fd, 1);
  if (rc < 0) return system_error("io_uring", "cannot register the target's file", -rc, "try --engine psync");
  std::vector<iovec> iov(depth);
  for (uint32_t i = 0; i < depth; ++i) iov[i] = {buffers.slot(i), buffers.slot_bytes()};
  rc = io_uring_register_buffers(&ring, iov.data(), depth);
  if (rc < 0)
    return system_error("io_uring", "cannot register I/O buffers", -rc, "raise the locked-memory limit (ulimit -l) or lower --iodepth");
  io_uring_register_ring_fd(&ring);  // optional: saves an fd lookup per enter
  return ok_status();
}

UringBackend::UringBackend(UringBackend&& o) noexcept
    : ring_(o.ring_),
      live_(std::exchange(o.live_, false)),
      flags_(o.flags_),
      buffers_(std::move(o.buffers_)),
      syscalls_(o.syscalls_),
      spin_ns_(o.spin_ns_) {}

UringBackend::~UringBackend() {
  if (live_) io_uring_queue_exit(&ring_);
}

}  // namespace diskvet::runner
