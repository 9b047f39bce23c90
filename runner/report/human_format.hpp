// Numbers for people: the one place the report's text, HTML, compare and fleet views turn IOPS,
// bandwidth, latency, ratios and margins into words ("651.7k IOPS", "20 ms", "3.3x the limit",
// "12% short"). Never scientific notation, always a unit.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace diskvet::runner::human {

// A plain number with at most three significant digits and no exponent: 20 -> "20", 0.0512 ->
// "0.0512", 2048 -> "2048", 1e9 -> "1000000000". NaN and infinities read "-".
std::string plain(double x);
// A count with a k/M/G suffix past 10 000: 651 700 -> "651.7k", 1.2e6 -> "1.20M", 980 -> "980".
std::string count(double x);
// IOPS with their unit: "651.7k IOPS".
std::string iops(double x);
// Bandwidth from bytes per second in decimal units, as disks are sold: "979 MB/s", "5.67 GB/s".
std::string bandwidth(double bytes_per_s);
// Bandwidth from the profile's unit (10^6 bytes/s).
std::string bandwidth_mbps(double mbps);
// Latency with its unit, three significant digits: 812 ns, 63.2 us, 2.05 ms, 20 ms, 1.5 s.
std::string latency_ns(double ns);
std::string latency_us(double us);
// A duration in seconds: "0.5 s", "45 s", "12 min 5 s", "3 h 2 min".
std::string duration_s(double s);
// A ratio of two measurements: 1.034 -> "1.03x", 0.5 -> "0.50x", 12 -> "12x".
std::string ratio(double r);
// A signed change in percent: +3.4%, -12%, 0%.
std::string change_pct(double pct);

// A metric's value in its own unit, by the metric's name as profiles write it ("read.iops",
// "lat_p99_us", "write.bw_mbps"): IOPS, MB/s or a latency; anything else a plain number.
std::string metric_value(std::string_view metric, double value);
// The same for a value the report may not hold: "-" when it does not.
std::string metric_value(std::string_view metric, const std::optional<double>& value);

// How a measurement stands against its limit, in words:
//   bound "min" (IOPS, bandwidth): "3.3x the limit", "12% above the limit", "12% short"
//   bound "max" (latency): "3.3x under the limit", "12% under the limit", "12% over the limit",
//   "3.3x over the limit". "at the limit" when equal; "-" when the limit is not a positive number.
std::string margin(std::string_view bound, double expected, double measured);

// A value the report may not hold, in words: "-" when it does not, else format(value)
// (known(d.lat_p99_ns, human::latency_ns)). A number never measured never reads as 0.
template <class T, class Format>
std::string known(const std::optional<T>& v, Format&& format) {
  return v ? std::string(format(*v)) : std::string("-");
}
// The same with fmt's format spec: known_as(range_pct, "{:.1f}") is "12.5" or "-".
std::string known_as(const std::optional<double>& v, std::string_view spec = "{}");

}  // namespace diskvet::runner::human
