// The report decoded into its view (see report_view.hpp): the run, its devices and tests; with
// report_view_health.cpp and report_view_workload.cpp the one place that names the report's keys.
#include "runner/report/report_view.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "runner/report/report_reader.hpp"
#include "runner/report/report_schema.hpp"

namespace diskvet::runner {

namespace json = boost::json;
using report_reader::Need;
using report_reader::ObjectReader;
using report_reader::read_health;
using report_reader::read_matrix;
using report_reader::read_phase_not_run;
using report_reader::read_self_test;
using report_reader::read_verify;
using report_reader::read_workload;

std::string to_string(ReportProblem::Kind k) {
  switch (k) {
    case ReportProblem::Kind::missing: return "missing";
    case ReportProblem::Kind::wrong_type: return "wrong type";
    case ReportProblem::Kind::out_of_range: return "out of range";
    case ReportProblem::Kind::unknown_key: return "unknown key";
  }
  return "problem";
}

std::string describe(const ReportProblem& p) { return fmt::format("{}: {}: {}", p.path.empty() ? "the report" : p.path, to_string(p.kind), p.detail); }

namespace {

constexpr Need kRequired = Need::required;

// What each schema version added (report_schema.hpp): a member a report of an earlier version
// cannot have reads as not recorded, and its absence is no problem there.
constexpr int kProfileSourceSince = 2;

struct Context {
  int schema = kReportSchemaVersion;
  std::vector<ReportProblem>& problems;
  Need since(int version) const { return schema >= version ? Need::required : Need::optional; }
};

}  // namespace

PhaseNotRunView report_reader::read_phase_not_run(ObjectReader& r) {
  return PhaseNotRunView{r.text("phase", kRequired), r.text("why", kRequired)};
}

VerdictView report_reader::read_verdict(ObjectReader& r) {
  VerdictView v;
  v.test = r.text("test");
  v.metric = r.text("metric", kRequired);
  v.bound = r.text("bound");
  v.status = r.text("status", kRequired);
  v.reason = r.text("reason");
  v.expected = r.number("expected");
  v.measured = r.number("measured");
  r.written({"margin_pct", "tolerance_pct"});
  return v;
}

namespace {

TestView test(ObjectReader& r) {
  TestView t;
  t.id = r.text("id", kRequired);
  t.description = r.text("description");
  t.matrix = r.recorded<MatrixView>("matrix", read_matrix);
  t.workloads = r.list<WorkloadView>("workloads", read_workload, kRequired);
  t.block_path = r.list<WorkloadView>("block_path", read_workload);
  t.verdicts = r.list<VerdictView>("verdicts", report_reader::read_verdict);
  t.verdict = r.text("verdict");
  t.reasons = r.texts("reasons");
  return t;
}

// Who the device is: path, identity and file system, the profile it was judged by, the fast path.
void read_identity(ObjectReader& r, const Context& cx, DeviceView& d) {
  d.path = r.text("path", kRequired);
  d.kind = r.text("kind");
  d.model = r.text("model");
  d.serial = r.text("serial");
  d.firmware = r.text("firmware");
  d.size_bytes = r.size("size_bytes");
  d.tested_bytes = r.size("tested_bytes");
  {
    ObjectReader id = r.object("identity");
    d.file_system = id.recorded<FileSystemView>("file_system", [](ObjectReader& f) {
      FileSystemView fs;
      fs.fstype = f.text("fstype");
      fs.source = f.text("source");
      fs.mountpoint = f.text("mountpoint");
      fs.mount_options = f.text("mount_options");
      fs.direct_io = f.flag("direct_io");
      fs.nfs = f.recorded<NfsView>("nfs", [](ObjectReader& n) {
        n.open();
        return NfsView{n.text("server"), n.text("version"), n.size("rsize_bytes"), n.size("wsize_bytes")};
      });
      f.open();  // super_options and the rest of the mount (devices/file_system)
      return fs;
    });
    id.open();  // the `diskvet list --json` shape, as discovery saw it
  }
  {
    ObjectReader p = r.object("profile");
    d.profile.name = p.text("name");
    d.profile.file = p.text("file");
    d.profile.reason = p.text("reason");
    const bool recorded = p.has("source");
    const std::string source = p.text("source", cx.since(kProfileSourceSince));  // missing in schema 2 on is a problem
    if (recorded) d.profile.source = source;
  }
  {
    ObjectReader fp = r.object("fast_path");
    d.fast_path_summary = fp.text("summary");
    fp.written({"passthrough", "node", "no_passthrough", "polled", "no_poll", "polled_passthrough"});
  }
}

// What preparing the device did: purge, capacity probe, preconditioning, the unwritten-space probe.
void read_preparation(ObjectReader& r, DeviceView& d) {
  {
    ObjectReader p = r.object("purge");
    d.purge = PurgeView{p.flag("requested"), p.flag("failed"), p.text("method"), p.text("detail"), p.number("duration_s")};
  }
  d.capacity_probe = r.recorded<CapacityProbeView>("capacity_probe", [](ObjectReader& c) {
    c.open();  // the probe's counts, faults and evidence (runner/verify/address_probe)
    return CapacityProbeView{c.flag("performed"), c.text("verdict"), c.text("summary"), c.size("claimed_bytes"), c.size("real_bytes")};
  });
  d.phases_not_run = r.list<PhaseNotRunView>("phases_not_run", read_phase_not_run);
  {
    ObjectReader p = r.object("precondition");
    d.precondition.performed = p.flag("performed");
    d.precondition.reason = p.text("reason");
    d.precondition.capacities_written = p.number("capacities_written");
    d.precondition.capacities_target = p.number("capacities_target");
    d.precondition.elapsed_s = p.number("elapsed_s");
    d.precondition.bytes_written = p.size("bytes_written");
    p.written({"capped", "completed", "fio"});
  }
  {
    ObjectReader p = r.object("probe");
    d.probe = ProbeView{p.flag("performed"), p.flag("filled_after"), p.text("detail")};
    p.written({"samples", "zero_samples", "unwritten"});
  }
}

CpuView read_cpu(ObjectReader& c) {
  CpuView cpu;
  cpu.job_cpu_s = c.number("job_cpu_s");
  cpu.host = c.recorded<HostCpuView>("host", [](ObjectReader& h) -> std::optional<HostCpuView> {
    h.written({"iowait_pct", "steal_pct", "user_s"});
    if (h.empty()) return std::nullopt;  // {}: nothing sampled
    return HostCpuView{h.number("window_s"),    h.number("busy_pct"), h.number("user_pct"), h.number("system_pct"), h.number("irq_pct"),
                       h.number("softirq_pct"), h.number("system_s"), h.number("irq_s"),    h.number("softirq_s")};
  });
  c.written({"note", "host_busy_pct"});
  return cpu;
}

WatchdogView read_watchdog(ObjectReader& w) {
  WatchdogView wd;
  wd.stall_count = w.number("stall_count");
  wd.io_timeout_s = w.number("io_timeout_s");
  wd.abandoned = w.flag("abandoned");
  wd.stalls = w.list<StallView>("stalls", [](ObjectReader& s) {
    s.open();  // the stall's offset and size (runner/run/watchdog)
    return StallView{s.text("direction"), s.text("test"), s.number("lba"), s.number("out_s"), s.number("submit_s"), s.flag("completed")};
  });
  w.open();
  return wd;
}

KernelLogView read_kernel_log(ObjectReader& k) {
  KernelLogView log;
  log.note = k.text("note");
  log.lines = k.list<KernelLineView>("lines", [](ObjectReader& l) {
    l.open();
    return KernelLineView{l.number("kernel_s"), l.text("kind"), l.text("text")};
  });
  log.dropped = k.number("dropped");
  k.open();
  return log;
}

DeviceView device(ObjectReader& r, const Context& cx) {
  DeviceView d;
  read_identity(r, cx, d);
  {
    ObjectReader h = r.object("health");
    d.health = read_health(h);
  }
  {
    ObjectReader st = r.object("self_test");
    d.self_test = read_self_test(st);
  }
  read_preparation(r, d);
  d.verify = r.recorded<VerifyView>("verify", read_verify);
  d.progress = r.texts("progress");
  {
    ObjectReader c = r.object("cpu");
    d.cpu = read_cpu(c);
  }
  d.health_series = r.list<HealthSampleView>("health_series", [](ObjectReader& s) {
    s.written({"utc", "critical_warning", "media_errors"});
    return HealthSampleView{s.number("t_s"), s.number("temperature_c"), s.number("thermal_transitions")};
  });
  d.slowdowns = r.list<SlowdownView>("slowdowns", [](ObjectReader& e) {
    e.written({"median_iops", "min_iops", "recovered", "max_temp_c", "thermal_transitions"});
    return SlowdownView{e.text("test"),        e.text("cause"),           e.text("evidence"),          e.number("start_s"),
                        e.number("end_s"),     e.number("duration_s"),    e.number("max_drop_pct")};
  });
  {
    ObjectReader w = r.object("watchdog");
    d.watchdog = read_watchdog(w);
  }
  {
    ObjectReader k = r.object("kernel_log");
    d.kernel_log = read_kernel_log(k);
  }
  d.verdict = r.text("verdict", kRequired);
  d.reasons = r.texts("reasons");
  d.outliers = r.list<OutlierView>("outliers", [](ObjectReader& o) {
    return OutlierView{o.text("test"), o.text("metric"), o.number("value"), o.number("median"), o.number("group_size"), o.number("worse_pct")};
  });
  d.tests = r.list<TestView>("tests", test, kRequired);
  r.written({"name", "wwn", "logical_block_size", "backing_file", "rate_cap_iops", "started", "finished", "completed", "io_errors", "first_io_errors"});
  return d;
}

void decode_top(const json::value& doc, const Context& cx, ReportView& v) {
  ObjectReader r(&doc, "", v.problems);
  if (!r.present()) return;
  if (!v.schema) v.problems.push_back({ReportProblem::Kind::missing, "schema", "no \"diskvet-report/N\": read as the oldest schema"});
  r.written({"schema", "sha256", "profile"});
  if (cx.schema < kProfileSourceSince) v.not_recorded.emplace_back("profile.source");
  v.schema_note = schema_note(doc);
  {
    ObjectReader tool = r.object("tool");
    v.tool_version = tool.text("version");
    tool.written({"name"});
  }
  {
    ObjectReader h = r.object("host");
    v.host = HostView{h.text("kernel"), h.text("cpu"), h.number("cores"), h.size("memory_bytes")};
  }
  v.started = r.text("started");
  v.finished = r.text("finished");
  {
    ObjectReader s = r.object("suite");
    v.suite = SuiteView{s.text("name"), s.text("file"), s.text("description")};
  }
  v.measurement_only = r.flag("measurement_only");
  v.randseed = r.whole("randseed");
  v.verdict = r.text("verdict", kRequired);
  v.exit_code = r.number("exit_code", kRequired);
  v.complete = r.flag("complete", kRequired);
  v.aborted = r.text("aborted");
  v.notes = r.texts("notes");
  v.devices = r.list<DeviceView>("devices", [&](ObjectReader& d) { return device(d, cx); }, kRequired);
}

}  // namespace

std::vector<std::pair<double, double>> percentile_points(const json::value& lat) {
  std::vector<std::pair<double, double>> out;
  const json::object* o = lat.if_object();
  const json::value* p = o ? o->if_contains("percentile") : nullptr;
  if (const json::object* pct = p ? p->if_object() : nullptr)
    for (const auto& kv : *pct) {
      const std::string key(kv.key());
      char* end = nullptr;
      const double q = std::strtod(key.c_str(), &end);
      if (end != key.c_str() && q > 0 && q < 100 && kv.value().is_number()) out.emplace_back(q, kv.value().to_number<double>());
    }
  std::sort(out.begin(), out.end());
  return out;
}

ReportView decode_report(const json::value& doc) {
  ReportView v;
  const json::object* o = doc.if_object();
  v.schema = o ? report_schema_version(*o) : std::nullopt;
  if (o && is_multi_host_report(*o)) {
    ObjectReader r(&doc, "", v.problems);
    report_reader::read_multi_host(r, v, v.problems);
    return v;
  }
  Context cx{v.schema.value_or(kOldestReportSchemaVersion), v.problems};
  decode_top(doc, cx, v);  // its readers list unknown keys as they close: before v is returned
  return v;
}

DeviceView decode_device(const json::value& dev, std::vector<ReportProblem>* problems) {
  std::vector<ReportProblem> own;
  std::vector<ReportProblem>& out = problems ? *problems : own;
  Context cx{kReportSchemaVersion, out};
  ObjectReader r(&dev, "device", out);
  return device(r, cx);
}

}  // namespace diskvet::runner

