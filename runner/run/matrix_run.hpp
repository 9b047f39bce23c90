// A mix x block size matrix test (SNIA PTS-E 1.1 IOPS test): rounds of every cell until the tracked
// cell's IOPS are steady; each cell's result is its measurement window, averaged.
#pragma once

#include <vector>

#include "runner/run/workload_run.hpp"

namespace diskvet::runner {

// c.test.matrix must be set; c.index is ignored. Returns one record per cell (the test's workloads,
// in order) and fills `matrix`. Cells whose block size is not a multiple of the device's logical
// block size are skipped, with the reason; a stopped run keeps the rounds it finished.
std::vector<WorkloadRecord> run_matrix_test(const WorkloadContext& c, MatrixRecord& matrix);

}  // namespace diskvet::runner
