// Reading fio's json+ client output and interval logs.
#include "runner/hosts/fio_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <optional>

namespace diskvet::runner {

namespace json = boost::json;

namespace {

double num(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  if (!v) return 0;
  if (v->is_double()) return v->get_double();
  if (v->is_int64()) return static_cast<double>(v->get_int64());
  if (v->is_uint64()) return static_cast<double>(v->get_uint64());
  return 0;
}
// A count or a time in ns as fio prints it: whole, not negative, below 2^64 (anything else: nullopt).
std::optional<uint64_t> as_count(const json::value& v) {
  if (v.is_uint64()) return v.get_uint64();
  if (v.is_int64()) return v.get_int64() >= 0 ? std::optional<uint64_t>(static_cast<uint64_t>(v.get_int64())) : std::nullopt;
  if (v.is_double()) {
    const double d = v.get_double();
    if (!(d >= 0) || !(d < 18446744073709551616.0)) return std::nullopt;
    return static_cast<uint64_t>(d);
  }
  return std::nullopt;
}
uint64_t unum(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v ? as_count(*v).value_or(0) : 0;
}

Result<FioDirectionResult> read_direction(const json::object& dir, const std::string& where) {
  FioDirectionResult d;
  d.iops = num(dir, "iops");
  d.bw_bytes_per_s = num(dir, "bw_bytes");
  d.io_bytes = unum(dir, "io_bytes");
  d.total_ios = unum(dir, "total_ios");
  d.runtime_ms = unum(dir, "runtime");
  const json::value* lat = dir.if_contains("lat_ns");
  if (!lat || !lat->is_object()) return input_error(where, "has no lat_ns", "run fio with lat_percentiles=1 and --output-format=json+");
  const json::object& l = lat->get_object();
  d.lat.min_ns = unum(l, "min");
  d.lat.max_ns = unum(l, "max");
  d.lat.mean_ns = num(l, "mean");
  d.lat.count = unum(l, "N");
  if (const json::value* p = l.if_contains("percentile"); p && p->is_object())
    for (const auto& kv : p->get_object()) {
      const double pct = std::strtod(std::string(kv.key()).c_str(), nullptr);
      auto v = as_count(kv.value());
      if (!v || !(pct >= 0 && pct <= 100)) return input_error(where, fmt::format("has a percentile \"{}\" that is not fio's", std::string_view(kv.key())));
      d.lat.percentiles_ns[pct] = *v;
    }
  if (const json::value* b = l.if_contains("bins"); b && b->is_object()) {
    for (const auto& kv : b->get_object()) {
      uint64_t at = 0;
      const std::string_view key = kv.key();
      auto n = as_count(kv.value());
      if (std::from_chars(key.data(), key.data() + key.size(), at).ec != std::errc{} || !n)
        return input_error(where, fmt::format("has a latency bin \"{}\" that is not fio's", key));
      if (*n == 0) continue;  // fio prints no empty bin; one would be no latency at all
      if (*n > UINT64_MAX - d.lat.bins[at]) return input_error(where, "has latency bins that add up past 2^64");
      d.lat.bins[at] += *n;
    }
  } else if (d.lat.count > 0) {
    return input_error(where, "has latencies but no json+ bins", "run fio with --output-format=json+ and lat_percentiles=1");
  }
  return d;
}

}  // namespace

Result<FioClientOutput> parse_fio_client_output(std::string_view text) {
  FioClientOutput out;
  // fio prints its banners ("<host> job: ...") and lost hosts before the JSON, which opens with a
  // line holding only "{".
  size_t start = std::string_view::npos;
  if (text.substr(0, 2) == "{\n") start = 0;
  else if (size_t at = text.find("\n{\n"); at != std::string_view::npos) start = at + 1;
  std::string_view before = start == std::string_view::npos ? text : text.substr(0, start);
  size_t line_start = 0;
  while (line_start < before.size()) {
    size_t end = before.find('\n', line_start);
    if (end == std::string_view::npos) end = before.size();
    std::string_view line = before.substr(line_start, end - line_start);
    constexpr std::string_view kLost = "client: host=";
    if (line.substr(0, kLost.size()) == kLost && line.find(" disconnected") != std::string_view::npos) {
      std::string_view host = line.substr(kLost.size());
      host = host.substr(0, host.find(" disconnected"));
      out.disconnected.emplace_back(host);
    }
    line_start = end + 1;
  }
  out.messages = std::string(before);
  if (start == std::string_view::npos) return input_error("fio output", "holds no JSON document", "see fio's messages in the report");
  json::parser p;
  boost::system::error_code ec;
  std::string_view doc = text.substr(start);
  const size_t used = p.write_some(doc.data(), doc.size(), ec);
  // json::parser wants one complete value: a document cut short is an error here.
  if (ec) return input_error("fio output", fmt::format("the JSON document does not parse ({})", ec.message()));
  out.messages += std::string(doc.substr(used));
  json::value v = p.release();
  if (!v.is_object()) return input_error("fio output", "the JSON document is not an object");
  json::object& o = v.get_object();
  if (const json::value* ver = o.if_contains("fio version"); ver && ver->is_string()) out.fio_version = std::string(ver->get_string());
  const json::value* stats = o.if_contains("client_stats");
  if (!stats || !stats->is_array()) return input_error("fio output", "has no client_stats", "run fio as a client (--client=...)");
  for (const json::value& e : stats->get_array()) {
    if (!e.is_object()) return input_error("fio output", "client_stats holds a non-object");
    const json::object& c = e.get_object();
    FioHostResult h;
    if (const json::value* n = c.if_contains("jobname"); n && n->is_string()) h.jobname = std::string(n->get_string());
    if (h.jobname == "All clients") continue;
    if (const json::value* n = c.if_contains("hostname"); n && n->is_string()) h.client = std::string(n->get_string());
    if (const json::value* err = c.if_contains("error")) h.error = err->is_int64() ? err->get_int64() : (err->is_number() ? 1 : 0);
    h.usr_cpu_pct = num(c, "usr_cpu");
    h.sys_cpu_pct = num(c, "sys_cpu");
    const std::string where = fmt::format("fio output: client {}", h.client);
    for (int i = 0; i < 2; ++i) {
      const json::value* d = c.if_contains(i == 0 ? "read" : "write");
      if (!d || !d->is_object()) return input_error(where, fmt::format("has no {} object", i == 0 ? "read" : "write"));
      auto dir = read_direction(d->get_object(), where);
      if (!dir) return dir.error();
      h.dir[i] = std::move(*dir);
    }
    h.raw = c;
    out.hosts.push_back(std::move(h));
  }
  return out;
}

Result<std::vector<FioIntervalSample>> parse_fio_interval_log(std::string_view text, const std::string& name) {
  std::vector<FioIntervalSample> out;
  size_t pos = 0;
  int line_no = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (line.empty()) continue;
    // time, value, ddir, ...
    uint64_t f[3] = {};
    size_t at = 0;
    for (int k = 0; k < 3; ++k) {
      while (at < line.size() && (line[at] == ' ' || line[at] == ',')) ++at;
      auto r = std::from_chars(line.data() + at, line.data() + line.size(), f[k]);
      if (r.ec != std::errc{}) return input_error(name, fmt::format("line {} is not an fio interval log line", line_no));
      at = static_cast<size_t>(r.ptr - line.data());
    }
    if (f[2] > 1) continue;  // trim and sync are not measured here
    if (out.empty() || out.back().t_ms != f[0]) out.push_back(FioIntervalSample{f[0], {}});
    out.back().value[f[2]] += static_cast<double>(f[1]);
  }
  return out;
}

std::vector<FioIntervalSample> sum_interval_logs(const std::vector<std::vector<FioIntervalSample>>& logs) {
  // fio drops a job's last, partial interval or not depending on when the job stopped: only the
  // samples every log has are summed (a sum with a missing part would understate the interval).
  if (logs.empty()) return {};
  size_t n = SIZE_MAX;
  for (const auto& log : logs) n = std::min(n, log.size());
  std::vector<FioIntervalSample> out(n);
  for (const auto& log : logs)
    for (size_t i = 0; i < n; ++i) {
      out[i].t_ms = std::max(out[i].t_ms, log[i].t_ms);
      out[i].value[0] += log[i].value[0];
      out[i].value[1] += log[i].value[1];
    }
  return out;
}

}  // namespace diskvet::runner
