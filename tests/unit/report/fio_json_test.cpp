// `diskvet io`'s fio JSON: every key fio's readers look for, json+'s bins in fio's layout, and
// percentiles read back from those bins (as fio's tools read them) within one bin of diskvet's.
#include "runner/report/fio_json.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "runner/io/fio_plat.hpp"

using namespace diskvet::runner;
namespace json = boost::json;

namespace {

Measurement measured() {
  Measurement m;
  m.workload.rw = Pattern::randrw;
  m.workload.bs_bytes = 4096;
  m.elapsed_s = 2;
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> lat(11.5, 0.6);  // around 100 us, a long tail
  for (int i = 0; i < 20'000; ++i) {
    DirectionResult& r = m.dir[size_t(i % 3 ? Direction::read : Direction::write)];
    ++r.ios;
    r.bytes += 4096;
    r.lat.record(static_cast<uint64_t>(lat(rng)));
  }
  IntervalSample s;
  s.dur_s = 1;
  s.ios = {6000, 3000};
  m.intervals.push(s);
  s.t_s = 1;
  s.ios = {7000, 4000};
  m.intervals.push(s);
  return m;
}

const json::object& job_of(const json::object& doc) { return doc.at("jobs").as_array().at(0).as_object(); }

// fio's calc_clat_percentiles over json+ bins: the first bin whose running count reaches pct%.
uint64_t percentile_from_bins(const json::object& bins, double pct) {
  std::map<uint64_t, uint64_t> sorted;
  uint64_t total = 0;
  for (const auto& [k, v] : bins) {
    sorted[std::stoull(std::string(k))] = v.to_number<uint64_t>();
    total += v.to_number<uint64_t>();
  }
  uint64_t seen = 0;
  for (const auto& [at, n] : sorted) {
    seen += n;
    if (static_cast<double>(seen) >= pct / 100.0 * static_cast<double>(total)) return at;
  }
  return sorted.rbegin()->first;
}

}  // namespace

