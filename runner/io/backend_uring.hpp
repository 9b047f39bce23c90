// The io_uring backend (liburing): registered file and buffers, batched submit-and-wait, and every
// ready completion reaped per wake-up. The ring is single-issuer with deferred task work where the
// kernel has it (6.1+), so completions are processed only when the job asks for them.
#pragma once

#include <liburing.h>

#include "runner/io/backend.hpp"
#include "runner/io/clock.hpp"

namespace diskvet::runner {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Sets up `ring` with the cheapest flags this kernel takes, newest first, each with extra_flags;
// flags_out gets the flags that worked. 0, or -errno of the last refusal.
int init_ring(io_uring& ring, uint32_t depth, bool spin, unsigned extra_flags, unsigned& flags_out);
// Registers the target's descriptor (fixed file 0) and one buffer per slot (buffer index = slot).
Status register_file_and_buffers(io_uring& ring, int fd, const BufferPool& buffers, uint32_t depth);

// Calls on_cqe for every ready completion (one pass over the completion ring), then marks them seen.
template <typename F>
void for_each_ready_cqe(io_uring& ring, F&& on_cqe) {
  unsigned head;
  unsigned n = 0;
  io_uring_cqe* cqe;
  io_uring_for_each_cqe(&ring, head, cqe) {
    on_cqe(*cqe);
    ++n;
  }
  io_uring_cq_advance(&ring, n);
}

class UringBackend {
 public:
  // Must be called on the thread that will submit (the ring is single-issuer).
  // spin_ns > 0: completions are polled that long before sleeping (see submit_and_wait).
  // iopoll: the kernel polls the device's queue for completions (IORING_SETUP_IOPOLL, fio's hipri);
  // the caller has checked that the queue has poll queues (poll_queues.hpp).
  static Result<UringBackend> create(int fd, uint32_t depth, uint32_t bs_bytes, uint64_t seed, uint64_t spin_ns = 0,
                                     bool iopoll = false);
  UringBackend(UringBackend&& o) noexcept;
  UringBackend& operator=(UringBackend&&) = delete;
  UringBackend(const UringBackend&) = delete;
  ~UringBackend();

  void stage(uint32_t slot, Direction d, uint64_t offset, uint32_t len) {
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);  // never null: at most `depth` in flight
    if (d == Direction::read)
      io_uring_prep_read_fixed(sqe, 0, buffers_.slot(slot), len, offset, static_cast<int>(slot));
    else
      io_uring_prep_write_fixed(sqe, 0, buffers_.slot(slot), len, offset, static_cast<int>(slot));
    sqe->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data64(sqe, slot);
  }
  // Submits what is staged, without waiting (one system call).
  void submit() {
    ++syscalls_;
    io_uring_submit(&ring_);
  }
  int submit_and_wait(unsigned wait_nr) {
    ++syscalls_;
    // A polled ring (IOPOLL) polls the device inside this one enter; there is nothing to spin for.
    if (spin_ns_ == 0 || (flags_ & IORING_SETUP_IOPOLL)) return io_uring_submit_and_wait(&ring_, wait_nr);
    // Polling: submit, then watch the rings from user space. On a deferred-task-work ring with the
    // task-run flag, a completion only sets a flag word (no IPI, no wake-up): spin until it or a
    // posted completion shows, then one enter runs the deferred work. On older rings completions
    // are posted by IPI and the completion ring itself is watched.
    int rc = io_uring_submit(&ring_);
    if (rc < 0) return rc;
    uint64_t deadline = 0;
    for (unsigned i = 0;; ++i) {
      if (io_uring_cq_ready(&ring_) >= wait_nr) return rc;
      if (IO_URING_READ_ONCE(*ring_.sq.kflags) & IORING_SQ_TASKRUN) {
        ++syscalls_;
        int g = io_uring_get_events(&ring_);
        if (g < 0 && g != -EINTR && g != -EAGAIN) return g;
        if (io_uring_cq_ready(&ring_) >= wait_nr) return rc;
        i |= 31;  // whatever the work was, the deadline still holds
      }
      if ((i & 31) == 31) {  // the clock only every 32 polls: a poll is ~1 ns, a clock read ~20
        uint64_t t = now_ns();
        if (deadline == 0) deadline = t + spin_ns_;
        else if (t >= deadline) break;
      }
      cpu_relax();
    }
    ++syscalls_;
    io_uring_cqe* cqe;
    int w = io_uring_wait_cqes(&ring_, &cqe, wait_nr, nullptr, nullptr);
    return w < 0 ? w : rc;
  }
  template <typename F>
  void reap(F&& on_complete) {
    for_each_ready_cqe(ring_, [&](const io_uring_cqe& cqe) { on_complete(Completion{static_cast<uint32_t>(cqe.user_data), cqe.res}); });
  }
  uint64_t syscalls() const { return syscalls_; }
  std::byte* buffer(uint32_t slot) const { return buffers_.slot(slot); }  // for verification
  unsigned setup_flags() const { return flags_; }

 private:
  UringBackend() = default;
  io_uring ring_{};
  bool live_ = false;
  unsigned flags_ = 0;
  BufferPool buffers_;
  uint64_t syscalls_ = 0;
  uint64_t spin_ns_ = 0;
};

}  // namespace diskvet::runner
