// The report document (report_schema.hpp says its versions): a RunResult as JSON. Each workload's `result`
// is the same fio-shaped job object as `diskvet io --json`. Reads results, runs nothing.
#pragma once

#include <boost/json.hpp>

#include <string>

#include "runner/report/report_schema.hpp"
#include "runner/run/run_result.hpp"

namespace diskvet::runner {

struct HostInfo {
  std::string kernel;  // uname -srm
  std::string cpu;     // model name
  unsigned cores = 0;
  uint64_t memory_bytes = 0;
};
HostInfo probe_host();

boost::json::object report_json(const RunResult& r, const HostInfo& host);

}  // namespace diskvet::runner
