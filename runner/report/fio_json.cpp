// Measurement -> fio's full JSON (json, json+): the keys measurement_json leaves out, filled in.
#include "runner/report/fio_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <ctime>
#include <string>

#include "diskvet/version.hpp"
#include "runner/io/fio_plat.hpp"
#include "runner/report/measurement_json.hpp"

namespace diskvet::runner {

namespace json = boost::json;

namespace {

json::object zero_lat() {
  return json::object{{"min", 0}, {"max", 0}, {"mean", 0.0}, {"stddev", 0.0}, {"N", 0}};
}

// fio's per-direction object for a direction diskvet never runs (trim): every key, all zero.
json::object empty_direction() {
  json::object o;
  for (const char* k : {"io_bytes", "io_kbytes", "bw_bytes", "bw"}) o[k] = 0;
  o["iops"] = 0.0;
  for (const char* k : {"runtime", "total_ios", "short_ios", "drop_ios"}) o[k] = 0;
  for (const char* k : {"slat_ns", "clat_ns", "lat_ns"}) o[k] = zero_lat();
  o["bw_min"] = 0;
  o["bw_max"] = 0;
  o["bw_agg"] = 0.0;
  o["bw_mean"] = 0.0;
  o["bw_dev"] = 0.0;
  o["bw_samples"] = 0;
  o["iops_min"] = 0;
  o["iops_max"] = 0;
  o["iops_mean"] = 0.0;
  o["iops_stddev"] = 0.0;
  o["iops_samples"] = 0;
  return o;
}

// measurement_json's direction object completed with fio's remaining keys.
json::object fio_direction(const Measurement& m, Direction d, FioOutputFormat format) {
  json::object o = direction_json(m, d);
  const DirectionResult& r = m.of(d);
  o["short_ios"] = 0;
  o["drop_ios"] = 0;
  o["slat_ns"] = zero_lat();
  o["clat_ns"] = fio_lat_json(r.lat, format);
  o["lat_ns"] = fio_lat_json(r.lat, format);
  // Bandwidth per interval in KiB/s: every I/O of a workload has its block size, so it is the
  // interval IOPS statistics scaled exactly.
  const RunningStats& st = m.intervals.iops_stats(d);
  const double kib = static_cast<double>(m.workload.bs_bytes) / 1024.0;
  o["bw_min"] = static_cast<uint64_t>(std::llround(st.min_or_0() * kib));
  o["bw_max"] = static_cast<uint64_t>(std::llround(st.max_or_0() * kib));
  o["bw_agg"] = r.ios ? 100.0 : 0.0;  // the share of the group's bandwidth: one job, all of it
  o["bw_mean"] = st.mean * kib;
  o["bw_dev"] = st.stddev() * kib;
  o["bw_samples"] = st.count;
  return o;
}

// fio's iodepth_level (1, 2, ..., >=64) or iodepth_submit/complete (0, 4, ..., >=64) keys.
json::object zero_depths(bool submit_keys) {
  json::object o;
  for (int i = 0; i < 7; ++i) {
    std::string name;
    if (i == 6) name = ">=64";
    else if (!submit_keys) name = std::to_string(1 << i);
    else name = i == 0 ? "0" : std::to_string(1 << (i + 1));
    o[name] = 0.0;
  }
  return o;
}

// fio's range index of a value in one unit (io_u.c: 0-1, 2-3, 4-9, ..., 750-999, then ms 1000-1999, >=2000).
unsigned range_of(uint64_t v) {
  static constexpr std::array<uint64_t, 11> kUpper = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000};
  for (unsigned i = 0; i < kUpper.size(); ++i)
    if (v < kUpper[i]) return i;
  return static_cast<unsigned>(kUpper.size());
}

}  // namespace

json::object fio_lat_json(const LatencyHistogram& h, FioOutputFormat format) {
  json::object lat;
  lat["min"] = h.min_ns();
  lat["max"] = h.max_ns();
  lat["mean"] = h.mean_ns();
  lat["stddev"] = h.stddev_ns();
  lat["N"] = h.count();
  if (h.overflow()) lat["overflow"] = h.overflow();  // diskvet's: I/Os over 137 s (in fio's last bin)
  if (h.count() == 0) return lat;
  json::object pct;
  for (double p : kReportedPercentiles) pct[fmt::format("{:.6f}", p)] = h.percentile_ns(p);
  lat["percentile"] = std::move(pct);
  if (format == FioOutputFormat::json_plus) {
    json::object bins;
    const FioPlatBins plat = to_fio_plat(h);
    for (unsigned i = 0; i < kFioPlatNr; ++i)
      if (plat[i]) bins[std::to_string(fio_plat_value(i))] = plat[i];
    lat["bins"] = std::move(bins);
  }
  return lat;
}

