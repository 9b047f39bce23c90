// Metrics a profile can set limits on ("read.lat_p99_us", "iops", "total.bw_mbps") and how each is
// read off a Measurement. Latency percentiles are the histogram bucket's upper edge, never under-stated.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "runner/io/measurement.hpp"

namespace diskvet::runner {

enum class MetricKind { iops, bw_mbps, lat_mean_us, lat_p99_us, lat_p9999_us };
// each: the metric applies to every direction the test measures (an unprefixed name).
enum class MetricScope { each, read, write, total };

struct Metric {
  MetricScope scope = MetricScope::each;
  MetricKind kind = MetricKind::iops;
  // Higher is better for iops and bandwidth, lower for latency.
  bool higher_is_better() const { return kind == MetricKind::iops || kind == MetricKind::bw_mbps; }
};

std::string_view to_string(MetricKind k);
std::string_view to_string(MetricScope s);
// "read.lat_p99_us" in, or nullopt for an unknown name.
std::optional<Metric> parse_metric(std::string_view name);
// The name with an explicit scope: "read.iops", "total.bw_mbps".
std::string metric_name(MetricScope scope, MetricKind kind);
// The list of accepted names, for error messages.
std::string known_metric_names();

// The metric's value in the measurement, or nullopt when it measured nothing in that scope
// (scope must be read, write or total). bw_mbps is decimal: 10^6 bytes per second, as vendors write it.
std::optional<double> measure(const Measurement& m, MetricScope scope, MetricKind kind);

}  // namespace diskvet::runner
