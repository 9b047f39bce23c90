// Merging hosts' fio results.
#include "runner/hosts/hosts_merge.hpp"

#include <algorithm>
#include <bit>

namespace diskvet::runner {

uint64_t bins_percentile_ns(const std::map<uint64_t, uint64_t>& bins, double pct) {
  uint64_t total = 0;
  for (const auto& [at, n] : bins) total += n;
  if (total == 0) return 0;
  const long double want = static_cast<long double>(pct) / 100.0L * static_cast<long double>(total);
  uint64_t sum = 0;
  for (const auto& [at, n] : bins) {
    sum += n;
    if (static_cast<long double>(sum) >= want) return at;
  }
  return bins.rbegin()->first;
}

uint64_t fio_bin_half_width_ns(uint64_t value_ns) {
  // fio (stat.h): FIO_IO_U_PLAT_BITS = 6; values below 2^7 have a bin each, above that a power of
  // two [2^e, 2^(e+1)) holds 64 bins of width 2^(e-6).
  if (value_ns < 128) return 0;
  const int e = static_cast<int>(std::bit_width(value_ns)) - 1;
  return (uint64_t{1} << (e - 6)) / 2;
}

MergedDirection merge_direction(const std::vector<const FioDirectionResult*>& parts, const std::vector<double>& percentiles) {
  MergedDirection m;
  long double weighted = 0;
  bool any = false;
  for (const FioDirectionResult* p : parts) {
    m.iops += p->iops;
    m.bw_bytes_per_s += p->bw_bytes_per_s;
    m.io_bytes += p->io_bytes;
    m.total_ios += p->total_ios;
    for (const auto& [at, n] : p->lat.bins) m.bins[at] += n;
    if (p->lat.count == 0) continue;
    m.lat_min_ns = any ? std::min(m.lat_min_ns, p->lat.min_ns) : p->lat.min_ns;
    m.lat_max_ns = std::max(m.lat_max_ns, p->lat.max_ns);
    m.lat_count += p->lat.count;
    weighted += static_cast<long double>(p->lat.mean_ns) * static_cast<long double>(p->lat.count);
    any = true;
  }
  if (m.lat_count) m.lat_mean_ns = static_cast<double>(weighted / static_cast<long double>(m.lat_count));
  // Empty bins are left out, so a percentile is always the value of a bin that holds I/Os.
  std::erase_if(m.bins, [](const auto& kv) { return kv.second == 0; });
  if (!m.bins.empty())
    for (double p : percentiles) m.percentiles_ns[p] = bins_percentile_ns(m.bins, p);
  return m;
}

MergedDirection merged_total(const HostsMerge& m) {
  auto as_result = [](const MergedDirection& d) {
    FioDirectionResult x;
    x.iops = d.iops;
    x.bw_bytes_per_s = d.bw_bytes_per_s;
    x.io_bytes = d.io_bytes;
    x.total_ios = d.total_ios;
    x.lat = FioLatency{d.lat_min_ns, d.lat_max_ns, d.lat_count, d.lat_mean_ns, d.bins, {}};
    return x;
  };
  const FioDirectionResult r = as_result(m.dir[0]), w = as_result(m.dir[1]);
  std::vector<double> pcts;
  for (const auto& [p, v] : m.dir[0].percentiles_ns) pcts.push_back(p);
  if (pcts.empty())
    for (const auto& [p, v] : m.dir[1].percentiles_ns) pcts.push_back(p);
  return merge_direction({&r, &w}, pcts);
}

HostsMerge merge_hosts(const std::vector<const FioHostResult*>& hosts, const std::vector<std::vector<FioIntervalSample>>& logs,
                       const std::vector<std::string>& names, const std::vector<double>& percentiles, uint64_t log_interval_ms) {
  HostsMerge f;
  for (int d = 0; d < 2; ++d) {
    std::vector<const FioDirectionResult*> parts;
    parts.reserve(hosts.size());
    for (const FioHostResult* h : hosts) parts.push_back(&h->dir[d]);
    f.dir[d] = merge_direction(parts, percentiles);
  }
  f.intervals = sum_interval_logs(logs);
  bool every_host_logged = !logs.empty();
  for (size_t i = 0; i < logs.size(); ++i) {
    if (logs[i].empty()) { every_host_logged = false; continue; }
    f.windows.push_back({i < names.size() ? names[i] : std::string(), logs[i].front().t_ms, logs[i].back().t_ms});
  }
  if (every_host_logged && !f.windows.empty()) {
    uint64_t first_min = UINT64_MAX, first_max = 0, last_min = UINT64_MAX;
    for (const HostWindow& w : f.windows) {
      first_min = std::min(first_min, w.first_ms);
      first_max = std::max(first_max, w.first_ms);
      last_min = std::min(last_min, w.last_ms);
    }
    f.start_spread_ms = first_max - first_min;
    const uint64_t open = first_max - std::min(first_max, log_interval_ms);
    f.overlap_ms = last_min > open ? last_min - open : 0;
  }
  return f;
}

}  // namespace diskvet::runner
