// Parsing and printing of sizes and durations in fio's units (4k, 1g, 10s, 2m, 1h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace diskvet {

// "4k" -> 4096, "1g" -> 2^30, "512" -> 512. Suffixes k/m/g/t/p are powers of 1024, as in fio;
// an optional trailing "b"/"ib" ("4KiB", "64kb") is accepted. nullopt on anything else.
std::optional<uint64_t> parse_size(std::string_view text);

// "10" or "10s" -> 10 s, "1.5s", "250ms", "2m", "1h", "1h30m". nullopt on anything else.
std::optional<double> parse_duration_s(std::string_view text);

// 4096 -> "4KiB", 1536 -> "1.5KiB", 1000000000 -> "954MiB".
std::string format_bytes(uint64_t bytes);
// 12.5e6 -> "12.5M"; for IOPS and counts.
std::string format_count(double value);
// latency in ns -> "812ns", "12.4us", "3.10ms", "1.20s".
std::string format_ns(double ns);
// seconds -> "45s", "12m05s", "3h02m".
std::string format_duration(double seconds);

}  // namespace diskvet
