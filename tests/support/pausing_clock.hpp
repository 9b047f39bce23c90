// The engine sampler's clock for tests of diskvet's own pauses: the system's clock plus an offset
// that jumps `jump_ns` ahead after every `every`th sleep, which is how the sampler sees a process
// stopped that long (SIGSTOP, a paused VM) without the test waiting for it. The jobs keep the real
// clock, so each jump ages every I/O out by the jump.
#pragma once

#include <cstdint>

#include "runner/io/clock.hpp"

namespace diskvet::testing {

class PausingClock final : public runner::Clock {
 public:
  PausingClock(uint64_t jump_ns, int every) : jump_ns_(jump_ns), every_(every) {}
  uint64_t now_ns() override { return runner::now_ns() + offset_; }
  void sleep_until_ns(uint64_t t) override {
    runner::sleep_until_ns(t > offset_ ? t - offset_ : 0);
    if (++sleeps_ % every_ == 0) {
      offset_ += jump_ns_;
      ++jumps;
    }
  }
  int jumps = 0;

 private:
  uint64_t jump_ns_, offset_ = 0;
  int every_, sleeps_ = 0;
};

}  // namespace diskvet::testing
