// A multi-host report decoded into its view (see report_view.hpp): the hosts, what their gates held
// and refused, and each test's workloads as fio's results per host and merged. fio's own objects are
// read open (fio's vocabulary); every object diskvet writes itself is read whole, so a key it does
// not know is listed.
#include <cmath>

#include "runner/report/report_reader.hpp"
#include "runner/report/report_schema.hpp"
#include "runner/report/report_view.hpp"

namespace diskvet::runner {

namespace json = boost::json;

std::optional<double> FioDirectionView::percentile_ns(double q) const {
  for (const auto& [at, ns] : percentiles_ns)
    if (at == q) return ns;
  return std::nullopt;
}

const FioDirectionView* FioResultView::direction(std::string_view name) const {
  const std::optional<FioDirectionView>* d = name == "read" ? &read : name == "write" ? &write : name == "total" ? &total : nullptr;
  return d && *d ? &**d : nullptr;
}

const FioResultView* HostsWorkloadView::merged_of(std::string_view host) const {
  for (const auto& [name, r] : host_merged)
    if (name == host) return &r;
  return nullptr;
}

namespace report_reader {

namespace {

constexpr Need kRequired = Need::required;

// The entries of an object whose keys are names (hosts), each read by `decode`, in the report's order.
template <typename T, typename F>
std::vector<std::pair<std::string, T>> named(ObjectReader& r, std::string_view key, std::vector<ReportProblem>& problems, F&& decode) {
  std::vector<std::pair<std::string, T>> out;
  const json::object* o = r.map(key);
  if (!o) return out;
  for (const auto& kv : *o) {
    const std::string at = (r.path().empty() ? std::string(key) : r.path() + "." + std::string(key)) + "." + std::string(kv.key());
    ObjectReader entry(&kv.value(), at, problems);
    out.emplace_back(std::string(kv.key()), decode(entry));
  }
  return out;
}

FioDirectionView fio_direction(ObjectReader& d) {
  d.open();
  FioDirectionView v;
  v.iops = d.number("iops");
  v.bw_bytes = d.number("bw_bytes");
  v.total_ios = d.number("total_ios");
  ObjectReader lat = d.object("lat_ns");
  lat.open();
  v.lat_mean_ns = lat.number("mean");
  v.lat_count = lat.number("N");
  if (lat.present() && lat.map("percentile")) v.percentiles_ns = percentile_points(*lat.raw());
  return v;
}

FioResultView fio_result(ObjectReader& r) {
  r.open();  // a host's is fio's job object; a merged one adds diskvet's keys to fio's
  FioResultView v;
  v.read = r.recorded<FioDirectionView>("read", fio_direction);
  v.write = r.recorded<FioDirectionView>("write", fio_direction);
  v.total = r.recorded<FioDirectionView>("total", fio_direction);
  v.intervals = r.list<FioIntervalView>("intervals", [](ObjectReader& i) {
    return FioIntervalView{i.number("t_ms"), i.number("read_iops"), i.number("write_iops")};
  });
  v.start_spread_ms = r.number("start_spread_ms");
  return v;
}

// The three shapes diskvet writes: a workload's rounds (rounds listed), a matrix's (its tracked
// cell's IOPS listed) and a matrix cell's (rounds counted).
HostsSteadyStateView hosts_steady_state(ObjectReader& r) {
  HostsSteadyStateView v;
  v.attained = r.flag("attained");
  v.required = r.flag("required");
  const json::object* o = r.raw() ? r.raw()->if_object() : nullptr;
  const json::value* rounds = o ? o->if_contains("rounds") : nullptr;
  if (rounds && rounds->is_array()) {
    v.rounds = r.list<int>("rounds", [](ObjectReader& round) {
                  round.written({"iops", "lat_mean_us", "tracked"});
                  return 0;
                }).size();
  } else {
    v.rounds = r.size("rounds");
  }
  {
    ObjectReader c = r.object("criteria");
    v.max_rounds = c.number("max_rounds");
    c.written({"window_rounds", "max_excursion_pct", "max_slope_pct"});
  }
  v.tracks = r.text("tracks");
  v.workload = r.text("workload");
  v.decided_by = r.text("decided_by");
  r.written({"rounds_used", "window", "result", "measurement_window", "note", "tracked_iops"});
  return v;
}

HostsWorkloadView hosts_workload(ObjectReader& r, std::vector<ReportProblem>& problems) {
  HostsWorkloadView v;
  v.rw = r.text("rw", kRequired);
  v.bs_bytes = r.size("bs_bytes");
  v.iodepth = r.number("iodepth");
  v.numjobs = r.number("numjobs");
  v.not_judged = r.text("not_judged");
  v.error = r.text("error");
  v.merged = r.recorded<FioResultView>("merged", fio_result);
  v.hosts = named<FioResultView>(r, "hosts", problems, fio_result);
  v.host_merged = named<FioResultView>(r, "host_merged", problems, fio_result);
  v.steady_state = r.recorded<HostsSteadyStateView>("steady_state", hosts_steady_state);
  v.sweep = r.list<HostsWorkloadView>("sweep", [&](ObjectReader& step) { return hosts_workload(step, problems); });
  r.written({"runtime_s", "ramp_s", "engine", "rwmixread", "hosts_sat_out", "interrupted", "fio_exit_code", "fio_messages", "warmup"});
  return v;
}

HostsMatrixView hosts_matrix(ObjectReader& r) {
  HostsMatrixView v;
  v.rounds_run = r.number("rounds_run");
  {
    ObjectReader t = r.object("tracked");
    v.tracked = t.present();
    v.tracked_rwmixread = t.number("rwmixread");
    v.tracked_bs = t.size("bs");
  }
  v.steady_state = r.recorded<HostsSteadyStateView>("steady_state", hosts_steady_state);
  r.written({"rwmixread", "bs", "round_s", "cells", "note"});
  return v;
}

HostsTestView hosts_test(ObjectReader& r, std::vector<ReportProblem>& problems) {
  HostsTestView v;
  v.id = r.text("id", kRequired);
  v.status = r.text("status");
  v.matrix = r.recorded<HostsMatrixView>("matrix", hosts_matrix);
  v.workloads = r.list<HostsWorkloadView>("workloads", [&](ObjectReader& w) { return hosts_workload(w, problems); }, kRequired);
  v.verdicts = r.list<VerdictView>("verdicts", read_verdict);
  for (auto& [host, status] : named<std::string>(r, "host_verdicts", problems, [](ObjectReader& h) {
         h.written({"verdicts", "reasons"});
         return h.text("status");
       }))
    v.host_verdicts.emplace_back(std::move(host), std::move(status));
  r.written({"reasons"});
  return v;
}

HostStateView host_state(ObjectReader& r) {
  HostStateView v;
  v.name = r.text("name", kRequired);
  v.state = r.text("state", kRequired);
  v.fio_version = r.text("fio_version");
  v.reason = r.text("reason");
  v.when = r.text("when");
  v.devices = r.list<HostsDeviceView>("devices", [](ObjectReader& d) {
    HostsDeviceView dv;
    dv.path = d.text("path", kRequired);
    dv.refused = d.has("refusal");
    dv.refusal = d.text("refusal");
    dv.held = d.flag("held");
    d.written({"id", "write_asked", "size_bytes"});
    return dv;
  });
  r.written({"ssh", "diskvet"});
  return v;
}

}  // namespace

void read_multi_host(ObjectReader& r, ReportView& v, std::vector<ReportProblem>& problems) {
  MultiHostView m;
  r.written({"schema", "kind", "sha256", "controller_fio_version", "precondition", "probe", "interrupted", "left_running"});
  v.tool_version = r.text("diskvet_version");
  v.suite.name = r.text("suite", kRequired);
  m.profile = r.text("profile");
  v.started = r.text("started");
  v.finished = r.text("finished");
  m.status = r.text("status", kRequired);
  v.complete = m.status == "COMPLETE";
  v.verdict = r.text("verdict", kRequired);
  v.exit_code = r.number("exit_code", kRequired);
  m.error = r.text("error");
  m.not_judged = r.text("not_judged");
  m.phases_not_run = r.list<PhaseNotRunView>("phases_not_run", read_phase_not_run);
  m.hosts = r.list<HostStateView>("hosts", host_state, kRequired);
  m.tests = r.list<HostsTestView>("tests", [&](ObjectReader& t) { return hosts_test(t, problems); }, kRequired);
  v.multi_host = std::move(m);
}

}  // namespace report_reader

const MultiHostView& multi_host_of(const ReportView& report) {
  static const MultiHostView kNone;
  return report.multi_host ? *report.multi_host : kNone;
}

}  // namespace diskvet::runner
