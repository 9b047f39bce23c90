// A multi-host test's merged numbers as report JSON, and the profile's limits judged on them
// (`total.iops >= 1,000,000` at `read.lat_p99_us <= 1000` apply to the array, not to one host).
#pragma once

#include <boost/json.hpp>

#include <string>
#include <vector>

#include "runner/analysis/verdict.hpp"
#include "runner/hosts/hosts_merge.hpp"
#include "runner/hosts/hosts_workload.hpp"
#include "suites/profile.hpp"

namespace diskvet::runner {

// {"read": {...}, "write": {...}, "total": {...}, "intervals": [...], "start_spread_ms", "overlap_ms"}:
// per direction iops, bw_bytes, io_bytes, total_ios and lat_ns {min, max, mean, N, percentile,
// percentile_upper} (fio's bin middle, and the bin's upper edge that verdicts use: never under-stated).
boost::json::object merged_json(const HostsMerge& m);

// The merged total IOPS of one workload (0 when it has no merged numbers).
double merged_total_iops(const HostsWorkloadResult& workload);

// A metric of the merged numbers in one scope (read, write or total), as a limit judges it: none
// for a direction without I/O; the p99 and p99.99 latencies are their fio bin's upper edge, as the
// report's "percentile_upper" says (never under-stated).
std::optional<double> measure_merged(const HostsMerge& m, MetricScope scope, MetricKind kind);

// Adds "verdicts", "status" and "reasons" to a test's JSON and returns the status: each limit of the
// profile for test_id judged on the typed merged numbers of its workloads. A run that lost a host, or
// whose hosts did not start together, is not judged (NOT-EVALUATED), never PASS.
// not_judged: a reason the whole test cannot be judged (a suite phase required but not run), or empty.
VerdictStatus judge_hosts_test(boost::json::object& test, const std::string& test_id, const suites::Profile& profile,
                               const std::vector<HostsWorkloadResult>& workloads, bool complete, const std::string& not_judged = {});

}  // namespace diskvet::runner
