// Text shapes the views share: truncation, progress bars, sparklines, rates and ETAs. Pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace diskvet::tui {

// s cut to width with a trailing '~' when longer; padded with spaces to width when pad.
std::string fit(const std::string& s, size_t width, bool pad = false);
// The last n characters of s (all of it when shorter).
std::string tail(const std::string& s, size_t n);
// "[#######.......]  45%" exactly width characters (width >= 8).
std::string progress_bar(double fraction, size_t width);
// One character per value, scaled to the largest: " .:-=+*#" (ASCII, so monochrome terminals read it).
// The newest `width` values, right-aligned.
std::string sparkline(const std::vector<double>& values, size_t width);
// "ETA 1m05s", "ETA --" when unknown.
std::string eta_text(std::optional<double> eta_s);
// 1234567 -> "1.23M", 950 -> "950".
std::string rate_text(double value);
// bytes/s -> "512.0 MB/s" (decimal, as fio prints MB/s).
std::string mbps_text(double bytes_per_s);
// microseconds -> "80.0us", "1.25ms", "2.00s" (common/units' format_ns); "--" when nothing was measured.
std::string latency_text(double us);

}  // namespace diskvet::tui
