// A multi-host test's merged numbers as report JSON, and the profile's limits judged on them
// (`total.iops >= 1,000,000` at `read.lat_p99_us <= 1000` apply to the array, not to one host).
#pragma once

#include <boost/json.hpp>

#include <string>
#include <vector>

#include "runner/hosts/hosts_merge.hpp"
#include "suites/profile.hpp"

namespace diskvet::runner {

// {"read": {...}, "write": {...}, "total": {...}, "intervals": [...], "start_spread_ms", "overlap_ms"}:
// per direction iops, bw_bytes, io_bytes, total_ios and lat_ns {min, max, mean, N, percentile,
// percentile_upper} (fio's bin middle, and the bin's upper edge that verdicts use: never under-stated).
boost::json::object merged_json(const HostsMerge& m);

// The merged total IOPS of one workload's JSON (0 when it has none).
double merged_total_iops(const boost::json::object& workload);

// Adds "verdicts" and "status" to a test's JSON: each limit of the profile for test_id judged on the
// merged numbers of its workloads. A run that lost a host, or whose hosts did not start together,
// is not judged (NOT-EVALUATED), never PASS.
// not_judged: a reason the whole test cannot be judged (a suite phase required but not run), or empty.
void judge_hosts_test(boost::json::object& test, const std::string& test_id, const suites::Profile& profile,
                      const std::vector<boost::json::object>& workloads, bool complete, const std::string& not_judged = {});

}  // namespace diskvet::runner