TEST(FioJson, HasEveryKeyFiosJsonReadersExpect) {
  const json::object doc = fio_io_document(measured(), "/dev/loop0", FioOutputFormat::json, 1'700'000'000'000);
  for (const char* k : {"fio version", "timestamp", "timestamp_ms", "time", "jobs", "disk_util"}) EXPECT_TRUE(doc.contains(k)) << k;
  const json::object& job = job_of(doc);
  for (const char* k : {"jobname", "groupid", "error", "eta", "elapsed", "job options", "read", "write", "trim", "sync", "job_runtime",
                        "usr_cpu", "sys_cpu", "ctx", "majf", "minf", "iodepth_level", "iodepth_submit", "iodepth_complete",
                        "latency_ns", "latency_us", "latency_ms", "latency_depth", "latency_target", "latency_percentile",
                        "latency_window"})
    EXPECT_TRUE(job.contains(k)) << k;
  for (const char* d : {"read", "write", "trim"})
    for (const char* k : {"io_bytes", "io_kbytes", "bw_bytes", "bw", "iops", "runtime", "total_ios", "short_ios", "drop_ios", "slat_ns",
                          "clat_ns", "lat_ns", "bw_min", "bw_max", "bw_agg", "bw_mean", "bw_dev", "bw_samples", "iops_min", "iops_max",
                          "iops_mean", "iops_stddev", "iops_samples"})
      EXPECT_TRUE(job.at(d).as_object().contains(k)) << d << "." << k;
  EXPECT_EQ(job.at("sync").at("lat_ns").at("N").to_number<uint64_t>(), 0u);
  EXPECT_EQ(job.at("read").at("slat_ns").at("N").to_number<uint64_t>(), 0u);  // not measured, as fio prints it when off
  EXPECT_EQ(job.at("read").at("clat_ns").at("N"), job.at("read").at("lat_ns").at("N"));
  EXPECT_FALSE(job.at("read").at("lat_ns").as_object().contains("bins"));  // plain json: no bins
  EXPECT_EQ(doc.at("timestamp").to_number<int64_t>(), 1'700'000'000);
}

TEST(FioJson, JsonPlusBinsAreFiosLayoutAndGiveDiskvetsPercentilesWithinOneBin) {
  const Measurement m = measured();
  const json::object doc = fio_io_document(m, "/dev/loop0", FioOutputFormat::json_plus, 0);
  for (auto d : {Direction::read, Direction::write}) {
    for (const char* lat : {"lat_ns", "clat_ns"}) {
      const json::object& o = job_of(doc).at(to_string(d)).at(lat).as_object();
      const json::object& bins = o.at("bins").as_object();
      uint64_t total = 0;
      for (const auto& [k, v] : bins) {
        const uint64_t at = std::stoull(std::string(k));
        EXPECT_EQ(fio_plat_value(fio_plat_index(at)), at) << k << " is not a fio bin's value";
        total += v.to_number<uint64_t>();
      }
      EXPECT_EQ(total, m.of(d).ios);
      for (double p : {50.0, 90.0, 99.0, 99.9}) {
        const uint64_t own = m.of(d).lat.percentile_ns(p);
        const uint64_t from_bins = percentile_from_bins(bins, p);
        EXPECT_EQ(fio_plat_index(from_bins), fio_plat_index(own)) << lat << " p" << p << ": " << from_bins << " vs " << own;
      }
    }
  }
}

TEST(FioJson, ADirectionWithoutIoHasNoBins) {
  // fio_jsonplus_clat2csv indexes the first bin of every `bins` it finds: an empty one would crash it.
  Measurement m = measured();
  m.dir[size_t(Direction::write)] = DirectionResult{};
  const json::object doc = fio_io_document(m, "f", FioOutputFormat::json_plus, 0);
  EXPECT_FALSE(job_of(doc).at("write").at("lat_ns").as_object().contains("bins"));
  EXPECT_TRUE(job_of(doc).at("read").at("lat_ns").as_object().contains("bins"));
}

TEST(FioJson, LatencyRangesArePercentagesOfEveryIo) {
  Measurement m;
  const uint64_t values[] = {1, 3, 500, 1500, 150'000, 3'000'000, 5'000'000'000};
  for (uint64_t ns : values) m.dir[0].lat.record(ns);
  const json::object r = fio_latency_ranges(m);
  const double seventh = 100.0 / 7;
  EXPECT_DOUBLE_EQ(r.at("latency_ns").at("2").to_number<double>(), seventh);
  EXPECT_DOUBLE_EQ(r.at("latency_ns").at("4").to_number<double>(), seventh);
  EXPECT_DOUBLE_EQ(r.at("latency_ns").at("750").to_number<double>(), seventh);
  EXPECT_DOUBLE_EQ(r.at("latency_us").at("2").to_number<double>(), seventh);
  EXPECT_DOUBLE_EQ(r.at("latency_us").at("250").to_number<double>(), seventh);
  EXPECT_DOUBLE_EQ(r.at("latency_ms").at("4").to_number<double>(), seventh);
  EXPECT_DOUBLE_EQ(r.at("latency_ms").at(">=2000").to_number<double>(), seventh);
}

TEST(FioJson, PassthroughJobOptionsSpellFiosEngineAndCommandType) {
  Measurement m = measured();
  EXPECT_FALSE(job_of(fio_io_document(m, "/dev/nvme0n1", FioOutputFormat::json, 0)).at("job options").as_object().contains("cmd_type"));
  m.workload.engine = BackendKind::io_uring_cmd;
  const boost::json::object doc = fio_io_document(m, "/dev/ng0n1", FioOutputFormat::json, 0);
  const auto& opts = job_of(doc).at("job options");
  EXPECT_EQ(opts.at("ioengine").as_string(), "io_uring_cmd");
  EXPECT_EQ(opts.at("cmd_type").as_string(), "nvme");
  EXPECT_EQ(opts.at("filename").as_string(), "/dev/ng0n1");
  EXPECT_NE(std::string(doc.at("fio_equivalent").as_string()).find("--filename=/dev/ng0n1 --ioengine=io_uring_cmd"), std::string::npos);
}

TEST(FioJson, JobOptionsSayWhenCompletionsWerePolled) {
  Measurement m = measured();
  EXPECT_FALSE(job_of(fio_io_document(m, "/dev/nvme0n1", FioOutputFormat::json, 0)).at("job options").as_object().contains("hipri"));
  m.workload.hipri = true;
  EXPECT_TRUE(job_of(fio_io_document(m, "/dev/nvme0n1", FioOutputFormat::json, 0)).at("job options").at("hipri").as_bool());
  // On NVMe passthrough too, as fio's io_uring_cmd spells it beside its cmd_type.
  m.workload.engine = BackendKind::io_uring_cmd;
  const boost::json::object doc = fio_io_document(m, "/dev/ng0n1", FioOutputFormat::json, 0);
  const auto& opts = job_of(doc).at("job options");
  EXPECT_TRUE(opts.at("hipri").as_bool());
  EXPECT_EQ(opts.at("ioengine").as_string(), "io_uring_cmd");
}
