// Formatting helpers for the views.
#include "tui/format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/units.hpp"

namespace diskvet::tui {

std::string fit(const std::string& s, size_t width, bool pad) {
  if (width == 0) return {};
  std::string out = s.size() <= width ? s : s.substr(0, width - 1) + "~";
  if (pad && out.size() < width) out.append(width - out.size(), ' ');
  return out;
}

std::string tail(const std::string& s, size_t n) { return s.size() <= n ? s : s.substr(s.size() - n); }

std::string progress_bar(double fraction, size_t width) {
  if (width < 8) width = 8;
  if (!(fraction >= 0)) fraction = 0;  // NaN too
  fraction = std::min(fraction, 1.0);
  const size_t inner = width - 7;  // "[" + bar + "] " + "100%"
  const size_t done = static_cast<size_t>(std::floor(fraction * static_cast<double>(inner) + 1e-9));
  std::string bar = "[" + std::string(done, '#') + std::string(inner - done, '.') + "]";
  return bar + fmt::format("{:>5}", fmt::format("{:.0f}%", std::floor(fraction * 100 + 1e-9)));
}

std::string sparkline(const std::vector<double>& values, size_t width) {
  static constexpr char kLevels[] = " .:-=+*#";
  const size_t n = std::min(values.size(), width);
  std::string out(width - n, ' ');
  if (n == 0) return out;
  const auto first = values.end() - static_cast<std::ptrdiff_t>(n);
  double top = *std::max_element(first, values.end());
  for (auto it = first; it != values.end(); ++it) {
    double v = *it;
    size_t level = top > 0 && v > 0 ? 1 + static_cast<size_t>(std::floor(v / top * 6.999)) : 0;
    out += kLevels[std::min<size_t>(level, 7)];
  }
  return out;
}

std::string eta_text(std::optional<double> eta_s) {
  if (!eta_s || !(*eta_s >= 0)) return "ETA --";
  return "ETA " + format_duration(*eta_s);
}

std::string rate_text(double value) {
  if (!(value >= 0)) return "0";
  if (value < 1000) return fmt::format("{:.0f}", value);
  if (value < 1e6) return fmt::format("{:.1f}k", value / 1e3);
  return fmt::format("{:.2f}M", value / 1e6);
}

std::string latency_text(double us) {
  if (!(us > 0)) return "--";
  return format_ns(us * 1e3);
}

std::string mbps_text(double bytes_per_s) {
  if (!(bytes_per_s >= 0)) bytes_per_s = 0;
  return fmt::format("{:.1f} MB/s", bytes_per_s / 1e6);
}

}  // namespace diskvet::tui
