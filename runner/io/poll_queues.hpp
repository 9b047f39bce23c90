// Whether a target's queue can poll its completions (fio's --hipri, IORING_SETUP_IOPOLL): decided
// from the block device's own queue in sysfs, before any I/O, so a workload that asks for polling on
// a driver without poll queues is refused with the setting to change instead of measuring something
// else (a loop device, or NVMe without nvme.poll_queues, completes by interrupt).
#pragma once

#include <string>

#include "common/error.hpp"
#include "runner/io/target.hpp"

namespace diskvet::runner {

// Ok when the target is a block device whose queue (the whole disk's, for a partition) says
// io_poll 1; otherwise a usage error naming the device, what sysfs says and the driver setting.
// sysfs_root is "/sys" except in tests.
Status check_poll_queues(const TargetInfo& target, const std::string& sysfs_root = "/sys");

}  // namespace diskvet::runner
