// Profile files -> Profile values, strictly: unknown metrics, bounds or keys are errors.
#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "suites/builtin_files.hpp"
#include "suites/profile.hpp"
#include "suites/strict_reader.hpp"

namespace diskvet::suites {

namespace json = boost::json;

namespace {
constexpr size_t kMaxModelPattern = 256;

// What libstdc++'s regex compiler reads as a number (a back-reference's `\N`, a repeat's `{N,M}`)
// it accumulates in a long without a check: 20 digits overflow it, which is undefined behaviour
// (fuzz_profile found `\5555...`). A model pattern needs neither a back-reference nor a count of
// more than four digits; the reason why, or empty. Escapes are read as the compiler reads them:
// `\cX` (a control letter) takes the character after the `c` whatever it is, a backslash too, so
// `\c\\5` is a back-reference there (fuzz_profile found that one as well).
std::string unsafe_number_in_pattern(std::string_view re) {
  bool in_braces = false;
  size_t digits = 0;
  for (size_t i = 0; i < re.size(); ++i) {
    const char c = re[i];
    if (c == '\\' && i + 1 < re.size()) {
      if (re[i + 1] >= '0' && re[i + 1] <= '9') return "back-references (\\1 ...) are not supported in a model pattern";
      i += re[i + 1] == 'c' ? 2 : 1;
      digits = 0;
      continue;
    }
    if (c == '{') in_braces = true;
    if (c == '}') in_braces = false;
    digits = in_braces && c >= '0' && c <= '9' ? digits + 1 : 0;
    if (digits > 4) return "a repeat count of more than four digits";
  }
  return {};
}

// "match": which drives the profile is for. The model pattern is checked before it is compiled.
void read_match(StrictReader& r, ProfileMatch& m) {
  r.string("model", m.model_regex);
  r.size("min_bytes", m.min_bytes, 0, UINT64_MAX);
  r.size("max_bytes", m.max_bytes, 0, UINT64_MAX);
  r.finish();
  // A model string is at most 40 characters (NVMe Identify); a longer pattern is a mistake, and
  // libstdc++ compiles a regex recursively: tens of thousands of nested groups overflowed the stack.
  if (r.ok() && m.model_regex.size() > kMaxModelPattern)
    r.fail("model", fmt::format("is {} characters long, more than {}", m.model_regex.size(), kMaxModelPattern),
           "match the model with a shorter pattern");
  if (r.ok() && !m.model_regex.empty())
    if (std::string why = unsafe_number_in_pattern(m.model_regex); !why.empty())
      r.fail("model", why, "match the model with a simpler pattern");
  if (r.ok() && !m.model_regex.empty()) {
    try {
      std::regex re(m.model_regex);
    } catch (const std::regex_error& e) {
      r.fail("model", fmt::format("'{}' is not a regular expression: {}", m.model_regex, e.what()));
    }
  }
  if (r.ok() && m.max_bytes && m.max_bytes < m.min_bytes)
    r.fail("max_bytes", fmt::format("{} is below min_bytes ({})", m.max_bytes, m.min_bytes));
}

// "burnin": the burn-in's own limits, each set only when given.
void read_burnin(StrictReader& r, const json::object& b, BurninLimits& out) {
  double v = -1;
  r.number("max_slowdown_pct", v, 0, 100);
  if (v >= 0) out.max_slowdown_pct = v;
  v = -1000;
  r.number("max_temp_c", v, -50, 200);
  if (v > -1000) out.max_temp_c = v;
  if (b.contains("max_stalls")) {
    uint64_t n = 0;
    r.uint("max_stalls", n, 0, UINT32_MAX);
    out.max_stalls = n;
  }
  r.finish();
}

// limits.TEST.METRIC: exactly one of min or max, above zero, on the side where the metric gets
// better, with its tolerance and where the number comes from.
std::optional<MetricLimit> read_metric_limit(const json::value& spec, const std::string& file, const std::string& where,
                                             const std::string& mname, const runner::Metric& metric, std::optional<Error>* err) {
  StrictReader r(spec, file, where, err);
  MetricLimit ml{mname, metric, {}, {}};
  bool has_min = r.has("min"), has_max = r.has("max");
  if (has_min == has_max) r.fail("", "needs exactly one of \"min\" or \"max\"");
  double value = -1;
  r.number(has_min ? "min" : "max", value, 0, 1e15);
  if (r.ok() && value <= 0) r.fail(has_min ? "min" : "max", "must be above zero");
  ml.limit.bound = has_min ? runner::Limit::Bound::min : runner::Limit::Bound::max;
  if (r.ok() && has_min != metric.higher_is_better())
    r.fail(has_min ? "min" : "max",
           fmt::format("a {} limit on {} makes no sense: {} is better", has_min ? "min" : "max", mname,
                       metric.higher_is_better() ? "higher" : "lower"),
           fmt::format("use \"{}\"", metric.higher_is_better() ? "min" : "max"));
  ml.limit.value = value;
  r.number("tolerance_pct", ml.limit.tolerance_pct, 0, 100);
  std::string source;  // where this number comes from (vendor profiles must say)
  r.string("source", source);
  ml.source = source;
  r.finish();
  if (!r.ok()) return std::nullopt;
  return ml;
}

// "limits": per test, per metric; the first error ends the reading.
void read_limits(StrictReader& top, const json::object& limits, const std::string& file, std::optional<Error>* err,
                 std::vector<TestLimits>& out) {
  for (const auto& [test_key, metrics] : limits) {
    std::string where = fmt::format("limits.{}", std::string(test_key));
    TestLimits t;
    t.test_id = std::string(test_key);
    if (!metrics.is_object()) {
      top.fail(where, "must be an object of metrics", "e.g. {\"lat_p99_us\": {\"max\": 200}}");
      return;
    }
    for (const auto& [metric_key, spec] : metrics.get_object()) {
      std::string mname(metric_key);
      auto metric = runner::parse_metric(mname);
      if (!metric) {
        top.fail(where + "." + mname, "is not a known metric", "known: " + runner::known_metric_names());
        break;
      }
      auto ml = read_metric_limit(spec, file, where + "." + mname, mname, *metric, err);
      if (!ml) break;
      t.limits.push_back(*ml);
    }
    if (*err) return;
    out.push_back(std::move(t));
  }
}

}  // namespace

Result<Profile> parse_profile(std::string_view text, const std::string& file) {
  auto doc = parse_json_text(text, file);
  if (!doc) return doc.error();
  std::optional<Error> err;
  Profile p;
  p.file = file;
  StrictReader top(*doc, file, "", &err);
  top.string("name", p.name, true);
  // The name heads every verdict in the report and is how --profile finds a shipped profile again.
  if (!err && (p.name.find_first_not_of(" \t") == std::string::npos ||
               std::any_of(p.name.begin(), p.name.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; })))
    top.fail("name", p.name.empty() ? "is empty" : "is blank or holds control characters",
             "name the profile, e.g. \"vendor-model-1.92tb\"");
  top.string("description", p.description);
  top.string("source", p.source);
  top.boolean("template", p.template_only);
  if (const json::object* m = top.object("match")) {
    StrictReader r(*m, file, "match", &err);
    read_match(r, p.match);
  }
  if (const json::object* b = top.object("burnin")) {
    StrictReader r(*b, file, "burnin", &err);
    read_burnin(r, *b, p.burnin);
  }
  if (const json::object* limits = top.object("limits", true)) read_limits(top, *limits, file, &err, p.tests);
  top.finish();
  if (err) return *err;
  return p;
}

