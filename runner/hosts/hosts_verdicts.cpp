// Merged numbers as JSON; verdicts on them.
#include "runner/hosts/hosts_verdicts.hpp"

#include <fmt/format.h>

#include "runner/analysis/verdict.hpp"
#include "runner/hosts/json_read.hpp"

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

using json_read::number;
using json_read::obj;

// A metric of the merged numbers in one scope ("read", "write", "total").
std::optional<double> measure_merged(const json::object& merged, std::string_view scope, MetricKind kind) {
  const json::object* d = obj(merged, scope);
  if (!d || number(d, "total_ios") <= 0) return std::nullopt;
  const json::object* lat = obj(*d, "lat_ns");
  switch (kind) {
    case MetricKind::iops: return number(d, "iops");
    case MetricKind::bw_mbps: return number(d, "bw_bytes") / 1e6;
    case MetricKind::lat_mean_us: return number(lat, "mean") / 1e3;
    case MetricKind::lat_p99_us: {
      const json::object* u = lat ? obj(*lat, "percentile_upper") : nullptr;
      if (!u || !u->contains(pct_key(99))) return std::nullopt;
      return number(u, pct_key(99)) / 1e3;
    }
    case MetricKind::lat_p9999_us: {
      const json::object* u = lat ? obj(*lat, "percentile_upper") : nullptr;
      if (!u || !u->contains(pct_key(99.99))) return std::nullopt;
      return number(u, pct_key(99.99)) / 1e3;
    }
  }
  return std::nullopt;
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

double merged_total_iops(const json::object& workload) {
  const json::object* m = obj(workload, "merged");
  return m ? number(obj(*m, "total"), "iops") : 0;
}

void judge_hosts_test(json::object& test, const std::string& test_id, const suites::Profile& profile,
                      const std::vector<json::object>& workloads, bool complete, const std::string& not_judged_reason) {
  std::vector<MetricVerdict> verdicts;
  std::string not_judged = complete ? not_judged_reason : "the run lost a host: the array was not measured whole";
  for (const json::object& w : workloads) {
    if (!not_judged.empty()) break;
    if (const json::value* na = w.if_contains("not_judged"); na && na->is_string()) not_judged = std::string(na->get_string());
    else if (w.contains("error")) not_judged = "a workload did not run";
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
        for (const json::object& w : workloads) {
          const json::object* m = obj(w, "merged");
          if (!m) continue;
          // total: the workload that measures both directions, else the first that measured anything
          value = measure_merged(*m, to_string(scope), ml.metric.kind);
          if (value && (scope != MetricScope::total || (number(obj(*m, "read"), "total_ios") > 0 && number(obj(*m, "write"), "total_ios") > 0))) break;
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
}

}  // namespace diskvet::runner
