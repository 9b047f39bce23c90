// Purge before preconditioning (SNIA PTS: purge, then workload-independent preconditioning): NVMe
// sanitize or format with user-data erase through a hook, else BLKDISCARD over the region, else
// none; the record says which. Only a target the protection gate opened for writing is purged.
#pragma once

#include "runner/run/precondition.hpp"
#include "runner/run/run_events.hpp"
#include "runner/run/run_plan.hpp"

namespace diskvet::runner {

PurgeRecord purge(const DevicePlan& d, Region region, const RunHooks& hooks, RunEvents& ev);

// RunHooks::nvme_purge as the devices library does it (devices/nvme_purge.hpp), for the CLI and TUI.
NvmePurgeAnswer purge_nvme(const devices::Device& d, const Target& t, const PurgeProgress& progress);

}  // namespace diskvet::runner
