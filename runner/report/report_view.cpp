// The report decoded into its view (see report_view.hpp): the one place that names the report's keys.
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

HealthReading health_reading(ObjectReader& r) {
  HealthReading h;
  h.known = r.flag("known");
  h.problems = r.texts("problems");
  h.temperature_c = r.number("temperature_c");
  h.warning_temp_c = r.number("warning_temp_c");
  h.percentage_used = r.number("percentage_used");
  h.available_spare_pct = r.number("available_spare_pct");
  h.media_errors = r.number("media_errors");
  h.reallocated_sectors = r.number("reallocated_sectors");
  h.error_log_entries = r.number("error_log_entries");
  h.data_units_written = r.number("data_units_written");
  h.thermal_transitions = r.number("thermal_transitions");
  h.pending_sectors = r.number("pending_sectors");
  h.critical_warning = r.number("critical_warning");
  r.open();  // every counter a drive reports (devices/health.hpp): more than the pages print
  return h;
}

ErrorLogView error_log(ObjectReader& r) {
  ErrorLogView e;
  e.problems = r.texts("problems");
  e.notes = r.texts("notes");
  e.inconclusive = r.texts("inconclusive");
  e.new_entries = r.number("new_entries");
  for (bool fails : r.list<bool>("entries", [](ObjectReader& x) {
         x.open();  // the entry as the drive logged it, decoded
         return x.flag("fails");
       }))
    e.failing_entries += fails;
  r.open();  // the log's counts (devices/nvme_error_log)
  return e;
}

SmartCountersView smart_counters(ObjectReader& r) {
  SmartCountersView s;
  s.findings = r.list<SmartCounterFinding>("findings", [](ObjectReader& f) {
    f.open();
    return SmartCounterFinding{f.flag("fails"), f.text("words")};
  });
  s.compared = r.size("compared");
  s.problems = r.texts("problems");
  s.inconclusive = r.texts("inconclusive");
  r.open();  // the counters read before and after (devices/smart_counters)
  return s;
}

SataSasLogsView sata_sas_logs(ObjectReader& r) {
  SataSasLogsView s;
  s.problems = r.texts("problems");
  s.notes = r.texts("notes");
  s.inconclusive = r.texts("inconclusive");
  s.findings = r.list<bool>("findings", [](ObjectReader& f) {
    f.open();  // the entry as smartctl gave it
    return f.flag("fails");
  });
  s.new_errors = r.number("new_errors");
  s.unseen = r.size("unseen");
  s.error_log = r.text("error_log");
  s.self_test_log = r.text("self_test_log");
  s.errors_after = r.size("errors_after");
  s.new_self_tests = r.number("new_self_tests");
  s.scsi_counters = r.flag("scsi_counters");
  r.open();  // the logs' entries as smartctl gave them (devices/smart_logs)
  return s;
}

// The object at key decoded, or nothing when it is absent or null (decode may say nothing too).
template <typename T, typename F>
std::optional<T> optional_object(ObjectReader& parent, std::string_view key, F&& decode, Need need = Need::optional) {
  ObjectReader r = parent.object(key, need);
  if (!r.present()) return std::nullopt;
  return std::optional<T>(decode(r));
}

HealthView health(ObjectReader& r) {
  HealthView h;
  h.before = optional_object<HealthReading>(r, "before", health_reading);
  h.after = optional_object<HealthReading>(r, "after", health_reading);
  {
    ObjectReader delta = r.object("delta");
    h.delta_problems = delta.texts("problems");
    delta.open();  // the counters' changes (devices/health.hpp)
  }
  h.write_accounting = optional_object<WriteAccountingView>(r, "write_accounting", [](ObjectReader& w) {
    w.open();  // the counts compared (devices/write_accounting)
    return WriteAccountingView{w.text("words"), w.text("other_writer"), w.flag("fails"), w.text("result")};
  });
  h.error_log = optional_object<ErrorLogView>(r, "error_log", error_log);
  h.smart_counters = optional_object<SmartCountersView>(r, "smart_counters", smart_counters);
  h.sata_sas_logs = optional_object<SataSasLogsView>(r, "sata_sas_logs", sata_sas_logs);
  h.write_amplification = optional_object<WriteAmplificationView>(r, "write_amplification", [](ObjectReader& w) {
    w.open();  // the OCP log's counters (devices/write_amplification)
    return WriteAmplificationView{w.text("words"), w.number("factor"), w.flag("available")};
  });
  h.across_self_test = optional_object<AcrossSelfTestView>(r, "across_self_test", [](ObjectReader& a) {
    AcrossSelfTestView x;
    x.error_log = optional_object<ErrorLogView>(a, "error_log", error_log);
    x.smart_counters = optional_object<SmartCountersView>(a, "smart_counters", smart_counters);
    x.sata_sas_logs = optional_object<SataSasLogsView>(a, "sata_sas_logs", sata_sas_logs);
    return x;
  });
  return h;
}

