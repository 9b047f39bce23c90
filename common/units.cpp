// Units in fio's spelling; used by the CLI, suite files and reports alike.
#include "common/units.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>

namespace diskvet {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Parses a leading non-negative decimal number; returns characters consumed (0 on failure).
size_t parse_number(std::string_view s, double& out) {
  size_t i = 0;
  bool digits = false;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, digits = true;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, digits = true;
  }
  if (!digits) return 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + i, out);
  if (ec != std::errc() || ptr != s.data() + i) return 0;
  return i;
}

}  // namespace

std::optional<uint64_t> parse_size(std::string_view text) {
  std::string s = lower(text);
  double number = 0;
  size_t used = parse_number(s, number);
  if (used == 0) return std::nullopt;
  std::string_view unit = std::string_view(s).substr(used);
  if (unit.ends_with("ib")) unit.remove_suffix(2);
  else if (unit.size() > 1 && unit.ends_with("b")) unit.remove_suffix(1);
  else if (unit == "b") unit = {};
  double mult = 1;
  if (unit.empty()) mult = 1;
  else if (unit == "k") mult = 1024.0;
  else if (unit == "m") mult = 1024.0 * 1024;
  else if (unit == "g") mult = 1024.0 * 1024 * 1024;
  else if (unit == "t") mult = 1024.0 * 1024 * 1024 * 1024;
  else if (unit == "p") mult = 1024.0 * 1024 * 1024 * 1024 * 1024;
  else return std::nullopt;
  double bytes = number * mult;
  if (bytes > 1.8e19 || bytes != std::floor(bytes)) return std::nullopt;
  return static_cast<uint64_t>(bytes);
}

std::optional<double> parse_duration_s(std::string_view text) {
  std::string s = lower(text);
  if (s.empty()) return std::nullopt;
  double total = 0;
  std::string_view rest = s;
  while (!rest.empty()) {
    double number = 0;
    size_t used = parse_number(rest, number);
    if (used == 0) return std::nullopt;
    rest.remove_prefix(used);
    double mult = 1;
    if (rest.starts_with("ms")) mult = 1e-3, rest.remove_prefix(2);
    else if (rest.starts_with("us")) mult = 1e-6, rest.remove_prefix(2);
    else if (rest.starts_with("s")) rest.remove_prefix(1);
    else if (rest.starts_with("m")) mult = 60, rest.remove_prefix(1);
    else if (rest.starts_with("h")) mult = 3600, rest.remove_prefix(1);
    else if (rest.starts_with("d")) mult = 86400, rest.remove_prefix(1);
    else if (!rest.empty()) return std::nullopt;
    total += number * mult;
  }
  if (!std::isfinite(total)) return std::nullopt;  // "1e308d" and sums that overflow: no duration
  return total;
}

std::string format_bytes(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 5) v /= 1024, ++u;
  if (u == 0) return fmt::format("{}B", bytes);
  if (v == std::floor(v)) return fmt::format("{:.0f}{}", v, kUnits[u]);
  return fmt::format("{:.{}f}{}", v, v < 10 ? 2 : (v < 100 ? 1 : 0), kUnits[u]);
}

std::string format_count(double v) {
  if (v >= 1e9) return fmt::format("{:.2f}G", v / 1e9);
  if (v >= 1e6) return fmt::format("{:.2f}M", v / 1e6);
  if (v >= 1e4) return fmt::format("{:.1f}k", v / 1e3);
  if (v == std::floor(v)) return fmt::format("{:.0f}", v);
  return fmt::format("{:.1f}", v);
}

std::string format_ns(double ns) {
  if (ns < 1e3) return fmt::format("{:.0f}ns", ns);
  if (ns < 1e6) return fmt::format("{:.{}f}us", ns / 1e3, ns < 1e4 ? 2 : 1);
  if (ns < 1e9) return fmt::format("{:.{}f}ms", ns / 1e6, ns < 1e7 ? 2 : 1);
  return fmt::format("{:.2f}s", ns / 1e9);
}

std::string format_duration(double seconds) {
  if (seconds < 60) return fmt::format("{:.0f}s", seconds);
  // Past a million hours (reports read back, durations from files) hours and minutes would not fit
  // the integer below; NaN lands here too.
  if (!(seconds < 3.6e9)) return fmt::format("{:.3g}s", seconds);
  auto total = static_cast<uint64_t>(std::llround(seconds));
  if (total < 3600) return fmt::format("{}m{:02}s", total / 60, total % 60);
  return fmt::format("{}h{:02}m", total / 3600, (total % 3600) / 60);
}

}  // namespace diskvet
