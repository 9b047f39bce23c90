// Time sources: the vDSO monotonic clock for the hot path, and a Clock seam for logic under test.
#pragma once

#include <time.h>

#include <cstdint>

namespace diskvet::runner {

// CLOCK_MONOTONIC through the vDSO: ~20 ns, no syscall. Stamped once per submit batch and once per
// reap batch, not per I/O.
inline uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(ts.tv_nsec);
}

// Sleeps until CLOCK_MONOTONIC reaches t, whatever signals arrive on the way.
inline void sleep_until_ns(uint64_t t) {
  timespec ts{static_cast<time_t>(t / 1'000'000'000u), static_cast<long>(t % 1'000'000'000u)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) != 0) {
  }
}

// The job loop's clock (runner/io/job_loop.hpp), a template argument rather than a Clock so the hot
// path keeps its inlined vDSO read; tests pass a type with the same two members and synthetic time.
struct MonotonicClock {
  uint64_t now_ns() const { return runner::now_ns(); }
  void sleep_until_ns(uint64_t t) const { runner::sleep_until_ns(t); }
};

// For steady-state, throttling and warmup logic that tests drive with synthetic time.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual uint64_t now_ns() = 0;
  virtual void sleep_until_ns(uint64_t t) = 0;
};

class SystemClock final : public Clock {
 public:
  uint64_t now_ns() override { return runner::now_ns(); }
  void sleep_until_ns(uint64_t t) override { runner::sleep_until_ns(t); }
};

}  // namespace diskvet::runner