SelfTestView self_test(ObjectReader& r) {
  auto outcome = [](ObjectReader& o) {
    o.open();  // the drive's own figures (devices/self_test)
    return SelfTestOutcomeView{o.text("result"), o.text("type"), o.text("words")};
  };
  return {optional_object<SelfTestOutcomeView>(r, "before", outcome), optional_object<SelfTestOutcomeView>(r, "after", outcome)};
}

DirectionView direction(ObjectReader& r) {
  DirectionView d;
  d.total_ios = r.number("total_ios");
  d.iops = r.number("iops");
  d.bw_bytes = r.number("bw_bytes");
  ObjectReader lat = r.object("lat_ns");
  d.lat_mean_ns = lat.number("mean");
  if (const json::object* pct = lat.map("percentile")) {
    d.percentiles_ns = percentile_points(*lat.raw());
    auto exact = [&](const char* key) -> std::optional<double> {
      const json::value* v = pct->if_contains(key);
      return v && v->is_number() ? std::optional<double>(v->to_number<double>()) : std::nullopt;
    };
    d.lat_p50_ns = exact("50.000000");
    d.lat_p99_ns = exact("99.000000");
    d.lat_p9999_ns = exact("99.990000");
  }
  lat.open();  // fio's lat_ns: min, max, stddev, N, bins
  r.open();    // fio's job direction: io_bytes, runtime, slat_ns, clat_ns, ...
  return d;
}

ResultView result(ObjectReader& r) {
  ResultView res;
  {
    ObjectReader rd = r.object("read");
    res.read = direction(rd);
  }
  {
    ObjectReader wr = r.object("write");
    res.write = direction(wr);
  }
  res.intervals = r.list<IntervalView>("intervals", [](ObjectReader& iv) {
    IntervalView x;
    x.t_s = iv.number("t_s");
    x.dur_s = iv.number("dur_s");
    for (const char* dir : {"read", "write"}) {
      ObjectReader d = iv.object(dir);
      IntervalDirectionView& out = std::string_view(dir) == "read" ? x.read : x.write;
      out.iops = d.number("iops");
      out.bw_bytes = d.number("bw_bytes");
      out.lat_mean_ns = d.number("lat_mean_ns");
      out.lat_p99_ns = d.number("lat_p99_ns");
      d.open();  // bytes, ios and the other figures of the interval
    }
    iv.open();
    return x;
  });
  r.open();  // the whole of fio's job object (measurement_json.hpp)
  return res;
}

MeasurementWindowView measurement_window(ObjectReader& r) {
  MeasurementWindowView w;
  w.first_round = r.number("first_round");
  w.last_round = r.number("last_round");
  w.rounds = r.number("rounds");
  w.average = r.number("average");
  w.range_pct = r.number("range_pct");
  w.slope_pct = r.number("slope_pct");
  r.written({"steady", "note"});
  return w;
}

SteadyStateView steady_state(ObjectReader& r) {
  SteadyStateView s;
  s.attained = r.flag("attained");
  s.rounds_used = r.number("rounds_used");
  s.workload = r.text("workload");
  {
    ObjectReader c = r.object("criteria");
    s.max_excursion_pct = c.number("max_excursion_pct");
    s.max_slope_pct = c.number("max_slope_pct");
    c.written({"window_rounds", "max_rounds"});
  }
  s.rounds = r.list<RoundView>("rounds", [](ObjectReader& x) {
    x.written({"tracked", "randseed"});
    return RoundView{x.number("iops"), x.number("lat_mean_us")};
  });
  s.window = optional_object<SteadyWindowView>(r, "window", [](ObjectReader& w) {
    w.written({"mean", "min", "max", "excursion_pct", "slope_per_round", "slope_change_pct", "steady"});
    return SteadyWindowView{w.number("first_round"), w.number("rounds")};
  });
  s.measurement_window = optional_object<MeasurementWindowView>(r, "measurement_window", measurement_window);
  r.written({"required"});
  return s;
}

