// Metric names and their values in a Measurement.
#include "runner/analysis/metric.hpp"

#include <fmt/format.h>

namespace diskvet::runner {

namespace {
constexpr MetricKind kKinds[] = {MetricKind::iops, MetricKind::bw_mbps, MetricKind::lat_mean_us, MetricKind::lat_p99_us,
                                 MetricKind::lat_p9999_us};
}

std::string_view to_string(MetricKind k) {
  switch (k) {
    case MetricKind::iops: return "iops";
    case MetricKind::bw_mbps: return "bw_mbps";
    case MetricKind::lat_mean_us: return "lat_mean_us";
    case MetricKind::lat_p99_us: return "lat_p99_us";
    case MetricKind::lat_p9999_us: return "lat_p9999_us";
  }
  return "?";
}

std::string_view to_string(MetricScope s) {
  switch (s) {
    case MetricScope::each: return "";
    case MetricScope::read: return "read";
    case MetricScope::write: return "write";
    case MetricScope::total: return "total";
  }
  return "?";
}

std::optional<Metric> parse_metric(std::string_view name) {
  Metric m;
  for (auto s : {MetricScope::read, MetricScope::write, MetricScope::total}) {
    std::string prefix = std::string(to_string(s)) + ".";
    if (name.starts_with(prefix)) {
      m.scope = s;
      name.remove_prefix(prefix.size());
      break;
    }
  }
  for (auto k : kKinds)
    if (name == to_string(k)) {
      m.kind = k;
      return m;
    }
  return std::nullopt;
}

std::string metric_name(MetricScope scope, MetricKind kind) {
  if (scope == MetricScope::each) return std::string(to_string(kind));
  return fmt::format("{}.{}", to_string(scope), to_string(kind));
}

std::string known_metric_names() {
  std::string out;
  for (auto k : kKinds) out += (out.empty() ? "" : ", ") + std::string(to_string(k));
  return out + ", each optionally prefixed read., write. or total.";
}

std::optional<double> measure(const Measurement& m, MetricScope scope, MetricKind kind) {
  LatencyHistogram lat;
  uint64_t ios = 0, bytes = 0;
  if (scope == MetricScope::read || scope == MetricScope::total) {
    ios += m.of(Direction::read).ios, bytes += m.of(Direction::read).bytes;
    lat.merge(m.of(Direction::read).lat);
  }
  if (scope == MetricScope::write || scope == MetricScope::total) {
    ios += m.of(Direction::write).ios, bytes += m.of(Direction::write).bytes;
    lat.merge(m.of(Direction::write).lat);
  }
  if (ios == 0 || m.elapsed_s <= 0) return std::nullopt;
  switch (kind) {
    case MetricKind::iops: return static_cast<double>(ios) / m.elapsed_s;
    case MetricKind::bw_mbps: return static_cast<double>(bytes) / m.elapsed_s / 1e6;
    case MetricKind::lat_mean_us: return lat.mean_ns() / 1e3;
    case MetricKind::lat_p99_us: return static_cast<double>(lat.percentile_ns(99)) / 1e3;
    case MetricKind::lat_p9999_us: return static_cast<double>(lat.percentile_ns(99.99)) / 1e3;
  }
  return std::nullopt;
}

}  // namespace diskvet::runner
