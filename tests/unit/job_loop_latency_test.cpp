// Where an I/O's latency starts and ends: immediately before the submit that carries it (after its
// buffer is ready) and at its reap (before any completion work), at every submit batch size.
#include <gtest/gtest.h>

#include <chrono>
#include <deque>
#include <thread>

#include "run_job_harness.hpp"
#include "runner/io/job_loop.hpp"

using namespace diskvet::runner;

namespace {

using std::chrono::milliseconds;

constexpr uint64_t kMs = 1'000'000;
constexpr int kDeviceMs = 2;  // what the "device" takes per wait
constexpr int kToolMs = 20;   // what the tool's own work takes: buffer preparation, completion callbacks

// A device that takes kDeviceMs for whatever is out when the job waits, with buffers, and a
// separate submit like io_uring's (so iodepth_batch_submit applies).
class SlowDevice {
 public:
  explicit SlowDevice(uint32_t depth) {
    auto pool = BufferPool::create(depth, 4096, 3);
    buffers_ = std::move(*pool);
  }
  void stage(uint32_t slot, Direction, uint64_t, uint32_t len) { staged_.push_back({slot, static_cast<int32_t>(len)}); }
  void submit() {
    out_.insert(out_.end(), staged_.begin(), staged_.end());
    staged_.clear();
  }
  int submit_and_wait(unsigned) {
    submit();
    std::this_thread::sleep_for(milliseconds(kDeviceMs));
    return 0;
  }
  template <typename F>
  void reap(F&& f) {
    std::deque<Completion> done;
    done.swap(out_);
    for (auto c : done) f(c);
  }
  uint64_t syscalls() const { return 0; }
  std::byte* buffer(uint32_t slot) const { return buffers_.slot(slot); }

 private:
  BufferPool buffers_;
  std::deque<Completion> staged_, out_;
};

// A verifier whose buffer preparation and completion work are slow (as CRCs of large blocks are).
struct SlowVerifier {
  static constexpr bool enabled = true;
  void set_start_ns(uint64_t) {}
  uint64_t read_offset(uint64_t off) { return off; }
  bool claim(uint32_t, uint64_t) { return true; }
  void prepare_write(uint32_t, std::byte*) { std::this_thread::sleep_for(milliseconds(kToolMs)); }
  void complete(uint32_t, Direction, bool, const std::byte*, uint64_t, uint64_t) { std::this_thread::sleep_for(milliseconds(kToolMs)); }
  VerifySummary summary() const { return {}; }
};

LatencyHistogram run_slow(uint32_t depth, uint32_t batch_submit, uint64_t ios) {
  SlowDevice dev(depth);
  SlowVerifier v;
  JobPlan p;
  p.rw = Pattern::randwrite;
  p.read_pct = 0;
  p.depth = depth;
  p.batch_submit = batch_submit;
  p.region_blocks = 1000;
  p.io_limit_bytes = ios * p.bs_bytes;
  JobResult res = lab::run_to_limit(dev, p, v);
  EXPECT_EQ(res.dir[1].ios, ios);
  return res.dir[1].lat;
}

// Every I/O waited kDeviceMs on the device; none may carry the tool's kToolMs of preparation or
// callback work. The median, not the max, is asserted, so one descheduled moment on a busy test
// machine cannot fail it; before the fix every I/O carried at least one kToolMs.
void expect_device_time_only(const LatencyHistogram& h) {
  EXPECT_GE(h.min_ns(), static_cast<uint64_t>(kDeviceMs) * kMs);
  EXPECT_LT(h.percentile_ns(50), static_cast<uint64_t>(kToolMs) * kMs / 2) << "median " << h.percentile_ns(50) << " ns";
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
