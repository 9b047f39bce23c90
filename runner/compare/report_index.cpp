// A report read back as values to compare (see report_index.hpp).
#include "runner/compare/report_index.hpp"

#include <fmt/format.h>

#include <cmath>

#include "common/units.hpp"
#include "runner/report/human_format.hpp"
#include "runner/report/report_plots.hpp"
#include "runner/report/report_schema.hpp"
#include "runner/report/report_view.hpp"

namespace diskvet::runner {

namespace json = boost::json;

const std::vector<CompareMetric>& compare_metrics() {
  static const std::vector<CompareMetric> kinds = {
      {"iops", "IOPS", Better::higher},           {"bw", "bandwidth", Better::higher},     {"lat_mean", "mean latency", Better::lower},
      {"lat_p50", "p50 latency", Better::lower},  {"lat_p99", "p99 latency", Better::lower}, {"lat_p9999", "p99.99 latency", Better::lower},
  };
  return kinds;
}

const CompareMetric* find_compare_metric(std::string_view name) {
  for (const auto& k : compare_metrics())
    if (name == k.name) return &k;
  return nullptr;
}

std::string format_metric(const CompareMetric& k, double v) {
  const std::string_view n = k.name;
  if (n == "iops") return human::iops(v);
  if (n == "bw") return human::bandwidth(v);
  return human::latency_ns(v);
}

const WorkloadDirection* DeviceIndex::find(const std::string& key) const {
  for (const auto& w : workloads)
    if (w.key == key) return &w;
  return nullptr;
}

namespace {

// Coefficient of variation in percent of the positive values; nothing from fewer than two.
std::optional<double> cv_pct(const std::vector<double>& xs) {
  if (xs.size() < 2) return std::nullopt;
  double sum = 0;
  for (double x : xs) sum += x;
  const double mean = sum / static_cast<double>(xs.size());
  if (!(mean > 0)) return std::nullopt;
  double ss = 0;
  for (double x : xs) ss += (x - mean) * (x - mean);
  return std::sqrt(ss / static_cast<double>(xs.size() - 1)) / mean * 100;
}

HealthValues health_values(const std::optional<HealthReading>& h) {
  HealthValues v;
  if (!h) return v;
  v.known = h->known;
  for (const auto& [k, x] : {std::pair{"temperature_c", h->temperature_c}, {"percentage_used", h->percentage_used},
                             {"available_spare_pct", h->available_spare_pct}, {"media_errors", h->media_errors},
                             {"error_log_entries", h->error_log_entries}, {"data_units_written", h->data_units_written},
                             {"thermal_transitions", h->thermal_transitions}, {"reallocated_sectors", h->reallocated_sectors},
                             {"pending_sectors", h->pending_sectors}, {"critical_warning", h->critical_warning}})
    if (x) v.counters[k] = *x;
  v.problems = h->problems;
  return v;
}

HealthEvidence health_evidence(const HealthView& health) {
  HealthEvidence e;
  if (const auto& writes = health.write_accounting; writes && !writes->result.empty()) {
    e.writes = writes->result;
    e.writes_words = writes->words;
    if (writes->fails) e.problems.push_back("writes: " + e.writes_words);
  }
  if (const auto& log = health.error_log; log && log->new_entries) {
    e.error_log_new = static_cast<uint64_t>(*log->new_entries);
    e.error_log_failing = log->failing_entries;
    for (const auto& p : log->problems) e.problems.push_back("error log: " + p);
  }
  if (const auto& counters = health.smart_counters; counters && counters->compared) {
    e.smart_counters_compared = static_cast<size_t>(*counters->compared);
    e.smart_counters_grown = counters->findings.size();
    for (const auto* list : {&counters->problems, &counters->inconclusive})
      for (const auto& p : *list) e.problems.push_back("SMART counters: " + p);
  }
  if (const auto& logs = health.sata_sas_logs; logs && logs->new_errors) {
    const auto unseen = static_cast<size_t>(logs->unseen.value_or(0));
    e.sata_sas_log_new = logs->findings.size() + unseen;
    e.sata_sas_log_failing = unseen;
    for (bool fails : logs->findings) e.sata_sas_log_failing += fails;
    for (const auto& p : logs->problems) e.problems.push_back("SATA/SAS log: " + p);
  }
  // What the drive recorded during the self-test after the run: its failures are the device's too.
  if (const auto& across = health.across_self_test) {
    auto add = [&](const char* label, const std::vector<std::string>& problems, const std::vector<std::string>& inconclusive) {
      for (const auto* list : {&problems, &inconclusive})
        for (const auto& p : *list) e.problems.push_back(fmt::format("{} during the self-test after the run: {}", label, p));
    };
    if (across->error_log) add("error log", across->error_log->problems, across->error_log->inconclusive);
    if (across->smart_counters) add("SMART counters", across->smart_counters->problems, across->smart_counters->inconclusive);
    if (across->sata_sas_logs) add("SATA/SAS log", across->sata_sas_logs->problems, across->sata_sas_logs->inconclusive);
  }
  if (const auto& wa = health.write_amplification; wa && wa->factor) e.write_amplification = fmt::format("{:.2f}", *wa->factor);
  else if (wa && !wa->words.empty()) e.write_amplification = wa->available ? "no host writes" : "no OCP log";
  return e;
}

// A device's self-test of one side of its run ("before", "after"), into the evidence.
void add_self_test(HealthEvidence& e, const std::optional<SelfTestOutcomeView>& st, const char* when) {
  if (!st || st->result.empty()) return;
  (std::string_view(when) == "before" ? e.self_test_before : e.self_test_after) = st->result;
  if (st->result != "passed" && st->result != "not-supported")
    e.problems.push_back(fmt::format("self-test {} ({}): {}: {}", when, st->type, st->result, st->words));
}

void add_workload(DeviceIndex& d, const TestView& t, const WorkloadView& w, size_t rank) {
  if (!w.ran || !w.result) return;
  const ResultView& res = *w.result;
  std::vector<SweepStep> sweep;
  if (w.sweep)
    for (const auto& pt : w.sweep->points)  // a step the report holds only part of is not compared
      if (pt.outstanding && pt.iops && pt.lat_mean_us && pt.lat_p99_us)
        sweep.push_back({*pt.outstanding, *pt.iops, *pt.lat_mean_us, *pt.lat_p99_us});
  for (const char* dir : {"read", "write"}) {
    const DirectionView& r = res.direction(dir);
    if (!r.measured()) continue;
    const bool is_read = std::string_view(dir) == "read";
    WorkloadDirection wd;
    wd.test = t.id;
    wd.label = workload_label(w);
    wd.direction = dir;
    wd.key = fmt::format("{}/{}#{}/{}", wd.test, w.rw, rank, dir);
    std::vector<double> iops, bw, mean, p99;
    // Each series holds the intervals the report has the number for: one it lacks is not a zero.
    auto add = [](std::vector<double>& xs, const std::optional<double>& x) {
      if (x) xs.push_back(*x);
    };
    for (const auto& iv : res.intervals) {
      const IntervalDirectionView& x = is_read ? iv.read : iv.write;
      if (iv.t_s && x.iops) wd.iops_series.emplace_back(*iv.t_s + iv.dur_s.value_or(0), *x.iops);
      add(iops, x.iops);
      add(bw, x.bw_bytes);
      add(mean, x.lat_mean_ns);
      add(p99, x.lat_p99_ns);
    }
    wd.percentiles_ns = r.percentiles_ns;
    if (r.iops) wd.metrics["iops"] = {*r.iops, cv_pct(iops)};
    if (r.bw_bytes) wd.metrics["bw"] = {*r.bw_bytes, cv_pct(bw)};
    if (r.lat_mean_ns) wd.metrics["lat_mean"] = {*r.lat_mean_ns, cv_pct(mean)};
    if (r.lat_p50_ns) wd.metrics["lat_p50"] = {*r.lat_p50_ns, std::nullopt};
    if (r.lat_p99_ns) wd.metrics["lat_p99"] = {*r.lat_p99_ns, cv_pct(p99)};
    if (r.lat_p9999_ns) wd.metrics["lat_p9999"] = {*r.lat_p9999_ns, std::nullopt};
    wd.sweep = sweep;
    d.workloads.push_back(std::move(wd));
  }
}

// The numbers of one direction of a fio result (a host's, or a merged one) with the noise of an
// interval series of IOPS beside IOPS and bandwidth (one block size per workload: the bandwidth
// series is the IOPS series times a constant, with the same spread).
void add_direction_metrics(WorkloadDirection& wd, const FioDirectionView& r, std::optional<double> iops_noise) {
  wd.percentiles_ns = r.percentiles_ns;
  if (r.iops) wd.metrics["iops"] = {*r.iops, iops_noise};
  if (r.bw_bytes) wd.metrics["bw"] = {*r.bw_bytes, iops_noise};
  if (r.lat_mean_ns && r.lat_count.value_or(1) > 0) wd.metrics["lat_mean"] = {*r.lat_mean_ns, std::nullopt};
  if (auto p = r.percentile_ns(50.0)) wd.metrics["lat_p50"] = {*p, std::nullopt};
  if (auto p = r.percentile_ns(99.0)) wd.metrics["lat_p99"] = {*p, std::nullopt};
  if (auto p = r.percentile_ns(99.99)) wd.metrics["lat_p9999"] = {*p, std::nullopt};
}

const std::optional<double>& interval_iops(const FioIntervalView& iv, std::string_view dir) {
  return dir == "read" ? iv.read_iops : iv.write_iops;
}

std::optional<double> interval_noise(const FioResultView* merged, std::string_view dir) {
  std::vector<double> xs;
  if (merged)
    for (const FioIntervalView& iv : merged->intervals)
      if (const auto& x = interval_iops(iv, dir)) xs.push_back(*x);
  return cv_pct(xs);
}

// fio's interval series of a merged or per-host result: (seconds, IOPS) per sample.
std::vector<std::pair<double, double>> interval_series(const FioResultView* merged, std::string_view dir) {
  std::vector<std::pair<double, double>> out;
  if (merged)
    for (const FioIntervalView& iv : merged->intervals)
      if (const auto& x = interval_iops(iv, dir); x && iv.t_ms) out.emplace_back(*iv.t_ms / 1e3, *x);
  return out;
}

std::string hosts_workload_label(const HostsWorkloadView& w) {
  return fmt::format("{} {} QD{}x{}", w.rw, human::known(w.bs_bytes, format_bytes), human::known_as(w.iodepth), human::known_as(w.numjobs));
}

DeviceIndex& host_entry(std::vector<DeviceIndex>& devices, const std::string& host) {
  const std::string path = "host " + host;
  for (auto& d : devices)
    if (d.path == path) return d;
  DeviceIndex d;
  d.position = devices.size();
  d.path = path;
  devices.push_back(std::move(d));
  return devices.back();
}

// One workload of a multi-host test: the merged numbers on devices[0], each host's on its entry.
void add_hosts_workload(std::vector<DeviceIndex>& devices, const HostsTestView& t, const HostsWorkloadView& w, size_t rank) {
  if (!w.merged) return;  // the workload did not run (its error says why)
  std::vector<SweepStep> sweep;
  for (const HostsWorkloadView& step : w.sweep) {
    static const FioDirectionView none;
    const FioDirectionView* found = step.merged ? step.merged->direction("total") : nullptr;
    const FioDirectionView& total = found ? *found : none;
    const auto p99 = total.percentile_ns(99.0);
    if (step.iodepth && step.numjobs && total.iops && total.lat_mean_ns && p99)  // a step held only in part is not compared
      sweep.push_back({*step.iodepth * *step.numjobs, *total.iops, *total.lat_mean_ns / 1e3, *p99 / 1e3});
  }
  for (const char* dir : {"read", "write"}) {
    WorkloadDirection wd;
    wd.test = t.id;
    wd.label = hosts_workload_label(w);
    wd.direction = dir;
    wd.key = fmt::format("{}/{}#{}/{}", wd.test, w.rw, rank, dir);
    if (const FioDirectionView* m = w.merged->direction(dir); m && m->total_ios.value_or(0) > 0) {
      WorkloadDirection merged = wd;
      add_direction_metrics(merged, *m, interval_noise(&*w.merged, dir));
      merged.iops_series = interval_series(&*w.merged, dir);
      merged.sweep = sweep;
      devices[0].workloads.push_back(std::move(merged));
    }
    for (const auto& [host, result] : w.hosts) {
      const FioDirectionView* r = result.direction(dir);
      if (!r || r->total_ios.value_or(0) <= 0) continue;
      WorkloadDirection h = wd;
      const FioResultView* own = w.merged_of(host);
      add_direction_metrics(h, *r, interval_noise(own, dir));
      h.iops_series = interval_series(own, dir);
      host_entry(devices, host).workloads.push_back(std::move(h));
    }
  }
}

// A multi-host report (ReportView::multi_host) indexed per test workload and direction: the merged
// numbers (IOPS and bandwidth summed over the hosts, latency percentiles from the summed json+ bins,
// the noise of the merged interval series) and each host's own numbers (fio's, per host; noise from
// the host's own interval series when the report kept it).
ReportIndex index_hosts_report(const ReportView& report, const std::string& name) {
  const MultiHostView& run = multi_host_of(report);
  ReportIndex r;
  r.name = name;
  r.hosts = true;
  r.schema = report.schema.value_or(0);
  r.suite = report.suite.name;
  r.started = report.started;
  r.verdict = report.verdict;
  r.complete = report.complete;
  DeviceIndex merged;
  merged.path = kMergedHosts;
  merged.verdict = r.verdict;
  r.devices.push_back(std::move(merged));
  for (const HostStateView& h : run.hosts) host_entry(r.devices, h.name).verdict = h.state;
  for (const HostsTestView& t : run.tests) {
    r.devices[0].test_verdicts[t.id] = t.status;
    for (const VerdictView& v : t.verdicts)
      if (v.status != "PASS") r.devices[0].failing.push_back(v.test + " " + v.metric);
    for (const auto& [host, status] : t.host_verdicts) host_entry(r.devices, host).test_verdicts[t.id] = status;
    std::map<std::string, size_t> ranks;
    for (const HostsWorkloadView& w : t.workloads) add_hosts_workload(r.devices, t, w, ranks[w.rw]++);
  }
  return r;
}

}  // namespace

ReportIndex index_report(const json::object& doc, const std::string& name) { return index_report(decode_report(doc), name); }

ReportIndex index_report(const ReportView& report, const std::string& name) {
  if (report.multi_host) return index_hosts_report(report, name);
  ReportIndex r;
  r.name = name;
  r.schema = report.schema.value_or(0);
  r.suite = report.suite.name;
  r.started = report.started;
  r.verdict = report.verdict;
  r.complete = report.complete;
  size_t position = 0;
  for (const auto& dev : report.devices) {
    DeviceIndex d;
    d.position = position++;
    d.path = dev.path;
    d.model = dev.model;
    d.serial = dev.serial;
    d.firmware = dev.firmware;
    d.size_bytes = dev.size_bytes.value_or(0);
    d.verdict = dev.verdict;
    d.health_before = health_values(dev.health.before);
    d.health_after = health_values(dev.health.after);
    d.evidence = health_evidence(dev.health);
    add_self_test(d.evidence, dev.self_test.before, "before");
    add_self_test(d.evidence, dev.self_test.after, "after");
    for (const auto& t : dev.tests) {
      d.test_verdicts[t.id] = t.verdict;
      for (const auto& v : t.verdicts)
        if (v.status != "PASS") d.failing.push_back(v.test + " " + v.metric);
      if (t.matrix) continue;  // a matrix's cells compare as its table, not as workloads
      std::map<std::string, size_t> ranks;
      for (const auto& w : t.workloads) add_workload(d, t, w, ranks[w.rw]++);
    }
    r.devices.push_back(std::move(d));
  }
  return r;
}

}  // namespace diskvet::runner
