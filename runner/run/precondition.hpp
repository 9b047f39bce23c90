// Workload-independent preconditioning (SNIA PTS 3.2): sequential 128 KiB writes over N x the tested
// capacity, with progress/ETA and an optional time cap; the record says how much was really written.
#pragma once

#include "runner/io/target.hpp"
#include "runner/run/run_events.hpp"
#include "runner/run/run_result.hpp"
#include "suites/suite.hpp"

namespace diskvet::runner {

struct Region {
  uint64_t offset_bytes = 0;
  uint64_t size_bytes = 0;
};

// The preconditioning pass as one workload (validated by precondition() and by the plan check).
Workload precondition_workload(const Target& target, Region region, const suites::PreconditionSpec& spec, double limit_s);

// `seed`: the pass's offsets and write data (runner/io/seed.hpp), the device's next.
PreconditionRecord precondition(const Target& target, Region region, const suites::PreconditionSpec& spec, double limit_s,
                                RunEvents& events, const std::string& device, const std::atomic<bool>* stop, uint64_t seed);

}  // namespace diskvet::runner
