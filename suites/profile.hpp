// Profile: a device's promised limits per test and metric, and which devices it applies to
// (model regex, capacity range). A plain value, loaded and validated from suites/profiles/*.json.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "runner/analysis/metric.hpp"
#include "runner/analysis/verdict.hpp"

namespace diskvet::suites {

struct MetricLimit {
  std::string name;  // as written in the file: "lat_p99_us", "read.iops"
  runner::Metric metric;
  runner::Limit limit;
  std::string source;  // where the number comes from, when the file says
};

struct TestLimits {
  std::string test_id;
  std::vector<MetricLimit> limits;
};

struct ProfileMatch {
  std::string model_regex;  // ECMAScript, matched against the whole model string; empty: any
  uint64_t min_bytes = 0;
  uint64_t max_bytes = 0;   // 0: no upper bound
};

// Limits of a burn-in that are not metrics of one test: the whole run is judged against them.
struct BurninLimits {
  std::optional<double> max_slowdown_pct;  // a slowdown event dropping IOPS further than this FAILs
  std::optional<double> max_temp_c;        // a health poll hotter than this FAILs
  std::optional<uint64_t> max_stalls;      // I/Os past io_timeout allowed (any suite); unset: none
};

struct Profile {
  std::string name;
  std::string description;
  std::string source;  // where the numbers come from (datasheet, measurement); required for vendor profiles
  std::string file;
  bool template_only = false;  // the shipped template: never matched by --profile auto
  ProfileMatch match;
  std::vector<TestLimits> tests;
  BurninLimits burnin;
};

Result<Profile> parse_profile(std::string_view text, const std::string& file);
Result<Profile> load_profile_file(const std::string& path);
std::vector<std::string> builtin_profile_names();
Result<Profile> builtin_profile(const std::string& name);
// Every shipped profile, for --profile auto.
Result<std::vector<Profile>> builtin_profiles();
// A name of a shipped profile, or a path to a file.
Result<Profile> resolve_profile(const std::string& name_or_file);

}  // namespace diskvet::suites
