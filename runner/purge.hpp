// Purge before preconditioning (SNIA PTS 3.1): NVMe format/sanitize through a hook when the
// controller supports it, else BLKDISCARD over the region, else none; the record says which.
#pragma once

#include "runner/precondition.hpp"
#include "runner/run_plan.hpp"

namespace diskvet::runner {

PurgeRecord purge(const DevicePlan& d, Region region, const RunHooks& hooks);

}  // namespace diskvet::runner
