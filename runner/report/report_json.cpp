// RunResult -> report JSON.
#include "runner/report/report_json.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <fmt/format.h>

#include <fstream>
#include <thread>

#include "devices/device_json.hpp"
#include "devices/health.hpp"
#include "diskvet/version.hpp"
#include "runner/report/measurement_json.hpp"
#include "runner/report/ramp_json.hpp"
#include "runner/run/io_error_report.hpp"
#include "runner/verify/address_probe.hpp"
#include "runner/verify/verify_report.hpp"

namespace diskvet::runner {

namespace json = boost::json;

HostInfo probe_host() {
  HostInfo h;
  utsname u{};
  if (uname(&u) == 0) h.kernel = fmt::format("{} {} {}", u.sysname, u.release, u.machine);
  std::ifstream cpu("/proc/cpuinfo");
  for (std::string line; std::getline(cpu, line);)
    if (line.starts_with("model name")) {
      auto colon = line.find(':');
      if (colon != std::string::npos) h.cpu = line.substr(line.find_first_not_of(" \t", colon + 1));
      break;
    }
  h.cores = std::thread::hardware_concurrency();
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) h.memory_bytes = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
  return h;
}

namespace {

json::value health_json(const std::optional<devices::Health>& h) {
  return h ? json::value_from(*h) : json::value(nullptr);
}

json::value delta_json(const std::optional<devices::Health>& a, const std::optional<devices::Health>& b) {
  if (!a || !b) return nullptr;
  return json::value_from(devices::health_delta(*a, *b));
}

json::array strings(const std::vector<std::string>& v) {
  json::array a;
  for (const auto& s : v) a.push_back(json::value(s));
  return a;
}

// What the CPU figures cover: the job threads' own time misses the kernel's work done elsewhere.
constexpr const char* kCpuNote =
    "job_cpu_s and every workload's CPU per I/O count only diskvet's job threads (their user and system time); the host's system, irq and "
    "softirq time over the device's tests (all CPUs, whatever ran there) holds the kernel's submission, completion and interrupt work as well";

json::object window_json(const WindowAssessment& w) {
  return {{"first_round", w.first_round}, {"rounds", w.rounds},         {"mean", w.mean},
          {"min", w.min},                 {"max", w.max},               {"excursion_pct", w.excursion_pct},
          {"slope_per_round", w.slope_per_round}, {"slope_change_pct", w.slope_change_pct}, {"steady", w.steady}};
}

// The SNIA PTS measurement window the result holds: rounds numbered from 1, range and slope as
// PTS 2.1 defines them (max - min of the rounds, and of the least-squares line, over the average).
json::object measurement_window_json(const WindowAssessment& w, bool attained) {
  return {{"first_round", w.first_round + 1},
          {"last_round", w.first_round + w.rounds},
          {"rounds", w.rounds},
          {"average", w.mean},
          {"range_pct", w.excursion_pct},
          {"slope_pct", w.slope_change_pct},
          {"steady", attained},
          {"note", attained ? "the result is these rounds averaged (SNIA PTS measurement window)"
                            : "steady state not attained: the result is the last rounds averaged, and no verdict on it can pass"}};
}

json::object matrix_json(const TestRecord& t) {
  const MatrixRecord& m = *t.matrix;
  json::array mixes, sizes, cells, tracked;
  for (auto x : m.rwmixread_pcts) mixes.push_back(x);
  for (auto x : m.bs_bytes) sizes.push_back(x);
  for (double x : m.tracked_iops) tracked.push_back(x);
  for (size_t i = 0; i < t.workloads.size(); ++i) {
    const WorkloadRecord& r = t.workloads[i];
    json::object c{{"rwmixread", r.workload.rwmixread_pct}, {"bs", r.workload.bs_bytes}, {"ran", r.ran},
                   {"iops", r.ran ? json::value(r.result.total_iops()) : json::value(nullptr)},
                   {"rounds", r.rounds.size()}};
    if (!r.skipped.empty()) c["skipped"] = r.skipped;
    if (!r.error.empty()) c["error"] = r.error;
    cells.push_back(std::move(c));
  }
  const WorkloadRecord* tr = m.tracked < t.workloads.size() ? &t.workloads[m.tracked] : nullptr;
  json::object o;
  o["rwmixread"] = std::move(mixes);
  o["bs"] = std::move(sizes);
  o["tracked"] = json::object{{"rwmixread", tr ? tr->workload.rwmixread_pct : 0}, {"bs", tr ? tr->workload.bs_bytes : 0}};
  o["round_s"] = m.round_s;
  o["rounds_run"] = m.rounds_run;
  const SteadyCriteria& c = m.criteria;
  const bool attained = m.steady_state && m.steady_state->attained;
  o["steady_state"] = json::object{
      {"required", m.steady_required},
      {"criteria", json::object{{"window_rounds", c.window_rounds}, {"max_rounds", c.max_rounds}, {"max_excursion_pct", c.max_excursion_pct},
                                {"max_slope_pct", c.max_slope_pct}}},
      {"attained", attained},
      {"tracked_iops", std::move(tracked)},
      {"measurement_window", m.steady_state && m.steady_state->window ? json::value(measurement_window_json(*m.steady_state->window, attained))
                                                                      : json::value(nullptr)}};
  o["cells"] = std::move(cells);
  o["note"] = "IOPS of each cell averaged over the measurement window's rounds (SNIA PTS-E IOPS test); cells in rw mix-major order";
  return o;
}

json::object workload_json(const WorkloadRecord& r) {
  const Workload& w = r.workload;
  json::object o;
  o["rw"] = to_string(w.rw);
  o["bs"] = w.bs_bytes;
  o["iodepth"] = w.iodepth;
  o["numjobs"] = w.numjobs;
  if (reads(w.rw) && writes(w.rw)) o["rwmixread"] = w.rwmixread_pct;
  o["runtime_s"] = w.runtime_s;
  o["ramp_s"] = w.ramp_s;
  o["offset_bytes"] = w.offset_bytes;
  o["size_bytes"] = w.size_bytes;
  if (w.rate_capped()) o["rate_iops"] = format_rate_iops(w.rate_iops);
  if (writes(w.rw)) o["write_data"] = w.verify ? "verification blocks, unique per block and generation" : describe(w.data);
  o["engine"] = to_string(w.engine);
  if (w.hipri) o["hipri"] = true;
  o["fio"] = fio_command_line(w, r.target_path);
  if (std::string notes = fio_command_notes(w); !notes.empty()) o["fio_notes"] = notes;
  o["ran"] = r.ran;
  if (!r.error.empty()) o["error"] = r.error;
  if (!r.skipped.empty()) o["skipped"] = r.skipped;
  o["result"] = r.ran ? json::value(job_json(r.result, "diskvet", r.target_path)) : json::value(nullptr);
  if (r.workload.verify) o["verify"] = verify_json(r.result.verify);
  add_ramp_and_burst(o, r);
  if (r.warmup) {
    json::array iops;
    for (double x : r.warmup->iops) iops.push_back(x);
    o["warmup"] = json::object{{"elapsed_s", r.warmup->elapsed_s}, {"settled", r.warmup->settled}, {"iops", std::move(iops)}};
  }
  if (!r.rounds.empty() || r.steady_required) {
    json::object ss;
    ss["required"] = r.steady_required;
    const SteadyCriteria& c = r.steady_criteria;
    ss["criteria"] = json::object{{"window_rounds", c.window_rounds}, {"max_rounds", c.max_rounds},
                                  {"max_excursion_pct", c.max_excursion_pct}, {"max_slope_pct", c.max_slope_pct}};
    ss["attained"] = r.steady_state && r.steady_state->attained;
    ss["rounds_used"] = r.steady_state ? r.steady_state->rounds_used : r.rounds.size();
    json::array rounds;
    for (const auto& x : r.rounds) rounds.push_back(json::object{{"iops", x.iops}, {"lat_mean_us", x.lat_mean_us}, {"tracked", x.tracked}, {"randseed", x.randseed}});
    ss["rounds"] = std::move(rounds);
    ss["window"] = r.steady_state && r.steady_state->window ? json::value(window_json(*r.steady_state->window)) : json::value(nullptr);
    if (!r.rounds_workload.empty()) ss["workload"] = r.rounds_workload;
    ss["measurement_window"] = r.result_is_window && r.steady_state && r.steady_state->window
                                   ? json::value(measurement_window_json(*r.steady_state->window, r.steady_state->attained))
                                   : json::value(nullptr);
    o["steady_state"] = std::move(ss);
  }
  if (!r.sweep.empty()) {
    json::array pts;
    for (const auto& p : r.sweep)
      pts.push_back(json::object{{"iodepth", p.iodepth}, {"numjobs", p.numjobs}, {"outstanding", p.outstanding}, {"iops", p.iops},
                                 {"lat_mean_us", p.lat_mean_us}, {"lat_p99_us", p.lat_p99_us}, {"gain_pct", p.gain_pct}});
    o["sweep"] = json::object{{"points", std::move(pts)}, {"knee", r.knee ? json::value(*r.knee) : json::value(nullptr)}};
  }
  if (r.ran) {
    const LittleCheck& c = r.little;
    o["littles_law"] = json::object{{"configured_outstanding", c.configured_outstanding}, {"measured_outstanding", c.measured_outstanding},
                                    {"sampled_inflight", c.sampled_inflight ? json::value(*c.sampled_inflight) : json::value(nullptr)},
                                    {"littles_outstanding", c.littles_outstanding}, {"polling", c.polling},
                                    {"job_cpu_busy_pct", c.job_cpu_busy_pct}, {"applies", c.applies}, {"queue_kept_full", c.queue_kept_full},
                                    {"runner_bound", c.runner_bound}, {"note", c.note}};
  }
  return o;
}

// An optional record as its JSON, or null.
template <typename T>
json::value or_null(const std::optional<T>& x) {
  return x ? json::value_from(*x) : json::value(nullptr);
}

json::object fast_path_json(const FastPath& f) {
  return json::object{{"passthrough", f.passthrough},
                      {"node", f.node},
                      {"no_passthrough", f.no_passthrough},
                      {"polled", f.polls},
                      {"no_poll", f.no_poll},
                      {"polled_passthrough", f.polled_passthrough},
                      {"summary", describe(f)}};
}

// The device's health before and after, what changed, and the evidence read around the run (and
// around the self-test after it).
json::object health_section_json(const DeviceResult& d) {
  json::object h{{"before", health_json(d.health_before)},
                 {"after", health_json(d.health_after)},
                 {"delta", delta_json(d.health_before, d.health_after)},
                 {"write_accounting", or_null(d.write_accounting)},
                 {"error_log", or_null(d.error_log)},
                 {"smart_counters", or_null(d.smart_counters)},
                 {"sata_sas_logs", or_null(d.smart_logs)},
                 {"write_amplification", or_null(d.write_amplification)}};
  if (const auto& a = d.across_self_test)
    h["across_self_test"] = json::object{
        {"error_log", or_null(a->error_log)}, {"smart_counters", or_null(a->smart_counters)}, {"sata_sas_logs", or_null(a->smart_logs)}};
  return h;
}

// What preparing the device did: purge, capacity probe, preconditioning, the unwritten-space probe.
void preparation_json(json::object& o, const DeviceResult& d) {
  o["purge"] = json::object{{"requested", d.purge.requested},
                            {"method", d.purge.method},
                            {"detail", d.purge.detail},
                            {"duration_s", d.purge.duration_s},
                            {"failed", d.purge.failed}};
  if (d.capacity_probe) o["capacity_probe"] = address_probe_json(*d.capacity_probe);
  if (!d.phases_not_run.empty()) {
    json::array skipped;
    for (const PhaseNotRun& p : d.phases_not_run) skipped.push_back(json::object{{"phase", p.phase}, {"why", p.why}});
    o["phases_not_run"] = std::move(skipped);
  }
  const PreconditionRecord& p = d.precondition;
  o["precondition"] = json::object{{"performed", p.performed},
                                   {"reason", p.reason},
                                   {"bytes_written", p.bytes_written},
                                   {"capacities_target", p.capacities_target},
                                   {"capacities_written", p.capacities_written},
                                   {"elapsed_s", p.elapsed_s},
                                   {"capped", p.capped},
                                   {"completed", p.completed},
                                   {"fio", p.fio}};
  o["probe"] =
      json::object{{"performed", d.probe.performed}, {"samples", d.probe.samples},           {"zero_samples", d.probe.zero_samples},
                   {"unwritten", d.probe.unwritten}, {"filled_after", d.probe.filled_after}, {"detail", d.probe.detail}};
}

// The job threads' CPU and the host's over the tests (null when the host was not sampled).
json::object cpu_json(const DeviceResult& d) {
  json::object cpu{{"job_cpu_s", d.job_cpu_s}, {"note", kCpuNote}};
  const auto& h = d.host_cpu;
  cpu["host_busy_pct"] = h ? json::value(h->busy_pct) : json::value(nullptr);
  cpu["host"] = h ? json::value(json::object{{"window_s", d.host_cpu_window_s},
                                             {"busy_pct", h->busy_pct},
                                             {"user_pct", h->user_pct},
                                             {"system_pct", h->system_pct},
                                             {"irq_pct", h->irq_pct},
                                             {"softirq_pct", h->softirq_pct},
                                             {"iowait_pct", h->iowait_pct},
                                             {"steal_pct", h->steal_pct},
                                             {"user_s", h->user_s},
                                             {"system_s", h->system_s},
                                             {"irq_s", h->irq_s},
                                             {"softirq_s", h->softirq_s}})
                  : json::value(nullptr);
  return cpu;
}

json::array health_series_json(const std::vector<HealthSample>& series) {
  json::array hs;
  for (const auto& s : series)
    hs.push_back(json::object{{"t_s", s.t_s},
                              {"utc", s.utc},
                              {"temperature_c", or_null(s.health.temperature_c)},
                              {"critical_warning", or_null(s.health.critical_warning)},
                              {"media_errors", or_null(s.health.media_errors)},
                              {"thermal_transitions", or_null(s.health.thermal_transitions)}});
  return hs;
}

json::array slowdowns_json(const std::vector<SlowdownRecord>& slowdowns) {
  json::array slow;
  for (const auto& r : slowdowns) {
    const SlowdownEvent& e = r.event;
    slow.push_back(json::object{{"test", r.test_id},
                                {"start_s", e.start_s},
                                {"end_s", e.end_s},
                                {"duration_s", e.duration_s()},
                                {"median_iops", e.median_iops},
                                {"min_iops", e.min_iops},
                                {"max_drop_pct", e.max_drop_pct},
                                {"recovered", e.recovered},
                                {"cause", e.cause},
                                {"evidence", e.evidence},
                                {"max_temp_c", or_null(e.max_temp_c)},
                                {"thermal_transitions", or_null(e.thermal_transitions)}});
  }
  return slow;
}

json::array outliers_json(const std::vector<Outlier>& outliers) {
  json::array out;
  for (const auto& x : outliers)
    out.push_back(json::object{{"test", x.test_id},
                               {"metric", x.metric},
                               {"value", x.value},
                               {"median", x.median},
                               {"worse_pct", x.worse_pct},
                               {"group_size", x.group_size}});
  return out;
}

json::array tests_json(const std::vector<TestRecord>& tests) {
  json::array out;
  for (const auto& t : tests) {
    json::object to;
    to["id"] = t.id;
    to["description"] = t.description;
    if (t.matrix) to["matrix"] = matrix_json(t);
    json::array ws;
    for (const auto& w : t.workloads) ws.push_back(workload_json(w));
    to["workloads"] = std::move(ws);
    if (!t.block_path.empty()) {
      json::array beside;
      for (const auto& w : t.block_path) beside.push_back(workload_json(w));
      to["block_path"] = std::move(beside);
    }
    to["verdicts"] = json::value_from(t.verdicts);
    to["verdict"] = to_string(t.verdict.status);
    to["reasons"] = strings(t.verdict.reasons);
    out.push_back(std::move(to));
  }
  return out;
}

json::object device_json(const DeviceResult& d) {
  json::object o;
  const devices::Device& v = d.device;
  o["path"] = v.path;
  o["name"] = v.name;
  o["kind"] = devices::to_string(v.kind);
  o["model"] = v.model;
  o["serial"] = v.serial;
  o["wwn"] = v.wwn;
  o["firmware"] = v.firmware;
  o["size_bytes"] = v.size_bytes;
  o["logical_block_size"] = v.logical_block_size;
  if (!v.backing_file.empty()) o["backing_file"] = v.backing_file;
  o["identity"] = json::value_from(v);  // the `diskvet list --json` shape, as discovery saw it
  o["tested_bytes"] = d.tested_bytes;
  if (d.rate_cap_iops) o["rate_cap_iops"] = d.rate_cap_iops;
  o["profile"] = json::object{{"name", d.profile_name.empty() ? json::value(nullptr) : json::value(d.profile_name)},
                              {"file", d.profile_file},
                              {"reason", d.profile_reason},
                              {"source", d.profile_source}};
  if (d.fast_path.asked) o["fast_path"] = fast_path_json(d.fast_path);
  o["started"] = d.started;
  o["finished"] = d.finished;
  o["completed"] = d.completed;
  o["health"] = health_section_json(d);
  o["self_test"] = json::object{{"before", or_null(d.self_test_before)}, {"after", or_null(d.self_test_after)}};
  preparation_json(o, d);
  o["io_errors"] = d.facts.io_errors;
  json::array first_io_errors;
  for (const auto& e : d.first_io_errors) first_io_errors.push_back(io_error_json(e));
  o["first_io_errors"] = std::move(first_io_errors);
  if (d.verify.enabled) o["verify"] = verify_json(d.verify);
  o["progress"] = strings(d.progress);
  o["cpu"] = cpu_json(d);
  if (!d.health_series.empty()) o["health_series"] = health_series_json(d.health_series);
  o["slowdowns"] = slowdowns_json(d.slowdowns);
  o["watchdog"] = watchdog_json(d.watchdog);
  o["kernel_log"] = kernel_log_json(d.kernel_log);
  o["verdict"] = to_string(d.verdict.status);
  o["reasons"] = strings(d.verdict.reasons);
  o["outliers"] = outliers_json(d.outliers);
  o["tests"] = tests_json(d.tests);
  return o;
}

}  // namespace

