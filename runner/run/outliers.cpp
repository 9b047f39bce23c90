// Outlier flagging against the median of devices of one model.
#include "runner/run/outliers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "runner/analysis/metric.hpp"

namespace diskvet::runner {

namespace {

std::string model_key(const devices::Device& d) { return d.model.empty() ? "(unknown model)" : d.model; }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

void flag_outliers(std::vector<DeviceResult>& devs) {
  std::map<std::string, std::vector<size_t>> groups;
  for (size_t i = 0; i < devs.size(); ++i) groups[model_key(devs[i].device)].push_back(i);
  for (const auto& [model, members] : groups) {
    if (members.size() < kOutlierMinGroup) continue;
    // (test, workload index, metric) -> value per member
    struct Key {
      std::string test;
      size_t workload;
      MetricScope scope;
      MetricKind kind;
      bool operator<(const Key& o) const { return std::tie(test, workload, scope, kind) < std::tie(o.test, o.workload, o.scope, o.kind); }
    };
    std::map<Key, std::vector<std::pair<size_t, double>>> values;
    for (size_t i : members)
      for (const auto& t : devs[i].tests)
        for (size_t w = 0; w < t.workloads.size(); ++w) {
          const auto& r = t.workloads[w];
          if (!r.ran) continue;
          for (auto scope : {MetricScope::read, MetricScope::write})
            for (auto kind : {MetricKind::iops, MetricKind::lat_p99_us})
              if (auto v = measure(r.result, scope, kind)) values[{t.id, w, scope, kind}].push_back({i, *v});
        }
    for (const auto& [key, vals] : values) {
      if (vals.size() < kOutlierMinGroup) continue;
      std::vector<double> xs;
      for (const auto& [i, v] : vals) xs.push_back(v);
      double med = median(xs);
      if (med <= 0) continue;
      const bool higher_better = key.kind == MetricKind::iops;
      for (const auto& [i, v] : vals) {
        double worse = higher_better ? (med - v) / med * 100 : (v - med) / med * 100;
        if (worse > kOutlierWorsePct) {
          devs[i].outliers.push_back(Outlier{key.test, fmt::format("workloads[{}].{}", key.workload, metric_name(key.scope, key.kind)), v, med, worse, vals.size()});
        }
      }
    }
  }
}

}  // namespace diskvet::runner
