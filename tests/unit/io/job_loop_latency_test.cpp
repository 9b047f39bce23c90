// Where an I/O's latency starts and ends: immediately before the submit that carries it (after its
// buffer is ready) and at its reap (before any completion work), at every submit batch size.
#include <gtest/gtest.h>

#include <deque>

#include "runner/io/job_loop.hpp"
#include "tests/unit/support/run_job_harness.hpp"

using namespace diskvet::runner;

namespace {

constexpr uint64_t kMs = 1'000'000;
constexpr uint64_t kDeviceMs = 2;  // what the "device" takes per wait
constexpr uint64_t kToolMs = 20;   // what the tool's own work takes: buffer preparation, completion callbacks

// Everything below takes its time on the job loop's own synthetic clock (lab::StepClock), never
// on the machine's: each I/O's latency is exact, and a busy machine cannot change it.
//
// A device that takes kDeviceMs for whatever is out when the job waits, with buffers, and a
// separate submit like io_uring's (so iodepth_batch_submit applies).
class SlowDevice {
 public:
  SlowDevice(uint32_t depth, const lab::StepClock& clock) : clock_(clock) {
    auto pool = BufferPool::create(depth, 4096, 3);
    buffers_ = std::move(*pool);
  }
  void stage(uint32_t slot, Direction, uint64_t, uint32_t len) { staged_.push_back({slot, static_cast<int32_t>(len)}); }
  void submit() {
    ++calls_;
    flush();
  }
  int submit_and_wait(unsigned) {
    ++calls_;
    flush();
    clock_.t += kDeviceMs * kMs;
    return 0;
  }
  template <typename F>
  void reap(F&& f) {
    std::deque<Completion> done;
    done.swap(out_);
    for (auto c : done) f(c);
  }
  uint64_t syscalls() const { return calls_; }
  std::byte* buffer(uint32_t slot) const { return buffers_.slot(slot); }

 private:
  void flush() {
    out_.insert(out_.end(), staged_.begin(), staged_.end());
    staged_.clear();
  }
  const lab::StepClock& clock_;
  uint64_t calls_ = 0;
  BufferPool buffers_;
  std::deque<Completion> staged_, out_;
};

// A verifier whose buffer preparation and completion work are slow (as CRCs of large blocks are).
struct SlowVerifier {
  static constexpr bool enabled = true;
  const lab::StepClock& clock;
  void set_start_ns(uint64_t) {}
  uint64_t read_offset(uint64_t off) { return off; }
  bool claim(uint32_t, uint64_t) { return true; }
  void prepare_write(uint32_t, std::byte*) { clock.t += kToolMs * kMs; }
  void complete(uint32_t, Direction, bool, const std::byte*, uint64_t, uint64_t) { clock.t += kToolMs * kMs; }
  VerifySummary summary() const { return {}; }
};

JobResult run_slow(uint32_t depth, uint32_t batch_submit, uint64_t ios) {
  lab::StepClock clock;
  SlowDevice dev(depth, clock);
  SlowVerifier v{clock};
  JobPlan p;
  p.rw = Pattern::randwrite;
  p.read_pct = 0;
  p.depth = depth;
  p.batch_submit = batch_submit;
  p.region_blocks = 1000;
  p.io_limit_bytes = ios * p.bs_bytes;
  JobResult res = lab::run_to_limit(dev, p, v, clock);
  EXPECT_EQ(res.dir[1].ios, ios);
  return res;
}

// Every I/O waited kDeviceMs on the device; none may carry any of the tool's kToolMs of preparation
// or callback work (before the fix every I/O carried at least one). On synthetic time each latency is
// exactly the device's: the fastest and the slowest are asserted, not a median.
void expect_device_time_only(const JobResult& res) {
  const LatencyHistogram& h = res.dir[1].lat;
  EXPECT_EQ(h.min_ns(), kDeviceMs * kMs);
  EXPECT_EQ(h.max_ns(), kDeviceMs * kMs) << "the slowest I/O carried " << (h.max_ns() - kDeviceMs * kMs) / kMs << " ms of the tool's work";
}

}  // namespace

TEST(JobLoopLatency, ExcludesBufferPreparationAndCallbacksWhenSubmittedWithTheWait) {
  expect_device_time_only(run_slow(4, 0, 12));  // the suites' default: one submit-and-wait per reap batch
}

TEST(JobLoopLatency, ExcludesBufferPreparationAndCallbacksWhenEachIoIsSubmittedAlone) {
  expect_device_time_only(run_slow(1, 1, 10));  // diskvet io's default, fio's iodepth_batch_submit=1
}

TEST(JobLoopLatency, ExcludesBufferPreparationAndCallbacksInBatches) {
  expect_device_time_only(run_slow(2, 2, 10));
}

// fio's iodepth_batch_submit=1 submits each I/O in an enter of its own, then waits in another. The
// refill's last I/O needs no enter of its own: the wait's enter submits it before it waits. At depth
// 4, a reap of 4 costs 4 enters (3 submits, the wait carrying the 4th), not 5. (This device
// completes only when the job waits, so the I/Os submitted early in a refill carry the refill's
// preparation: the model's, not the loop's; the tests above check the stamps.)
TEST(JobLoopLatency, TheLastIoOfARefillGoesWithTheWaitsEnterNotOneOfItsOwn) {
  EXPECT_EQ(run_slow(4, 1, 12).syscalls, 12u) << "one enter per I/O; the old loop made 15 (a submit per I/O, then the wait)";
  EXPECT_EQ(run_slow(4, 2, 12).syscalls, 6u) << "a batch of 2 submitted, the refill's last batch with the wait";
}