json::object report_json(const RunResult& r, const HostInfo& host) {
  json::object o;
  o["schema"] = kReportSchema;
  o["tool"] = json::object{{"name", "diskvet"}, {"version", kVersion}};
  o["host"] = json::object{{"kernel", host.kernel}, {"cpu", host.cpu}, {"cores", host.cores}, {"memory_bytes", host.memory_bytes}};
  o["started"] = r.started;
  o["finished"] = r.finished;
  o["suite"] = json::object{{"name", r.suite_name}, {"file", r.suite_file}, {"description", r.suite_description}};
  // The profile when every device used the same one; per device otherwise.
  json::value profile = nullptr;
  if (!r.devices.empty()) {
    bool same = true;
    for (const auto& d : r.devices) same = same && d.profile_name == r.devices.front().profile_name;
    if (same && !r.devices.front().profile_name.empty()) profile = json::value(r.devices.front().profile_name);
    else if (!same) profile = "per device";
  }
  o["profile"] = r.measurement_only ? json::value("none") : profile;
  o["measurement_only"] = r.measurement_only;
  o["randseed"] = r.randseed;  // --randseed with it repeats the run's offsets and write data
  o["verdict"] = to_string(r.verdict);
  o["exit_code"] = r.exit_code();
  o["complete"] = !r.aborted;
  o["aborted"] = r.aborted ? json::value(r.abort_reason) : json::value(nullptr);
  o["notes"] = strings(r.notes);
  json::array devs;
  for (const auto& d : r.devices) devs.push_back(device_json(d));
  o["devices"] = std::move(devs);
  return o;
}

}  // namespace diskvet::runner
