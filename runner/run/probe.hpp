// Unwritten-space probe: read sampled blocks across the region; blocks that read back as all zeros
// were never written (a thin or fresh volume), so read numbers there would be fiction.
#pragma once

#include "runner/io/target.hpp"
#include "runner/run/precondition.hpp"
#include "runner/run/run_result.hpp"

namespace diskvet::runner {

// Reads `samples` blocks of 4 KiB (or the logical block size, if larger) spread evenly over the
// region with O_DIRECT. unwritten = zero samples > max_zero_pct of the samples.
Result<ProbeRecord> probe_unwritten(const Target& target, Region region, uint32_t samples, double max_zero_pct);

}  // namespace diskvet::runner
