// fio's rate_iops as a token bucket counted from the start of the job: after elapsed_ns a direction
// capped at rate_iops may have issued rate x elapsed I/Os, plus the first one at once. Pure integer
// arithmetic, split at whole seconds so that nothing overflows 64 bits within the longest run a
// workload may ask for (a year) at any rate validate() accepts (up to kMaxRateIops).
#pragma once

#include <cstdint>

namespace diskvet::runner {

inline constexpr uint64_t kMaxRateIops = 1'000'000'000;  // products below stay under 10^18

// How many I/Os may have been issued `elapsed_ns` after the start at `rate_iops` (> 0).
constexpr uint64_t rate_tokens(uint64_t elapsed_ns, uint64_t rate_iops) {
  constexpr uint64_t kNs = 1'000'000'000;
  return elapsed_ns / kNs * rate_iops + elapsed_ns % kNs * rate_iops / kNs + 1;
}

// The earliest time after the start at which I/O number `issued` (0-based) is allowed: the least t
// with rate_tokens(t) > issued.
constexpr uint64_t rate_due_ns(uint64_t issued, uint64_t rate_iops) {
  constexpr uint64_t kNs = 1'000'000'000;
  return issued / rate_iops * kNs + (issued % rate_iops * kNs + rate_iops - 1) / rate_iops;
}

}  // namespace diskvet::runner