WorkloadView workload(ObjectReader& r) {
  WorkloadView w;
  w.rw = r.text("rw", kRequired);
  w.bs = r.size("bs", kRequired);
  w.iodepth = r.number("iodepth", kRequired);
  w.numjobs = r.number("numjobs", kRequired);
  w.rwmixread = r.number("rwmixread");
  w.runtime_s = r.number("runtime_s");
  w.ramp_s = r.number("ramp_s");
  w.engine = r.text("engine");
  w.hipri = r.flag("hipri");
  w.fio = r.text("fio");
  w.write_data = r.text("write_data");
  w.ran = r.flag("ran", kRequired);
  w.error = r.text("error");
  w.skipped = r.text("skipped");
  w.result = optional_object<ResultView>(r, "result", result);
  w.steady_state = optional_object<SteadyStateView>(r, "steady_state", steady_state);
  w.sweep = optional_object<SweepView>(r, "sweep", [](ObjectReader& s) {
    SweepView v;
    v.points = s.list<SweepPointView>("points", [](ObjectReader& p) {
      p.written({"iodepth", "numjobs", "gain_pct"});
      return SweepPointView{p.number("iops"), p.number("outstanding"), p.number("lat_mean_us"), p.number("lat_p99_us")};
    });
    // The knee is an index into the points: a whole number below their count, else none.
    if (const auto k = s.number("knee")) {
      if (*k >= 0 && *k < static_cast<double>(v.points.size()) && *k == static_cast<double>(static_cast<size_t>(*k))) v.knee = static_cast<size_t>(*k);
      else s.problem(ReportProblem::Kind::out_of_range, "knee", fmt::format("{} is no index into {} points", *k, v.points.size()));
    }
    return v;
  });
  w.burst = optional_object<BurstView>(r, "burst", [](ObjectReader& b) {
    b.open();  // the step's figures (ramp_json.cpp)
    return BurstView{b.flag("found"), b.text("summary"), b.number("step_s"), b.number("before_iops"), b.number("after_iops")};
  });
  w.warmup = optional_object<WarmupView>(r, "warmup", [](ObjectReader& x) {
    x.written({"settled"});
    return WarmupView{x.number("elapsed_s"), x.numbers_in_place("iops")};
  });
  {
    ObjectReader ramp = r.object("ramp");
    w.ramp = ramp.list<RampIntervalView>("intervals", [](ObjectReader& iv) {
      RampIntervalView x{iv.number("t_s"), iv.number("dur_s"), std::nullopt, std::nullopt};
      {
        ObjectReader rd = iv.object("read");
        x.read_iops = rd.number("iops");
        rd.open();
      }
      {
        ObjectReader wr = iv.object("write");
        x.write_iops = wr.number("iops");
        wr.open();
      }
      iv.open();
      return x;
    });
    ramp.written({"bucket_s"});
  }
  w.littles_law = optional_object<LittlesLawView>(r, "littles_law", [](ObjectReader& l) {
    l.written({"configured_outstanding", "measured_outstanding", "sampled_inflight", "littles_outstanding", "polling", "job_cpu_busy_pct", "applies",
               "queue_kept_full"});
    return LittlesLawView{l.flag("runner_bound"), l.text("note")};
  });
  r.written({"offset_bytes", "size_bytes", "rate_iops", "fio_notes", "verify"});
  return w;
}

MatrixView matrix(ObjectReader& r) {
  MatrixView m;
  m.rwmixread = r.numbers("rwmixread");
  m.bs = r.numbers("bs");
  m.cells = r.list<MatrixCellView>("cells", [](ObjectReader& c) {
    c.written({"ran", "rounds", "error"});
    return MatrixCellView{c.number("rwmixread"), c.number("iops"), c.size("bs"), c.text("skipped")};
  });
  m.rounds_run = r.number("rounds_run");
  ObjectReader ss = r.object("steady_state");
  m.attained = ss.flag("attained");
  m.measurement_window = optional_object<MeasurementWindowView>(ss, "measurement_window", measurement_window);
  ss.written({"required", "criteria", "tracked_iops"});
  r.written({"tracked", "round_s", "note"});
  return m;
}

