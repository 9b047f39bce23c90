// One workload's run across the hosts as the controller keeps it: the report's JSON beside the typed
// numbers that JSON was written from. Every decision (verdicts, steady-state rounds, a sweep's best
// step, warmup, preconditioning) reads the typed fields, never the JSON: a key misspelled there
// would read as a silent 0.
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "runner/hosts/hosts_merge.hpp"

namespace diskvet::runner {

struct HostsWorkloadResult {
  boost::json::object doc;                         // what the report says of the workload, as written
  std::optional<HostsMerge> merged;                // the hosts merged; none when fio gave no result
  std::map<std::string, HostsMerge> per_host;      // each host's own numbers (--host-profile only)
  std::map<std::string, uint64_t> written_bytes;   // each host's written bytes, from fio's results
  std::string not_judged;                          // why the numbers cannot be judged; empty: they can
  bool error = false;                              // the workload did not run, or not whole

  // The workload's error, in the report and here; a later error replaces an earlier one's words.
  void fail(const std::string& why) {
    doc["error"] = why;
    error = true;
  }
  // Why the numbers cannot be judged, in the report and here. The first reason given stands: it is
  // the one closest to the measurement (hosts not started together before rounds not steady).
  void mark_not_judged(const std::string& why) {
    if (why.empty() || !not_judged.empty()) return;
    doc["not_judged"] = why;
    not_judged = why;
  }
};

}  // namespace diskvet::runner