json::object fio_latency_ranges(const Measurement& m) {
  // [unit][range]: ns (10 ranges), us (10), ms (12).
  std::array<std::array<uint64_t, 12>, 3> counts{};
  uint64_t total = 0;
  for (const DirectionResult& r : m.dir) {
    for (unsigned b = 0; b < LatencyHistogram::kBuckets; ++b) {
      const uint64_t n = r.lat.bucket_published(b);
      if (n == 0) continue;
      const uint64_t v = LatencyHistogram::bucket_high(b);
      if (v < 1000) counts[0][range_of(v)] += n;
      else if (v < 1'000'000) counts[1][range_of(v / 1000)] += n;
      else counts[2][range_of(v / 1'000'000)] += n;
      total += n;
    }
    counts[2][11] += r.lat.overflow();
    total += r.lat.overflow();
  }
  static constexpr std::array<const char*, 12> kNames = {"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000"};
  static constexpr std::array<const char*, 3> kUnits = {"latency_ns", "latency_us", "latency_ms"};
  json::object out;
  for (unsigned u = 0; u < 3; ++u) {
    json::object o;
    const unsigned ranges = u == 2 ? 12 : 10;
    for (unsigned i = 0; i < ranges; ++i)
      o[kNames[i]] = total ? 100.0 * static_cast<double>(counts[u][i]) / static_cast<double>(total) : 0.0;
    out[kUnits[u]] = std::move(o);
  }
  return out;
}

json::object fio_io_document(const Measurement& m, std::string_view filename, FioOutputFormat format, int64_t unix_ms,
                             const std::optional<FioDiskUtil>& disk) {
  json::object job = job_json(m, "diskvet", filename);
  job["groupid"] = 0;
  job["eta"] = 0;
  job["elapsed"] = static_cast<uint64_t>(std::llround(m.elapsed_s + m.workload.ramp_s));
  job["read"] = fio_direction(m, Direction::read, format);
  job["write"] = fio_direction(m, Direction::write, format);
  job["trim"] = empty_direction();
  job["sync"] = json::object{{"total_ios", 0}, {"lat_ns", zero_lat()}};
  job["job_runtime"] = static_cast<uint64_t>(std::llround(m.elapsed_s * 1000));
  job["ctx"] = 0;
  job["majf"] = 0;
  job["minf"] = 0;
  job["iodepth_level"] = zero_depths(false);
  job["iodepth_submit"] = zero_depths(true);
  job["iodepth_complete"] = zero_depths(true);
  for (auto& [k, v] : fio_latency_ranges(m)) job[k] = v;
  job["latency_depth"] = m.workload.iodepth;
  job["latency_target"] = 0;
  job["latency_percentile"] = 100.0;
  job["latency_window"] = 0;

  json::object doc;
  doc["fio version"] = fmt::format("diskvet-{}", kVersion);
  const std::time_t secs = static_cast<std::time_t>(unix_ms / 1000);
  doc["timestamp"] = static_cast<int64_t>(secs);
  doc["timestamp_ms"] = unix_ms;
  std::tm tm{};
  ::localtime_r(&secs, &tm);
  std::array<char, 64> buf{};
  std::strftime(buf.data(), buf.size(), "%a %b %e %H:%M:%S %Y", &tm);  // fio's ctime() form, without the newline
  doc["time"] = buf.data();
  doc["diskvet_version"] = kVersion;
  doc["fio_equivalent"] = fio_command_line(m.workload, filename);
  if (std::string notes = fio_command_notes(m.workload); !notes.empty()) doc["fio_notes"] = notes;
  doc["randseed"] = m.workload.seed;  // --randseed repeats this run's offsets and data
  doc["jobs"] = json::array{std::move(job)};
  json::array util;
  if (disk) {
    const devices::DiskStats& s = disk->delta;
    const double busy = disk->wall_ms > 0 ? 100.0 * static_cast<double>(s.io_ticks_ms) / disk->wall_ms : 0.0;
    util.push_back(json::object{{"name", s.name},
                                {"read_ios", s.read_ios},
                                {"write_ios", s.write_ios},
                                {"read_merges", s.read_merges},
                                {"write_merges", s.write_merges},
                                {"read_ticks", s.read_ticks_ms},
                                {"write_ticks", s.write_ticks_ms},
                                {"in_queue", s.in_queue_ms},
                                {"util", std::min(busy, 100.0)}});
  }
  doc["disk_util"] = std::move(util);
  return doc;
}

}  // namespace diskvet::runner
