// The NVMe passthrough backend (fio's io_uring_cmd): NVMe read and write commands as
// IORING_OP_URING_CMD on the namespace's generic char device, on a ring of 128-byte entries
// (SQE128: the command rides in the entry) and 32-byte completions (CQE32: the NVMe result beside
// the status). The file and the buffers are registered, as on the block path. With iopoll (fio's
// hipri) the ring is also IORING_SETUP_IOPOLL: the kernel polls the namespace's poll queue for the
// commands' completions inside the submit-and-wait (Linux 6.1 or later).
#pragma once

#include <liburing.h>

#include <cstring>
#include <vector>

#include "runner/io/backend.hpp"
#include "runner/io/backend_uring.hpp"
#include "runner/io/nvme_passthrough.hpp"

namespace diskvet::runner {

class UringCmdBackend {
 public:
  // fd: the generic char device (/dev/ngXnY); lba_bytes and nsid: its namespace's. iopoll: the
  // caller has checked that the namespace's queue has poll queues (poll_queues.hpp).
  static Result<UringCmdBackend> create(int fd, uint32_t depth, uint32_t bs_bytes, uint64_t seed, uint32_t lba_bytes, uint32_t nsid,
                                        bool iopoll = false);
  UringCmdBackend(UringCmdBackend&& o) noexcept;
  UringCmdBackend& operator=(UringCmdBackend&&) = delete;
  UringCmdBackend(const UringCmdBackend&) = delete;
  ~UringCmdBackend();

  void stage(uint32_t slot, Direction d, uint64_t offset, uint32_t len) {
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);  // never null: at most `depth` in flight
    std::memset(static_cast<void*>(sqe), 0, 2 * sizeof(io_uring_sqe));  // the whole 128-byte entry
    sqe->opcode = IORING_OP_URING_CMD;
    sqe->fd = 0;  // the registered generic node
    sqe->flags = IOSQE_FIXED_FILE;
    sqe->cmd_op = NVME_URING_CMD_IO;
    sqe->uring_cmd_flags = IORING_URING_CMD_FIXED;  // the slot's registered buffer
    sqe->buf_index = static_cast<uint16_t>(slot);
    const nvme_uring_cmd cmd =
        encode_nvme_rw(d, offset, len, lba_bytes_, nsid_, reinterpret_cast<uint64_t>(buffers_.slot(slot)));
    std::memcpy(sqe->cmd, &cmd, sizeof cmd);
    io_uring_sqe_set_data64(sqe, slot);
    lens_[slot] = len;
  }
  void submit() {
    ++syscalls_;
    io_uring_submit(&ring_);
  }
  // On a polled ring the one enter polls the device's queue (it may return with fewer completions
  // than asked when the CPU is wanted elsewhere; the job loop waits again).
  int submit_and_wait(unsigned wait_nr) {
    ++syscalls_;
    return io_uring_submit_and_wait(&ring_, wait_nr);
  }
  // A command's res is 0 on success, -errno when the kernel refused it, or the NVMe status (> 0)
  // when the device failed it: the job loop sees the bytes moved, or -errno (-EIO for a status).
  template <typename F>
  void reap(F&& on_complete) {
    for_each_ready_cqe(ring_, [&](const io_uring_cqe& cqe) {
      const auto slot = static_cast<uint32_t>(cqe.user_data);
      on_complete(Completion{slot, cqe.res == 0 ? static_cast<int32_t>(lens_[slot]) : cqe.res < 0 ? cqe.res : -EIO});
    });
  }
  uint64_t syscalls() const { return syscalls_; }
  std::byte* buffer(uint32_t slot) const { return buffers_.slot(slot); }  // for verification
  unsigned setup_flags() const { return flags_; }

 private:
  friend Status probe_passthrough(int fd, const std::string& path, uint32_t lba_bytes, uint32_t nsid, uint64_t timeout_ns, bool iopoll);
  UringCmdBackend() = default;
  io_uring ring_{};
  bool live_ = false;
  unsigned flags_ = 0;
  uint32_t lba_bytes_ = 512;
  uint32_t nsid_ = 1;
  BufferPool buffers_;
  std::vector<uint32_t> lens_;
  uint64_t syscalls_ = 0;
};

// One read of the namespace's first logical block through a fresh ring, before any workload runs:
// a kernel without NVMe passthrough or a device that refuses the command (EOPNOTSUPP) is refused
// here with what to use instead, before any write. Waits at most timeout_ns for the answer.
// iopoll: the read goes through a polled ring (what --hipri runs), and a kernel that cannot poll
// passthrough commands (before 6.1: EOPNOTSUPP or EINVAL) is refused naming that.
Status probe_passthrough(int fd, const std::string& path, uint32_t lba_bytes, uint32_t nsid, uint64_t timeout_ns, bool iopoll);

}  // namespace diskvet::runner
