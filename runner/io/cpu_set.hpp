// CPU placement of job threads, in fio's terms: cpus_allowed ("0-3,6") and cpus_allowed_policy
// (shared: every job may run on any CPU of the set; split: job i is pinned to the set's i-th CPU,
// round robin, as DiskSpd affinitizes its threads).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"

namespace diskvet::runner {

enum class CpuPolicy : uint8_t { shared, split };

struct CpuSet {
  std::vector<uint32_t> cpus;  // ascending, unique; empty = wherever the scheduler likes

  // "0-3,6" (fio's cpus_allowed syntax); the error names the bad part.
  static Result<CpuSet> parse(std::string_view text);
  // The CPUs this process may run on now (sched_getaffinity).
  static CpuSet allowed_now();

  bool empty() const { return cpus.empty(); }
  std::string to_string() const;  // compact ranges, "0-3,6"
  // The CPUs job `index` may use under `policy`: the whole set, or its one CPU.
  CpuSet for_job(uint32_t index, CpuPolicy policy) const;
};

std::string_view to_string(CpuPolicy p);

// Restricts the calling thread to `set` (nothing to do for an empty set); -errno on failure.
int pin_current_thread(const CpuSet& set);

}  // namespace diskvet::runner
