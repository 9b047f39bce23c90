// Many hosts' fio results as one array's: IOPS and bandwidth summed, latency percentiles from the
// summed json+ bins (never an average of percentiles), the mean weighted by each host's count, the
// largest maximum; the interval series summed; how far apart the hosts started.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runner/hosts/fio_output.hpp"

namespace diskvet::runner {

struct MergedDirection {
  double iops = 0, bw_bytes_per_s = 0;
  uint64_t io_bytes = 0, total_ios = 0;
  uint64_t lat_min_ns = 0, lat_max_ns = 0, lat_count = 0;
  double lat_mean_ns = 0;
  std::map<uint64_t, uint64_t> bins;
  std::map<double, uint64_t> percentiles_ns;
};

// fio's percentile over json+ bins (stat.c, calc_clat_percentiles): the value of the first bin at
// which the running count reaches pct% of all I/Os. 0 for no I/O.
uint64_t bins_percentile_ns(const std::map<uint64_t, uint64_t>& bins, double pct);

// The half-width of the fio bin holding value_ns: a bin's value is its middle, so the I/Os it
// holds lie at most this far from it (0 below 128 ns, where bins are exact).
uint64_t fio_bin_half_width_ns(uint64_t value_ns);

MergedDirection merge_direction(const std::vector<const FioDirectionResult*>& parts, const std::vector<double>& percentiles);

struct HostWindow {
  std::string host;
  uint64_t first_ms = 0, last_ms = 0;  // first and last interval ends (unix epoch ms)
};

struct HostsMerge {
  std::array<MergedDirection, 2> dir;  // read, write
  std::vector<FioIntervalSample> intervals;  // summed over hosts, sample by sample
  std::vector<HostWindow> windows;
  // Spread of the hosts' first interval ends, and how long every host measured at once.
  std::optional<uint64_t> start_spread_ms;
  std::optional<uint64_t> overlap_ms;
};

// Both directions as one (the report's "total"): bins and counts added, the mean weighted by count,
// the percentiles the read direction has (the write direction's when reads have none).
MergedDirection merged_total(const HostsMerge& m);

// hosts and logs are parallel (a host without a log: an empty vector). log_interval_ms is the
// logs' period: a host's window opens one period before its first sample.
HostsMerge merge_hosts(const std::vector<const FioHostResult*>& hosts, const std::vector<std::vector<FioIntervalSample>>& logs,
                       const std::vector<std::string>& names, const std::vector<double>& percentiles, uint64_t log_interval_ms);

}  // namespace diskvet::runner