VerdictView verdict(ObjectReader& r) {
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

TestView test(ObjectReader& r) {
  TestView t;
  t.id = r.text("id", kRequired);
  t.description = r.text("description");
  t.matrix = optional_object<MatrixView>(r, "matrix", matrix);
  t.workloads = r.list<WorkloadView>("workloads", workload, kRequired);
  t.block_path = r.list<WorkloadView>("block_path", workload);
  t.verdicts = r.list<VerdictView>("verdicts", verdict);
  t.verdict = r.text("verdict");
  t.reasons = r.texts("reasons");
  return t;
}

VerifyView verify(ObjectReader& r) {
  VerifyView v;
  v.blocks_written = r.number("blocks_written");
  v.blocks_verified = r.number("blocks_verified");
  v.bad_blocks = r.number("bad_blocks");
  v.mismatches = r.number("mismatches");
  v.crc32c = r.text("crc32c");
  v.bad_blocks_exact = r.has("bad_blocks_exact") ? std::optional<bool>(r.flag("bad_blocks_exact")) : std::nullopt;
  v.state = optional_object<VerifyStateView>(r, "state", [](ObjectReader& s) {
    s.written({"mode", "bs_bytes", "blocks", "region_blocks", "region_bytes"});
    return VerifyStateView{s.size("memory_bytes"), s.size("budget_bytes"), s.text("guarantee")};
  });
  v.first_mismatches = r.list<MismatchView>("first_mismatches", [](ObjectReader& m) {
    m.written({"offset_bytes", "expected", "found", "crc_ok", "first_bad_byte", "last_bad_byte", "bad_bytes"});
    return MismatchView{m.number("lba"), m.number("t_s"), m.text("kind"), m.text("detail")};
  });
  ObjectReader lo = r.object("latency_outliers");
  v.latency_outliers_count = lo.number("count");
  v.latency_outliers_limit_ms = lo.number("limit_ms");
  v.latency_outliers = lo.list<LatencyOutlierView>("first", [](ObjectReader& x) {
    return LatencyOutlierView{x.text("dir"), x.number("lba"), x.number("lat_ms"), x.number("t_s")};
  });
  r.written({"enabled", "blocks_unchecked"});
  return v;
}

DeviceView device(ObjectReader& r, const Context& cx) {
  DeviceView d;
  d.path = r.text("path", kRequired);
  d.kind = r.text("kind");
  d.model = r.text("model");
  d.serial = r.text("serial");
  d.firmware = r.text("firmware");
  d.size_bytes = r.size("size_bytes");
  d.tested_bytes = r.size("tested_bytes");
  {
    ObjectReader id = r.object("identity");
    d.file_system = optional_object<FileSystemView>(id, "file_system", [](ObjectReader& f) {
      FileSystemView fs;
      fs.fstype = f.text("fstype");
      fs.source = f.text("source");
      fs.mountpoint = f.text("mountpoint");
      fs.mount_options = f.text("mount_options");
      fs.direct_io = f.flag("direct_io");
      fs.nfs = optional_object<NfsView>(f, "nfs", [](ObjectReader& n) {
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
  {
    ObjectReader h = r.object("health");
    d.health = health(h);
  }
  {
    ObjectReader st = r.object("self_test");
    d.self_test = self_test(st);
  }
  {
    ObjectReader p = r.object("purge");
    d.purge = PurgeView{p.flag("requested"), p.flag("failed"), p.text("method"), p.text("detail"), p.number("duration_s")};
  }
  d.capacity_probe = optional_object<CapacityProbeView>(r, "capacity_probe", [](ObjectReader& c) {
    c.open();  // the probe's counts, faults and evidence (runner/verify/address_probe)
    return CapacityProbeView{c.flag("performed"), c.text("verdict"), c.text("summary"), c.size("claimed_bytes"), c.size("real_bytes")};
  });
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
  d.verify = optional_object<VerifyView>(r, "verify", verify);
  d.progress = r.texts("progress");
  {
    ObjectReader c = r.object("cpu");
    d.cpu.job_cpu_s = c.number("job_cpu_s");
    d.cpu.host = optional_object<HostCpuView>(c, "host", [](ObjectReader& h) -> std::optional<HostCpuView> {
      h.written({"iowait_pct", "steal_pct", "user_s"});
      if (h.empty()) return std::nullopt;  // {}: nothing sampled
      return HostCpuView{h.number("window_s"),   h.number("busy_pct"), h.number("user_pct"), h.number("system_pct"), h.number("irq_pct"),
                         h.number("softirq_pct"), h.number("system_s"), h.number("irq_s"),    h.number("softirq_s")};
    });
    c.written({"note", "host_busy_pct"});
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
    d.watchdog.stall_count = w.number("stall_count");
    d.watchdog.io_timeout_s = w.number("io_timeout_s");
    d.watchdog.abandoned = w.flag("abandoned");
    d.watchdog.stalls = w.list<StallView>("stalls", [](ObjectReader& s) {
      s.open();  // the stall's offset and size (runner/run/watchdog)
      return StallView{s.text("direction"), s.text("test"), s.number("lba"), s.number("out_s"), s.number("submit_s"), s.flag("completed")};
    });
    w.open();
  }
  {
    ObjectReader k = r.object("kernel_log");
    d.kernel_log.note = k.text("note");
    d.kernel_log.lines = k.list<KernelLineView>("lines", [](ObjectReader& l) {
      l.open();
      return KernelLineView{l.number("kernel_s"), l.text("kind"), l.text("text")};
    });
    d.kernel_log.dropped = k.number("dropped");
    k.open();
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
