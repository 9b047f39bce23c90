// Judging one test against the profile's limits: which workload answers which metric, and whether
// its numbers can be trusted (steady state, preconditioning, unwritten space).
#pragma once

#include <string>
#include <vector>

#include "runner/run/run_result.hpp"
#include "suites/profile.hpp"

namespace diskvet::runner {

struct TrustFacts {
  bool region_unwritten = false;     // the probe read zeros and nothing was written since
  std::string unwritten_detail;
  bool precondition_missing = false; // required and missing or cut short
  std::string precondition_detail;
};

// limits == nullptr: the profile has no limits for this test (no verdicts).
std::vector<MetricVerdict> judge_test(const TestRecord& test, const suites::TestLimits* limits, const TrustFacts& trust);

// The test's verdict, failing closed: ERROR when a workload could not run or stopped on an error
// (with its reason); else the worst of its metric verdicts (test.verdicts). A test without limits
// (limits == nullptr) is NOT-JUDGED, naming no_limits_reason, unless it judges itself: every
// workload verifies its data, and the device's verification decides (DeviceFacts).
Rollup rollup_test(const TestRecord& test, const suites::TestLimits* limits, std::string_view no_limits_reason);

}  // namespace diskvet::runner
