// Numbers for people (see human_format.hpp).
#include "runner/report/human_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace diskvet::runner::human {

namespace {

// Fixed-point with `sig` significant digits, trailing zeros (and a trailing point) stripped.
std::string significant(double x, int sig = 3) {
  if (!std::isfinite(x)) return "-";
  if (x == 0) return "0";
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(x))));
  const int decimals = std::clamp(sig - 1 - magnitude, 0, 12);
  std::string s = fmt::format("{:.{}f}", x, decimals);
  if (s.find('.') != std::string::npos) {
    s.erase(s.find_last_not_of('0') + 1);
    if (s.ends_with('.')) s.pop_back();
  }
  return s == "-0" ? "0" : s;
}

// A multiple: "3.3x" below ten, "317x" up to 10 000, "over 10000x" beyond.
std::string times(double r) {
  if (r < 10) return fmt::format("{:.1f}x", r);
  if (r < 1e4) return fmt::format("{:.0f}x", r);
  return "over 10000x";
}

// A share in percent: "0.4%" below one, "12%" above.
std::string pct(double p) { return p < 1 ? fmt::format("{:.1f}%", p) : fmt::format("{:.0f}%", p); }

}  // namespace

std::string plain(double x) { return significant(x); }

std::string count(double x) {
  if (!std::isfinite(x)) return "-";
  const double a = std::fabs(x);
  if (a >= 1e9) return fmt::format("{:.2f}G", x / 1e9);
  if (a >= 1e6) return fmt::format("{:.2f}M", x / 1e6);
  if (a >= 1e4) return fmt::format("{:.1f}k", x / 1e3);
  if (a >= 100) return fmt::format("{:.0f}", x);
  return significant(x);
}

std::string iops(double x) { return count(x) + " IOPS"; }

std::string bandwidth(double bytes_per_s) {
  if (!std::isfinite(bytes_per_s)) return "-";
  const double a = std::fabs(bytes_per_s);
  if (a >= 1e9) return significant(bytes_per_s / 1e9) + " GB/s";
  if (a >= 1e6) return significant(bytes_per_s / 1e6) + " MB/s";
  if (a >= 1e3) return significant(bytes_per_s / 1e3) + " kB/s";
  return significant(bytes_per_s) + " B/s";
}

std::string bandwidth_mbps(double mbps) { return bandwidth(mbps * 1e6); }

std::string latency_ns(double ns) {
  if (!std::isfinite(ns)) return "-";
  const double a = std::fabs(ns);
  if (a < 1e3) return significant(ns) + " ns";
  if (a < 1e6) return significant(ns / 1e3) + " us";
  if (a < 1e9) return significant(ns / 1e6) + " ms";
  return significant(ns / 1e9) + " s";
}

std::string latency_us(double us) { return latency_ns(us * 1e3); }

std::string duration_s(double s) {
  if (!std::isfinite(s) || s < 0) return "-";
  if (s < 60) return significant(s, s < 10 ? 2 : 3) + " s";
  if (s >= 3.6e9) return fmt::format("{:.0f} h", s / 3600);
  const auto total = static_cast<uint64_t>(std::llround(s));
  if (total < 3600) return total % 60 ? fmt::format("{} min {} s", total / 60, total % 60) : fmt::format("{} min", total / 60);
  return (total % 3600) / 60 ? fmt::format("{} h {} min", total / 3600, (total % 3600) / 60) : fmt::format("{} h", total / 3600);
}

std::string ratio(double r) {
  if (!std::isfinite(r) || r < 0) return "-";
  if (r < 10) return fmt::format("{:.2f}x", r);
  return times(r);
}

std::string change_pct(double p) {
  if (!std::isfinite(p)) return "-";
  if (std::fabs(p) < 0.05) return "0%";
  std::string s = std::fabs(p) < 10 ? fmt::format("{:+.1f}%", p) : fmt::format("{:+.0f}%", p);
  return s;
}

std::string metric_value(std::string_view metric, double value) {
  const std::string_view name = metric.substr(metric.find('.') == std::string_view::npos ? 0 : metric.find('.') + 1);
  if (name == "iops") return iops(value);
  if (name == "bw_mbps") return bandwidth_mbps(value);
  if (name.starts_with("lat_") && name.ends_with("_us")) return latency_us(value);
  return plain(value);
}

std::string margin(std::string_view bound, double expected, double measured) {
  if (!(expected > 0) || !std::isfinite(expected) || !std::isfinite(measured) || measured < 0) return "-";
  if (measured == expected) return "at the limit";
  if (bound == "min") {
    const double r = measured / expected;
    if (r < 1) return pct((1 - r) * 100) + " short";
    return r >= 2 ? times(r) + " the limit" : pct((r - 1) * 100) + " above the limit";
  }
  // A maximum (latency): under it passes.
  if (measured < expected) {
    if (measured == 0) return "under the limit";
    const double r = expected / measured;
    return r >= 2 ? times(r) + " under the limit" : pct((1 - measured / expected) * 100) + " under the limit";
  }
  const double r = measured / expected;
  return r >= 2 ? times(r) + " over the limit" : pct((r - 1) * 100) + " over the limit";
}

std::string known_as(const std::optional<double>& v, std::string_view spec) { return v ? fmt::format(fmt::runtime(spec), *v) : "-"; }

std::string metric_value(std::string_view metric, const std::optional<double>& value) { return value ? metric_value(metric, *value) : "-"; }

}  // namespace diskvet::runner::human
