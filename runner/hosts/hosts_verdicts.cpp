// Merged numbers as JSON; verdicts on them.
#include "runner/hosts/hosts_verdicts.hpp"

#include <fmt/format.h>

#include "runner/analysis/verdict.hpp"

namespace diskvet::runner {

namespace json = boost::json;

namespace {

std::string pct_key(double p) { return fmt::format("{:.6f}", p); }

json::object direction_json(const MergedDirection& d) {
  json::object pct, upper;
  for (const auto& [p, v] : d.percentiles_ns) {
    pct[pct_key(p)] = v;
    upper[pct_key(p)] = v + fio_bin_half_width_ns(v);
  }
  return json::object{{"iops", d.iops}, {"bw_bytes", d.bw_bytes_per_s}, {"io_bytes", d.io_bytes}, {"total_ios", d.total_ios},
                      {"lat_ns", json::object{{"min", d.lat_min_ns}, {"max", d.lat_max_ns}, {"mean", d.lat_mean_ns}, {"N", d.lat_count},
                                              {"percentile", std::move(pct)}, {"percentile_upper", std::move(upper)}}}};
}

// The percentile of a direction at pct (as the report's key spells it: two lists that print the same
// key are the same percentile), plus its bin's half-width: the bin's upper edge, never under-stated.
std::optional<double> percentile_upper_ns(const MergedDirection& d, double pct) {
  std::optional<double> upper;
  for (const auto& [p, v] : d.percentiles_ns)
    if (pct_key(p) == pct_key(pct)) upper = static_cast<double>(v + fio_bin_half_width_ns(v));
  return upper;
}

}  // namespace

json::object merged_json(const HostsMerge& m) {
  const MergedDirection total = merged_total(m);
  json::array intervals;
  for (const FioIntervalSample& s : m.intervals) intervals.push_back(json::object{{"t_ms", s.t_ms}, {"read_iops", s.value[0]}, {"write_iops", s.value[1]}});
  json::object windows;
  for (const HostWindow& hw : m.windows) windows[hw.host] = json::object{{"first_ms", hw.first_ms}, {"last_ms", hw.last_ms}};
  json::object o{{"read", direction_json(m.dir[0])}, {"write", direction_json(m.dir[1])}, {"total", direction_json(total)},
                 {"intervals", std::move(intervals)}, {"windows", std::move(windows)}};
  o["start_spread_ms"] = m.start_spread_ms ? json::value(*m.start_spread_ms) : json::value(nullptr);
  o["overlap_ms"] = m.overlap_ms ? json::value(*m.overlap_ms) : json::value(nullptr);
  return o;
}

double merged_total_iops(const HostsWorkloadResult& workload) { return workload.merged ? merged_total(*workload.merged).iops : 0; }

std::optional<double> measure_merged(const HostsMerge& m, MetricScope scope, MetricKind kind) {
  MergedDirection d;
  if (scope == MetricScope::read) d = m.dir[0];
  else if (scope == MetricScope::write) d = m.dir[1];
  else if (scope == MetricScope::total) d = merged_total(m);
  else return std::nullopt;
  if (d.total_ios == 0) return std::nullopt;
  switch (kind) {
    case MetricKind::iops: return d.iops;
    case MetricKind::bw_mbps: return d.bw_bytes_per_s / 1e6;
    case MetricKind::lat_mean_us: return d.lat_mean_ns / 1e3;
    case MetricKind::lat_p99_us: {
      const std::optional<double> ns = percentile_upper_ns(d, 99);
      return ns ? std::optional<double>(*ns / 1e3) : std::nullopt;
    }
    case MetricKind::lat_p9999_us: {
      const std::optional<double> ns = percentile_upper_ns(d, 99.99);
      return ns ? std::optional<double>(*ns / 1e3) : std::nullopt;
    }
  }
  return std::nullopt;
}

VerdictStatus judge_hosts_test(json::object& test, const std::string& test_id, const suites::Profile& profile,
                               const std::vector<HostsWorkloadResult>& workloads, bool complete, const std::string& not_judged_reason) {
  std::vector<MetricVerdict> verdicts;
  std::string not_judged = complete ? not_judged_reason : "the run lost a host: the array was not measured whole";
  for (const HostsWorkloadResult& w : workloads) {
    if (!not_judged.empty()) break;
    if (!w.not_judged.empty()) not_judged = w.not_judged;
    else if (w.error) not_judged = "a workload did not run";
  }
  for (const suites::TestLimits& tl : profile.tests) {
    if (tl.test_id != test_id) continue;
    for (const suites::MetricLimit& ml : tl.limits) {
      std::vector<MetricScope> scopes;
      if (ml.metric.scope == MetricScope::each) scopes = {MetricScope::read, MetricScope::write};
      else scopes = {ml.metric.scope};
      for (MetricScope scope : scopes) {
        const std::string name = metric_name(scope, ml.metric.kind);
        std::optional<double> value;
        for (const HostsWorkloadResult& w : workloads) {
          if (!w.merged) continue;
          // read or write: the first workload that measured it. total: the first that measured both
          // directions; when none did, the last workload's (each one replaces the one before)
          value = measure_merged(*w.merged, scope, ml.metric.kind);
          const bool both = w.merged->dir[0].total_ios > 0 && w.merged->dir[1].total_ios > 0;
          if (value && (scope != MetricScope::total || both)) break;
        }
        if (ml.metric.scope == MetricScope::each && !value) continue;  // a direction the test does not measure
        if (!not_judged.empty()) verdicts.push_back(not_evaluated(test_id, name, ml.limit, not_judged));
        else verdicts.push_back(judge(test_id, name, ml.limit, value));
      }
    }
  }
  const Rollup r = rollup_test(verdicts);
  json::array vs;
  for (const auto& v : verdicts) vs.push_back(json::value_from(v));
  test["verdicts"] = std::move(vs);
  test["status"] = to_string(r.status);
  json::array reasons;
  for (const auto& s : r.reasons) reasons.push_back(json::string(s));
  test["reasons"] = std::move(reasons);
  return r.status;
}

}  // namespace diskvet::runner
