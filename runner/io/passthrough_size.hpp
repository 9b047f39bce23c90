// Whether one NVMe passthrough command carries a workload's block: the one check the engine makes
// before a passthrough run (check_passthrough) and the suites' fast path makes before choosing it.
#pragma once

#include <cstdint>

#include "common/error.hpp"

namespace diskvet::runner {

struct TargetInfo;

// A usage error naming the largest transfer the namespace takes when bs_bytes is larger
// (max_passthrough_bytes); ok when it fits or sysfs does not say.
Status check_passthrough_size(uint32_t bs_bytes, const TargetInfo& t);

}  // namespace diskvet::runner
