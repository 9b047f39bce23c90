// Multi-host reports (`diskvet run --hosts`) made from real fio client output: the two-host capture
// of tests/unit/data/hosts (client_timed.txt, a timed null-engine run with 1 s interval logs per job)
// parsed, merged and written as the controller writes its report (per-host client_stats entries,
// merged numbers with percentiles from the summed json+ bins, each host's own series). A host can be
// made slower (its IOPS, bandwidth and logged IOPS times a factor, its latencies divided by it),
// renamed (to stand for another host), or given another state. For compare's unit and CLI tests;
// header-only, its users link diskvet_cli (which holds diskvet_hosts).
#pragma once

#include <boost/json.hpp>

#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "runner/hosts/fio_output.hpp"
#include "runner/hosts/hosts_merge.hpp"
#include "runner/hosts/hosts_verdicts.hpp"
#include "runner/report/report_schema.hpp"

namespace diskvet::testing {

struct HostsRun {
  std::map<std::string, double> slower = {};           // fio host ("h1", "h2") -> the share of its IOPS kept (0.5: half)
  std::map<std::string, std::string> name = {};        // fio host -> its name in the report (default: the same)
  std::map<std::string, std::string> state = {};       // report name -> host state (default "ok")
  std::string verdict = "NOT-JUDGED", test_status = "";  // the run's verdict, the test's status ("" none)
};

namespace hosts_report_detail {

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void slow_down(runner::FioHostResult& h, double f) {
  namespace json = boost::json;
  for (int d = 0; d < 2; ++d) {
    runner::FioDirectionResult& r = h.dir[d];
    r.iops *= f;
    r.bw_bytes_per_s *= f;
    r.lat.mean_ns /= f;
    std::map<uint64_t, uint64_t> bins;
    for (const auto& [at, n] : r.lat.bins) bins[static_cast<uint64_t>(static_cast<double>(at) / f)] += n;
    r.lat.bins = bins;
    json::object& raw = h.raw.at(d == 0 ? "read" : "write").as_object();
    raw["iops"] = raw.at("iops").to_number<double>() * f;
    raw["bw_bytes"] = raw.at("bw_bytes").to_number<double>() * f;
    json::object& lat = raw.at("lat_ns").as_object();
    lat["mean"] = lat.at("mean").to_number<double>() / f;
    if (json::value* p = lat.if_contains("percentile"); p && p->is_object())
      for (auto& kv : p->as_object()) kv.value() = static_cast<uint64_t>(kv.value().to_number<double>() / f);
  }
}

}  // namespace hosts_report_detail

// data_dir: tests/unit/data (the folder holding hosts/).
inline boost::json::object hosts_report(const std::string& data_dir, const HostsRun& run = {}) {
  namespace json = boost::json;
  using namespace hosts_report_detail;
  const std::string dir = data_dir + "/hosts/";
  auto out = runner::parse_fio_client_output(read_text(dir + "client_timed.txt"));
  if (!out) throw std::runtime_error(out.error().message());
  const std::vector<double> pcts{50, 90, 99, 99.9, 99.99};
  std::vector<runner::FioHostResult> results;
  std::vector<std::vector<runner::FioIntervalSample>> logs;
  std::vector<std::string> names;
  for (const char* h : {"h1", "h2"}) {
    runner::FioHostResult r;
    for (const auto& x : out->hosts)
      if (x.client == std::string(h) + ".sock") r = x;
    std::vector<std::vector<runner::FioIntervalSample>> jobs;
    for (int j = 1; j <= 2; ++j) {
      const std::string f = "iops_iops." + std::to_string(j) + ".log." + h + ".sock";
      auto log = runner::parse_fio_interval_log(read_text(dir + f), f);
      if (!log) throw std::runtime_error(log.error().message());
      jobs.push_back(*log);
    }
    auto log = runner::sum_interval_logs(jobs);
    if (auto s = run.slower.find(h); s != run.slower.end()) {
      slow_down(r, s->second);
      for (auto& x : log) x.value[0] *= s->second, x.value[1] *= s->second;
    }
    results.push_back(r);
    logs.push_back(log);
    names.push_back(run.name.contains(h) ? run.name.at(h) : std::string(h));
  }
  std::vector<const runner::FioHostResult*> parts;
  json::object per_host, own;
  json::array hosts;
  for (size_t i = 0; i < results.size(); ++i) {
    parts.push_back(&results[i]);
    per_host[names[i]] = results[i].raw;
    own[names[i]] = runner::merged_json(runner::merge_hosts({&results[i]}, {logs[i]}, {names[i]}, pcts, 1000));
    hosts.push_back(json::object{{"name", names[i]}, {"state", run.state.contains(names[i]) ? run.state.at(names[i]) : std::string("ok")},
                                 {"fio_version", out->fio_version}});
  }
  json::object w{{"rw", "randread"}, {"bs_bytes", 4096}, {"iodepth", 4}, {"numjobs", 2}, {"runtime_s", 3}, {"ramp_s", 1}, {"engine", "null"},
                 {"hosts", per_host}, {"merged", runner::merged_json(runner::merge_hosts(parts, logs, names, pcts, 1000))}, {"host_merged", own}};
  json::object test{{"id", "randread-qd4"}, {"workloads", json::array{w}}};
  if (!run.test_status.empty()) test["status"] = run.test_status;
  return json::object{{"schema", runner::kReportSchema}, {"kind", runner::kHostsReportKind}, {"suite", "hosts-lab"}, {"profile", nullptr},
                      {"status", "COMPLETE"}, {"verdict", run.verdict}, {"exit_code", 0}, {"hosts", hosts}, {"tests", json::array{test}}};
}

}  // namespace diskvet::testing
