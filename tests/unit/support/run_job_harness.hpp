// Runs one job of the hot loop in a unit test: an hour-long window from now with no ramp, nobody
// stopping it, so the job ends on its plan's io limit and the test never depends on speed.
#pragma once

#include <algorithm>
#include <atomic>

#include "runner/io/job_loop.hpp"

namespace diskvet::runner::lab {

inline Timeline hour_from_now() {
  Timeline tl;
  tl.start_ns = now_ns();
  tl.ramp_end_ns = tl.start_ns;
  tl.end_ns = tl.start_ns + 3'600'000'000'000ull;
  return tl;
}

// Synthetic time for the job loop: it stands still until the loop sleeps, then jumps to the moment the
// loop asked to wake at. A stop flag given with `stop_at` is set once time reaches that moment, as an
// interrupt arriving while the job waits; `sleeps` counts the waits.
struct StepClock {
  mutable uint64_t t = 1'000'000'000;
  mutable uint64_t sleeps = 0;
  std::atomic<bool>* stop = nullptr;
  uint64_t stop_at = UINT64_MAX;
  uint64_t now_ns() const { return t; }
  void sleep_until_ns(uint64_t wake) const {
    ++sleeps;
    t = std::max(t, wake);
    if (stop && t >= stop_at) stop->store(true);
  }
};

template <IoBackend B, typename V>
JobResult run_to_limit(B& backend, const JobPlan& plan, V& verifier) {
  std::atomic<bool> stop{false};
  LiveCounters live;
  JobResult r;
  run_job(backend, plan, hour_from_now(), stop, live, r, verifier);
  return r;
}

// The same on synthetic time: the hour starts at the clock's now.
template <IoBackend B, typename V>
JobResult run_to_limit(B& backend, const JobPlan& plan, V& verifier, const StepClock& clock) {
  std::atomic<bool> stop{false};
  LiveCounters live;
  JobResult r;
  Timeline tl;
  tl.start_ns = tl.ramp_end_ns = clock.now_ns();
  tl.end_ns = tl.start_ns + 3'600'000'000'000ull;
  run_job(backend, plan, tl, stop, live, r, verifier, clock);
  return r;
}

template <IoBackend B>
JobResult run_to_limit(B& backend, const JobPlan& plan) {
  NoVerify plain;
  return run_to_limit(backend, plan, plain);
}

}  // namespace diskvet::runner::lab