Result<Profile> load_profile_file(const std::string& path) {
  auto text = read_text_file(path);
  if (!text) return text.error();
  return parse_profile(*text, path);
}

std::vector<std::string> builtin_profile_names() {
  std::vector<std::string> names;
  for (const auto& f : builtin_profile_files()) names.emplace_back(f.name);
  return names;
}

Result<Profile> builtin_profile(const std::string& name) {
  for (const auto& f : builtin_profile_files())
    if (f.name == name) return parse_profile(f.text, fmt::format("suites/profiles/{}.json", name));
  std::string names;
  for (const auto& n : builtin_profile_names()) names += (names.empty() ? "" : ", ") + n;
  return usage_error("--profile", fmt::format("no profile named '{}'", name), "shipped profiles: " + names + "; or give a path to a profile file");
}

Result<std::vector<Profile>> builtin_profiles() {
  std::vector<Profile> all;
  for (const auto& n : builtin_profile_names()) {
    auto p = builtin_profile(n);
    if (!p) return p.error();
    all.push_back(std::move(*p));
  }
  return all;
}

Result<Profile> resolve_profile(const std::string& s) {
  if (s.find('/') != std::string::npos || s.ends_with(".json")) return load_profile_file(s);
  return builtin_profile(s);
}

}  // namespace diskvet::suites
