// Passthrough ring setup and teardown, and the probe that refuses a node that cannot take commands.
#include "runner/io/backend_uring_cmd.hpp"

#include <fmt/format.h>

#include <cstring>

#include "runner/io/clock.hpp"

namespace diskvet::runner {

namespace {

constexpr const char* kUseBlockPath = "use --engine io_uring on the block device";

// The one command staged on `ring` submitted, and its completion waited for at most timeout_ns:
// 0 once it is there, -ETIME past the deadline, or -errno. A polled ring (IOPOLL) ignores the
// timeout an enter carries and polls until it finds something, so it is polled here, one enter at
// a time, against the clock.
int wait_for_one(io_uring& ring, uint64_t timeout_ns, bool polled) {
  if (!polled) {
    __kernel_timespec ts{static_cast<long long>(timeout_ns / 1'000'000'000), static_cast<long long>(timeout_ns % 1'000'000'000)};
    io_uring_cqe* cqe = nullptr;
    const int rc = io_uring_submit_and_wait_timeout(&ring, &cqe, 1, &ts, nullptr);
    return rc < 0 ? rc : 0;
  }
  const int rc = io_uring_submit(&ring);
  if (rc < 0) return rc;
  const uint64_t deadline = now_ns() + timeout_ns;
  while (io_uring_cq_ready(&ring) == 0) {
    if (now_ns() >= deadline) return -ETIME;
    const int g = io_uring_get_events(&ring);
    if (g < 0 && g != -EINTR && g != -EAGAIN) return g;
  }
  return 0;
}

}  // namespace

Result<UringCmdBackend> UringCmdBackend::create(int fd, uint32_t depth, uint32_t bs_bytes, uint64_t seed, uint32_t lba_bytes, uint32_t nsid,
                                                bool iopoll) {
  UringCmdBackend b;
  auto pool = BufferPool::create(depth, bs_bytes, seed);
  if (!pool) return pool.error();
  b.buffers_ = std::move(*pool);
  b.lba_bytes_ = lba_bytes;
  b.nsid_ = nsid;
  b.lens_.assign(depth, 0);
  const int rc = init_ring(b.ring_, depth, false, IORING_SETUP_SQE128 | IORING_SETUP_CQE32 | (iopoll ? IORING_SETUP_IOPOLL : 0u), b.flags_);
  if (rc < 0)
    return rc == -EINVAL ? usage_error("--engine io_uring_cmd", "this kernel cannot set up a ring of 128-byte entries (NVMe passthrough needs Linux 5.19 or later)",
                                       kUseBlockPath)
                         : system_error("io_uring", "cannot set up a passthrough ring", -rc, kUseBlockPath);
  b.live_ = true;
  if (auto registered = register_file_and_buffers(b.ring_, fd, b.buffers_, depth); !registered) return registered.error();
  return b;
}

UringCmdBackend::UringCmdBackend(UringCmdBackend&& o) noexcept
    : ring_(o.ring_),
      live_(std::exchange(o.live_, false)),
      flags_(o.flags_),
      lba_bytes_(o.lba_bytes_),
      nsid_(o.nsid_),
      buffers_(std::move(o.buffers_)),
      lens_(std::move(o.lens_)),
      syscalls_(o.syscalls_) {}

UringCmdBackend::~UringCmdBackend() {
  if (live_) io_uring_queue_exit(&ring_);
}

Status probe_passthrough(int fd, const std::string& path, uint32_t lba_bytes, uint32_t nsid, uint64_t timeout_ns, bool iopoll) {
  auto backend = UringCmdBackend::create(fd, 1, lba_bytes, 0, lba_bytes, nsid, iopoll);
  if (!backend) return backend.error();
  backend->stage(0, Direction::read, 0, lba_bytes);
  int32_t res = 1;  // nothing reaped yet
  const int rc = wait_for_one(backend->ring_, timeout_ns, iopoll);
  if (rc == -ETIME)
    return runtime_error(path, fmt::format("did not answer a read of its first block within {} s", timeout_ns / 1'000'000'000),
                         "check the device (dmesg)");
  if (rc < 0) return system_error(path, "cannot submit an NVMe command", -rc, kUseBlockPath);
  backend->reap([&](Completion c) { res = c.res; });
  if (res == static_cast<int32_t>(lba_bytes)) return ok_status();
  // A kernel with passthrough but without polled passthrough (5.19, 6.0) refuses the command on a
  // polled ring; the caller has already seen the same read succeed on an unpolled one.
  if (iopoll && (res == -EOPNOTSUPP || res == -EINVAL))
    return usage_error(path,
                       fmt::format("refused a polled NVMe read command through io_uring ({}): this kernel cannot poll NVMe passthrough "
                                   "completions (Linux 6.1 or later can)",
                                   std::strerror(-res)),
                       "drop --hipri, or poll on the block device with --engine io_uring --hipri");
  if (res == -EOPNOTSUPP || res == -EINVAL || res == -ENOTTY)
    return usage_error(path, fmt::format("refused an NVMe read command through io_uring ({}): this kernel or device cannot do NVMe passthrough I/O",
                                         std::strerror(-res)),
                       kUseBlockPath);
  if (res == -EACCES || res == -EPERM) return system_error(path, "refused an NVMe read command", -res, "run as root");
  return system_error(path, "failed a read of its first block through NVMe passthrough", res < 0 ? -res : EIO, kUseBlockPath);
}

}  // namespace diskvet::runner
