// fio's client output (`fio --client=... --output-format=json+`) read back: one result per host
// (its `client_stats` entry, found by the host fio names it by), the hosts fio said were lost, and
// the interval logs fio's client writes per host. Parsing only; merging is hosts_merge.hpp.
#pragma once

#include <boost/json.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"

namespace diskvet::runner {

// fio's lat_ns object of one direction: exact min/max/mean/count beside json+'s latency bins
// (bin value in ns -> I/Os; fio's log-linear buckets, 64 per power of two).
struct FioLatency {
  uint64_t min_ns = 0, max_ns = 0, count = 0;
  double mean_ns = 0;
  std::map<uint64_t, uint64_t> bins;
  std::map<double, uint64_t> percentiles_ns;  // fio's own, for one host
};

struct FioDirectionResult {
  double iops = 0, bw_bytes_per_s = 0;
  uint64_t io_bytes = 0, total_ios = 0, runtime_ms = 0;
  FioLatency lat;
};

struct FioHostResult {
  std::string client;  // fio's "hostname": the socket the host was reached on
  std::string jobname;
  int64_t error = 0;
  std::array<FioDirectionResult, 2> dir;  // read, write
  double usr_cpu_pct = 0, sys_cpu_pct = 0;
  boost::json::object raw;  // the whole client_stats entry, kept in the report
};

struct FioClientOutput {
  std::string fio_version;
  std::vector<FioHostResult> hosts;        // "All clients" left out (fio 3.33 gives it no percentiles)
  std::vector<std::string> disconnected;   // "client: host=X disconnected"
  std::string messages;                    // everything fio printed besides the JSON
};

// Reads the text fio's client printed: lines before the JSON (job banners, lost hosts), the JSON
// document, anything after it. An input error when no JSON document is there or it is not fio's.
Result<FioClientOutput> parse_fio_client_output(std::string_view text);

// One interval log of fio (write_iops_log with log_avg_msec and log_unix_epoch): per line
// "time_ms, value, ddir, bs, offset[, prio]".
struct FioIntervalSample {
  uint64_t t_ms = 0;  // end of the interval (unix epoch ms with log_unix_epoch)
  std::array<double, 2> value{};  // read, write
};
Result<std::vector<FioIntervalSample>> parse_fio_interval_log(std::string_view text, const std::string& name);

// Several logs (one host's jobs, or the hosts) added sample by sample, by position (fio logs every
// job on the same period from its start), up to the shortest log; a sample's time is its latest part's.
std::vector<FioIntervalSample> sum_interval_logs(const std::vector<std::vector<FioIntervalSample>>& logs);

}  // namespace diskvet::runner
