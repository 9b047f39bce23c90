// Runs one job of the hot loop in a unit test: an hour-long window from now with no ramp, nobody
// stopping it, so the job ends on its plan's io limit and the test never depends on speed.
#pragma once

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

template <IoBackend B, typename V>
JobResult run_to_limit(B& backend, const JobPlan& plan, V& verifier) {
  std::atomic<bool> stop{false};
  LiveCounters live;
  JobResult r;
  run_job(backend, plan, hour_from_now(), stop, live, r, verifier);
  return r;
}

template <IoBackend B>
JobResult run_to_limit(B& backend, const JobPlan& plan) {
  NoVerify plain;
  return run_to_limit(backend, plan, plain);
}

}  // namespace diskvet::runner::lab
