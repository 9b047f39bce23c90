// One fio run across the hosts: per-host job files, fio's client until it ends, each host's result
// and interval log, the merged numbers and whether the hosts measured together; its progress.
#include "runner/hosts/hosts_controller.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "common/units.hpp"
#include "runner/hosts/fio_job.hpp"
#include "runner/hosts/hosts_verdicts.hpp"

namespace diskvet::runner {

namespace fs = std::filesystem;

// One job file per host that takes part, written to the work folder, and fio's client command
// line naming them; hosts with no device for the workload sit it out (`sat_out`). A failed job
// file is the workload's error.
Result<HostsController::FioRun> HostsController::write_jobs(const std::string& prefix, const Workload& w, double capacities,
                                                            double log_interval_s, json::array& sat_out) {
  FioRun run;
  run.args = {o_.local_fio, "--output-format=json+"};
  for (HostSession& s : hosts_) {
    if (s.lost()) continue;
    FioJobSpec spec;
    spec.workload = w;
    spec.startdelay_s = o_.startdelay_s;
    spec.percentiles = o_.percentiles;
    spec.iops_log = prefix;
    spec.log_interval_s = log_interval_s;
    uint64_t smallest = 0;
    if (w.engine != BackendKind::null)
      for (const GateDevice& d : s.devices)
        if (!writes(w.rw) || d.held) {
          spec.filenames.push_back(d.path);
          if (d.size_bytes && (!smallest || d.size_bytes < smallest)) smallest = d.size_bytes;
        }
    // The suite's region, on devices smaller than it: the whole device (in whole blocks).
    if (smallest && spec.workload.size_bytes && spec.workload.offset_bytes + spec.workload.size_bytes > smallest)
      spec.workload.size_bytes = (smallest - std::min(smallest, spec.workload.offset_bytes)) / w.bs_bytes * w.bs_bytes;
    if (capacities > 0) {
      uint64_t region = spec.workload.size_bytes ? spec.workload.size_bytes : smallest;
      if (!region) region = uint64_t{1} << 30;  // the null engine's region (fio_job's size=1g)
      spec.workload.io_limit_bytes = static_cast<uint64_t>(capacities * static_cast<double>(region)) * w.numjobs;
      spec.time_cap_s = o_.suite.precondition.limit_s;
      host_target_bytes_[s.host->name] = static_cast<uint64_t>(capacities * static_cast<double>(region)) * spec.filenames.size();
    }
    if (spec.filenames.empty() && w.engine != BackendKind::null) {
      sat_out.push_back(json::object{{"host", s.host->name}, {"why", writes(w.rw) ? "no device held for writing" : "no device"}});
      continue;
    }
    auto job = fio_job_file(spec);
    if (!job) return job.error();
    const std::string job_name = fmt::format("{}.{}.fio", prefix, s.host->name);
    std::ofstream(fmt::format("{}/{}", work_, job_name)) << *job;
    run.args.push_back("--client=sock:" + s.local_sock);
    run.args.push_back(job_name);
    run.part.push_back(&s);
  }
  return run;
}

// fio's client until it ends, the run is interrupted (the client is stopped; "interrupted") or it
// runs past its budget (stopped; the workload's error); a host whose SSH session ends meanwhile is
// lost. `tick` every 100 ms (progress).
int HostsController::wait_for_client(ChildProcess& client, const FioRun& run, const std::string& test_id, const Workload& w,
                                     HostsWorkloadResult& out, const std::function<void()>& tick) {
  const double budget_s = o_.startdelay_s + w.ramp_s + (w.io_limit_bytes ? 86400.0 : w.runtime_s) + 60;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<int64_t>(budget_s * 1000));
  std::optional<int> rc;
  while (!(rc = client.poll())) {
    for (HostSession* s : run.part)
      if (!s->lost() && s->server && s->server->poll()) {
        const std::string err = last_line(read_file(fmt::format("{}/{}.ssh-server.err", work_, s->host->name)));
        lose(*s, "lost", fmt::format("its SSH session ended during {}{}", test_id, err.empty() ? "" : " (" + err + ")"));
      }
    if (interrupted_.load()) {
      out.doc["interrupted"] = true;
      rc = client.stop(2000);
      break;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      out.fail(fmt::format("fio's client ran past {:.0f} s", budget_s));
      rc = client.stop(2000);
      break;
    }
    tick();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return *rc;
}

// fio's client writes each job's interval log as PREFIX_iops.N.log.<host it was reached by>: the
// host's jobs summed.
std::vector<FioIntervalSample> HostsController::host_interval_log(const std::string& prefix, const HostSession& s) const {
  std::vector<std::vector<FioIntervalSample>> jobs;
  const std::string suffix = ".log." + s.local_sock, head = prefix + "_iops.";
  for (const auto& e : fs::directory_iterator(work_)) {
    const std::string f = e.path().filename().string();
    if (f.rfind(head, 0) == 0 && f.size() > suffix.size() && f.compare(f.size() - suffix.size(), suffix.size(), suffix) == 0) {
      auto log = parse_fio_interval_log(read_file(e.path().string()), f);
      if (log) jobs.push_back(std::move(*log));
    }
  }
  return sum_interval_logs(jobs);
}

// Each host's own result from fio's client output, with its interval log; a host with no result
// (or one fio reported an error for) is lost.
HostsController::HostResults HostsController::host_results(const FioClientOutput& parsed, const FioRun& run, const std::string& prefix,
                                                           const std::string& test_id) {
  HostResults got;
  for (HostSession* s : run.part) {
    auto it = std::find_if(parsed.hosts.begin(), parsed.hosts.end(), [&](const FioHostResult& r) { return r.client == s->local_sock; });
    if (it == parsed.hosts.end()) {
      const bool said = std::find(parsed.disconnected.begin(), parsed.disconnected.end(), s->local_sock) != parsed.disconnected.end();
      lose(*s, "lost", fmt::format("{} during {}", said ? "fio's client lost its connection" : "no result from fio", test_id));
      continue;
    }
    if (it->error) lose(*s, "lost", fmt::format("fio reported error {} during {}", it->error, test_id));
    got.per_host[s->host->name] = it->raw;
    got.results.push_back(&*it);
    got.names.push_back(s->host->name);
    got.logs.push_back(host_interval_log(prefix, *s));
  }
  return got;
}

// Why the merged numbers cannot be judged as one array's (empty: they can): a host whose start is
// unknown, hosts that started too far apart, or a window the hosts did not measure together.
std::string HostsController::not_aligned(const HostsMerge& m, const Workload& w, double log_interval_s) const {
  const double allowed_ms = std::max(o_.max_start_spread_s, 0.02 * w.runtime_s) * 1000;
  if (!m.start_spread_ms) return "a host's interval log is missing: its start is unknown";
  if (static_cast<double>(*m.start_spread_ms) > allowed_ms)
    return fmt::format("the hosts started {} ms apart (at most {:.0f} ms allowed)", *m.start_spread_ms, allowed_ms);
  if (!w.io_limit_bytes && m.overlap_ms) {
    // Every host measured for the whole window, together: a host that stopped early shortens it.
    const double window_ms = w.runtime_s * 1000, slack_ms = allowed_ms + log_interval_s * 1000;
    if (static_cast<double>(*m.overlap_ms) + slack_ms < window_ms)
      return fmt::format("the hosts measured together for {} ms of the {:.0f} ms window", *m.overlap_ms, window_ms);
  }
  return {};
}

// The hosts' results kept in the workload, typed and as the report says them: each host's fio JSON,
// the merged numbers, each host's own (--host-profile) and what each host wrote; the merged numbers
// are not judged when the hosts did not measure together.
void HostsController::keep_results(HostsWorkloadResult& out, const HostResults& got, const Workload& w, double log_interval_s) {
  const auto& [results, logs, names, per_host] = got;
  out.doc["hosts"] = per_host;
  const auto log_ms = static_cast<uint64_t>(std::llround(log_interval_s * 1000));
  HostsMerge m = merge_hosts(results, logs, names, o_.percentiles, log_ms);
  out.doc["merged"] = merged_json(m);
  for (size_t i = 0; i < results.size(); ++i) last_iops_[names[i]] = results[i]->dir[0].iops + results[i]->dir[1].iops;
  last_merged_iops_ = merged_total(m).iops;
  for (size_t i = 0; i < results.size(); ++i) out.written_bytes[names[i]] = results[i]->dir[1].io_bytes;
  if (o_.host_profile) {
    // Each host's own numbers, for limits that apply per host (--host-profile).
    json::object own;
    for (size_t i = 0; i < results.size(); ++i) {
      HostsMerge& h = out.per_host[names[i]] = merge_hosts({results[i]}, {logs[i]}, {names[i]}, o_.percentiles, log_ms);
      own[names[i]] = merged_json(h);
    }
    out.doc["host_merged"] = std::move(own);
  }
  out.mark_not_judged(not_aligned(m, w, log_interval_s));
  out.merged = std::move(m);
}

HostsWorkloadResult HostsController::run_workload(const std::string& prefix, const suites::TestSpec& test, Workload w, bool& complete,
                                                  double capacities) {
  if (o_.duration_s && !w.io_limit_bytes && !own_runtime_) w.runtime_s = *o_.duration_s;
  if (o_.engine) w.engine = *o_.engine;
  if (o_.suite.region_bytes && !w.size_bytes) w.size_bytes = o_.suite.region_bytes;
  HostsWorkloadResult out;
  out.doc = json::object{{"rw", to_string(w.rw)},    {"bs_bytes", w.bs_bytes}, {"iodepth", w.iodepth},          {"numjobs", w.numjobs},
                         {"runtime_s", w.runtime_s}, {"ramp_s", w.ramp_s},     {"engine", fio_engine(w.engine)}};
  if (reads(w.rw) && writes(w.rw)) out.doc["rwmixread"] = w.rwmixread_pct;
  // Interval logs: 1 s, or a quarter of a short window (fio logs nothing for a run shorter than one period).
  const double log_interval_s = log_interval_override_s_ > 0 ? log_interval_override_s_ : std::clamp(w.runtime_s / 4, 0.1, 1.0);
  json::array sat_out;
  auto run = write_jobs(prefix, w, capacities, log_interval_s, sat_out);
  if (!run) {
    out.fail(run.error().message());
    complete = false;
    return out;
  }
  if (!sat_out.empty()) out.doc["hosts_sat_out"] = std::move(sat_out);
  if (run->part.empty()) {
    out.fail("no host could run it");
    return out;
  }
  say("", fmt::format("{}: {} {} QD{} x{} on {} hosts{}", test.id, to_string(w.rw), w.bs_bytes, w.iodepth, w.numjobs, run->part.size(),
                      detail_.empty() ? "" : " (" + detail_ + ")"));
  const std::string what = fmt::format("{}: {} {} QD{} x{}{}", test.id, to_string(w.rw), format_bytes(w.bs_bytes), w.iodepth, w.numjobs,
                                       detail_.empty() ? "" : ", " + detail_);
  const std::optional<double> planned_s = w.io_limit_bytes ? std::nullopt : std::optional<double>(o_.startdelay_s + w.ramp_s + w.runtime_s);
  const auto started = std::chrono::steady_clock::now();
  auto report_progress = [&](bool finished) {
    const double elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (events_.on_progress) events_.on_progress(progress(what, elapsed_s, planned_s, run->part, finished));
  };
  SpawnOptions so;
  so.working_dir = work_;
  so.stdout_file = fmt::format("{}/{}.out", work_, prefix);
  so.stderr_file = fmt::format("{}/{}.err", work_, prefix);
  auto client = ChildProcess::spawn(run->args, so);
  if (!client) {
    out.fail(client.error().message());
    complete = false;
    return out;
  }
  // The wait comes first: what it says ("interrupted", "error") goes into the report before the exit code.
  const int fio_exit_code = wait_for_client(*client, *run, test.id, w, out, [&] { report_progress(false); });
  out.doc["fio_exit_code"] = fio_exit_code;
  auto parsed = parse_fio_client_output(read_file(so.stdout_file));
  if (!parsed) {
    out.fail(parsed.error().message());
    out.doc["fio_messages"] = last_line(read_file(so.stderr_file));
    for (HostSession* s : run->part) lose(*s, "lost", fmt::format("no result from fio for {}", test.id));
    complete = false;
    return out;
  }
  if (!parsed->messages.empty()) out.doc["fio_messages"] = parsed->messages;
  const HostResults got = host_results(*parsed, *run, prefix, test.id);
  if (got.results.size() != run->part.size()) complete = false;
  keep_results(out, got, w, log_interval_s);
  report_progress(true);
  return out;
}

HostsProgress HostsController::progress(const std::string& what, double elapsed_s, std::optional<double> planned_s,
                                        const std::vector<HostSession*>& part, bool finished) const {
  HostsProgress p;
  p.what = what;
  p.elapsed_s = elapsed_s;
  p.planned_s = planned_s;
  p.finished = finished;
  p.merged_iops = last_merged_iops_;
  for (const HostSession& s : hosts_) {
    const bool in_run = std::find(part.begin(), part.end(), &s) != part.end();
    if (!in_run && !s.lost()) continue;  // sat out (no device for this workload)
    HostProgress h;
    h.name = s.host->name;
    h.state = s.lost()                      ? HostState::lost
              : finished                    ? HostState::done
              : elapsed_s < o_.startdelay_s ? HostState::preparing
                                            : HostState::running;
    if (auto it = last_iops_.find(h.name); it != last_iops_.end()) h.iops = it->second;
    p.hosts.push_back(std::move(h));
  }
  return p;
}

}  // namespace diskvet::runner
