// The controller of a multi-host run.
#include "runner/hosts/hosts_run.hpp"

#include <dirent.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <span>
#include <sstream>
#include <thread>

#include "common/child_process.hpp"
#include "common/units.hpp"
#include "diskvet/version.hpp"
#include "runner/analysis/steady_state.hpp"
#include "runner/hosts/fio_job.hpp"
#include "runner/hosts/host_gate.hpp"
#include "runner/hosts/hosts_report_render.hpp"
#include "runner/hosts/hosts_rounds.hpp"
#include "runner/hosts/hosts_verdicts.hpp"
#include "runner/report/report_json.hpp"
#include "runner/run/phase_sequence.hpp"
#include "runner/run/suite_run.hpp"

namespace diskvet::runner {

namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

struct HostSession {
  const Host* host = nullptr;
  std::string local_sock;   // relative to the work folder: fio names the host by it
  std::string remote_sock;
  std::optional<ChildProcess> server;  // ssh -L ... fio --server
  std::optional<ChildProcess> gate;    // ssh ... diskvet gate
  std::string fio_version;
  std::string server_pid;
  std::vector<GateDevice> devices;
  std::string state = "ok";  // ok, unreachable, version-mismatch, refused, lost
  std::string reason, when;
  bool lost() const { return state != "ok"; }
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string last_line(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  const size_t nl = text.rfind('\n');
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

// The multi-host run: fio's executor of the suite's phases (runner/run/phase_sequence.hpp) across
// the hosts, plus its host bookkeeping (SSH sessions, fio servers, gates, lost hosts).
class Controller final : public PhaseExecutor {
 public:
  Controller(const HostsOptions& o, const HostsEvents& e, const std::atomic<bool>& interrupted) : o_(o), events_(e), interrupted_(interrupted) {}
  HostsRunResult run();

  // The phases, as run_phases calls them once the hosts are held.
  bool stopped() const override { return interrupted_.load() || !complete_; }
  std::string cannot(SuitePhase phase) const override;
  void skipped(SuitePhase phase, const std::string& why) override;
  void health_before() override {}  // cannot(): fio's client reads no drive health
  void probe_addresses() override {}
  std::string purge() override { return ""; }
  PreconditionOutcome precondition(const std::string& why) override;
  std::string precondition_not_done() const override { return ""; }
  UnwrittenOutcome probe_unwritten() override;
  UnwrittenOutcome unwritten_after(const PreconditionOutcome& pre, const UnwrittenOutcome& before) override;
  void tests_starting(const PhaseFindings& findings) override;
  void run_test(const suites::TestSpec& test) override;
  void health_after() override {}

 private:
  std::vector<std::string> ssh_prefix(const Host& h) const;
  void say(const std::string& host, const std::string& what) const {
    if (events_.on_host) events_.on_host(host, what);
  }
  void lose(HostSession& s, std::string state, std::string reason) {
    if (s.lost()) return;
    s.state = std::move(state);
    s.reason = std::move(reason);
    s.when = utc_now_iso8601();
    say(s.host->name, fmt::format("{}: {}", s.state, s.reason));
  }
  std::string make_work_folder();
  std::string local_fio_version() const;
  bool start_servers();
  bool start_gates();
  std::string check_gate_answer(HostSession& s);
  bool hold_hosts(json::object& rep, std::string& status, int& exit);
  HostsWorkloadResult run_test_workload(const std::string& prefix, const suites::TestSpec& test, const Workload& w);
  json::object judge_per_host(const suites::TestSpec& test, const std::vector<HostsWorkloadResult>& done, bool complete,
                              const std::string& required_missing, std::vector<VerdictStatus>& statuses) const;
  // One fio client run across the hosts: the hosts taking part and the client's command line.
  struct FioRun {
    std::vector<HostSession*> part;
    std::vector<std::string> args;
  };
  Result<FioRun> write_jobs(const std::string& prefix, const Workload& w, double capacities, double log_interval_s, json::array& sat_out);
  int wait_for_client(ChildProcess& client, const FioRun& run, const std::string& test_id, const Workload& w, HostsWorkloadResult& out,
                      const std::function<void()>& tick);
  std::vector<FioIntervalSample> host_interval_log(const std::string& prefix, const HostSession& s) const;
  struct HostResults {
    std::vector<const FioHostResult*> results;
    std::vector<std::vector<FioIntervalSample>> logs;
    std::vector<std::string> names;
    json::object per_host;
  };
  HostResults host_results(const FioClientOutput& parsed, const FioRun& run, const std::string& prefix, const std::string& test_id);
  std::string not_aligned(const HostsMerge& m, const Workload& w, double log_interval_s) const;
  void keep_results(HostsWorkloadResult& out, const HostResults& got, const Workload& w, double log_interval_s);
  // capacities > 0: a sized workload (preconditioning) writing that many times each host's region.
  HostsWorkloadResult run_workload(const std::string& prefix, const suites::TestSpec& test, Workload w, bool& complete, double capacities = 0);
  // incomplete: which hosts wrote less than their target, or could not take part (empty: none).
  json::object precondition_hosts(bool& complete, std::string& incomplete);
  // unwritten: each device found unwritten and each host that could not be probed; found: whether a
  // probe that ran found space never written.
  json::object probe_hosts(std::string& unwritten, bool& found);
  // Rounds of w until `rounds` says they end; returns the last round.
  HostsWorkloadResult run_steady_rounds(const std::string& prefix, const suites::TestSpec& test, Workload w, bool& complete, HostsRounds& rounds);
  class WorkloadRun;
  std::vector<HostsWorkloadResult> run_matrix(const std::string& prefix, const suites::TestSpec& test, bool& complete, json::object& summary);
  HostsProgress progress(const std::string& what, double elapsed_s, std::optional<double> planned_s, const std::vector<HostSession*>& part,
                         bool finished) const;
  void shut_down();
  json::object host_json(const HostSession& s) const;

  const HostsOptions& o_;
  const HostsEvents& events_;
  const std::atomic<bool>& interrupted_;
  std::string work_, run_id_, local_version_;
  std::vector<HostSession> hosts_;
  json::array leftovers_;
  std::map<std::string, uint64_t> host_target_bytes_;  // preconditioning: what each host must write
  double log_interval_override_s_ = 0;                  // warmup: the suite's interval
  bool own_runtime_ = false;   // rounds and warmup: their runtime stands (--duration already applied)
  std::string detail_;         // what the run is within its test ("round 2 of at most 25"), for progress
  std::map<std::string, double> last_iops_;  // each host's IOPS in its last finished fio run
  std::optional<double> last_merged_iops_;
  // The phases' state: the report being written, whether every host took part so far, the statuses
  // of the tests' verdicts, the tests run, and why their numbers cannot be judged (empty: they can).
  json::object* rep_ = nullptr;
  bool complete_ = true;
  std::vector<VerdictStatus> statuses_;
  json::array tests_;
  std::string required_missing_;
  json::object warm_up(const std::string& prefix, const suites::TestSpec& test, Workload w, bool& complete);
};

std::vector<std::string> Controller::ssh_prefix(const Host& h) const {
  std::vector<std::string> a{"ssh", "-o", "BatchMode=yes", "-o", fmt::format("ConnectTimeout={}", o_.connect_timeout_s),
                             "-o", "ServerAliveInterval=2", "-o", "ServerAliveCountMax=3"};
  if (!o_.inventory.ssh_config.empty()) {
    fs::path cfg(o_.inventory.ssh_config);
    if (cfg.is_relative()) cfg = fs::path(o_.inventory.file).parent_path() / cfg;
    a.insert(a.end(), {"-F", cfg.string()});
  }
  if (h.ssh_port) a.insert(a.end(), {"-p", std::to_string(h.ssh_port)});
  return a;
}

// One SSH session per host: fio's server on a unix socket of the host, forwarded to ours. The
// remote shell prints fio's version, starts the server, says when its socket is there, then waits
// for its stdin to close (the run ended, or the controller is gone) and ends the server with every
// process under it (fio's jobs run in sessions of their own, so their tree, not a group, is ended).
bool Controller::start_servers() {
  for (HostSession& s : hosts_) {
    const Host& h = *s.host;
    s.local_sock = h.name + ".sock";
    s.remote_sock = fmt::format("/tmp/diskvet-fio-{}-{}.sock", run_id_, h.name);
    const std::string ro = h.has_diskvet() ? "" : " --readonly";
    const std::string script = fmt::format(
        "S={0}; umask 077; rm -f $S; {1} --version || echo 'fio not found'; {1} --server=sock:$S{2} >/dev/null 2>&1 </dev/null & p=$!; "
        "i=0; while [ ! -S $S ] && [ $i -lt 150 ] && kill -0 $p 2>/dev/null; do sleep 0.1; i=$((i+1)); done; "
        "if [ -S $S ]; then echo diskvet-fio-server $p; else echo 'fio --server did not open its socket'; kill -9 $p 2>/dev/null; exit 1; fi; "
        "cat >/dev/null; "
        "d() {{ for c in $(ps -o pid= --ppid $1); do echo $c; d $c; done; }}; kill -9 $p $(d $p) 2>/dev/null; rm -f $S",
        s.remote_sock, h.fio, ro);
    auto argv = ssh_prefix(h);
    argv.insert(argv.end(), {"-o", "ExitOnForwardFailure=yes", "-o", "StreamLocalBindUnlink=yes", "-L",
                             fmt::format("{}/{}:{}", work_, s.local_sock, s.remote_sock), h.ssh, script});
    SpawnOptions so;
    so.pipe_stdin = true;
    so.pipe_stdout = true;
    so.stderr_file = fmt::format("{}/{}.ssh-server.err", work_, h.name);
    auto c = ChildProcess::spawn(argv, so);
    if (!c) {
      lose(s, "unreachable", c.error().message());
      continue;
    }
    s.server.emplace(std::move(*c));
  }
  const int wait_ms = (o_.connect_timeout_s + 20) * 1000;
  for (HostSession& s : hosts_) {
    if (!s.server) continue;
    auto version = s.server->read_line(wait_ms);
    auto ready = version ? s.server->read_line(wait_ms) : std::nullopt;
    if (!version || !ready || ready->rfind("diskvet-fio-server ", 0) != 0) {
      const std::string err = last_line(read_file(fmt::format("{}/{}.ssh-server.err", work_, s.host->name)));
      lose(s, "unreachable", version ? fmt::format("fio's server did not start there ({}: {})", *version, ready ? *ready : err)
                                     : fmt::format("ssh {} failed{}", s.host->ssh, err.empty() ? "" : ": " + err));
      continue;
    }
    s.fio_version = *version;
    s.server_pid = ready->substr(19);
    say(s.host->name, fmt::format("fio server up ({})", s.fio_version));
  }
  return std::none_of(hosts_.begin(), hosts_.end(), [](const HostSession& s) { return s.lost(); });
}

bool Controller::start_gates() {
  for (HostSession& s : hosts_) {
    const Host& h = *s.host;
    if (!h.has_diskvet() || h.devices.empty()) {
      for (const HostDevice& d : h.devices) {
        GateDevice g;
        g.id = d.id;
        g.path = d.id;
        s.devices.push_back(std::move(g));
      }
      continue;
    }
    auto argv = ssh_prefix(h);
    argv.insert(argv.end(), {h.ssh, h.diskvet, "gate"});
    for (const HostDevice& d : h.devices) argv.insert(argv.end(), {"--device", d.id});
    for (const HostDevice& d : h.devices)
      if (d.destroy_data) argv.insert(argv.end(), {"--destroy-data", d.id});
    for (const std::string& id : o_.destroy) argv.insert(argv.end(), {"--destroy-data", id});
    SpawnOptions so;
    so.pipe_stdin = true;
    so.pipe_stdout = true;
    so.stderr_file = fmt::format("{}/{}.ssh-gate.err", work_, h.name);
    auto c = ChildProcess::spawn(argv, so);
    if (!c) {
      lose(s, "unreachable", c.error().message());
      continue;
    }
    s.gate.emplace(std::move(*c));
  }
  bool all = true;
  for (HostSession& s : hosts_) {
    if (!s.gate) continue;
    auto line = s.gate->read_line((o_.connect_timeout_s + 60) * 1000);
    auto devs = line ? parse_gate_json(*line, s.host->name) : Result<std::vector<GateDevice>>(runtime_error(s.host->name, "no answer"));
    if (!devs) {
      const std::string err = last_line(read_file(fmt::format("{}/{}.ssh-gate.err", work_, s.host->name)));
      lose(s, "unreachable", fmt::format("diskvet gate did not answer{}", err.empty() ? "" : ": " + err));
      all = false;
      continue;
    }
    s.devices = *devs;
    if (const std::string refusals = check_gate_answer(s); !refusals.empty()) {
      lose(s, "refused", refusals);
      all = false;
    }
  }
  return all;
}

// A host gate's answer, checked before anything goes into a job file: every refusal found, joined
// (empty: none), each device's own in its `refusal`.
std::string Controller::check_gate_answer(HostSession& s) {
  // The gate's answer goes into job files: it must be about the devices asked, each a plain /dev path.
  if (s.devices.size() != s.host->devices.size())
    return fmt::format("the gate answered for {} devices, {} were asked", s.devices.size(), s.host->devices.size());
  for (size_t i = 0; i < s.devices.size(); ++i) {
    GateDevice& d = s.devices[i];
    const bool plain = d.path.rfind("/dev/", 0) == 0 &&
                       std::none_of(d.path.begin(), d.path.end(), [](unsigned char c) { return c <= ' ' || c == 0x7f; });
    if (d.id != s.host->devices[i].id || (d.refusal.empty() && !plain)) d.refusal = fmt::format("the gate's answer for {} is not usable", s.host->devices[i].id);
    if (d.held && !s.host->devices[i].destroy_data && o_.destroy.empty()) d.refusal = "held without consent";
  }
  // One device reached twice (a host listed under two names, one LUN seen from two hosts) would
  // be run twice and counted twice in the merged numbers: refused before anything is written.
  for (size_t i = 0; i < s.devices.size(); ++i) {
    GateDevice& d = s.devices[i];
    for (const HostSession& other : hosts_) {
      const bool self = &other == &s;
      for (size_t j = 0; j < other.devices.size() && (!self || j < i) && d.refusal.empty(); ++j)
        if (std::string why = same_device(d, other.devices[j]); !why.empty())
          d.refusal = fmt::format("is the same device as {} on host {} ({}): its numbers would count twice", other.devices[j].id,
                                  other.host->name, why);
      if (self) break;
    }
  }
  // Every refusal is said, not only the first: the operator fixes them all before the next try.
  std::string refusals;
  for (const GateDevice& d : s.devices) {
    if (!d.refusal.empty())
      refusals += fmt::format("{}{}: {}", refusals.empty() ? "" : "; ", d.id, d.refusal);
    else
      say(s.host->name, fmt::format("{} is {} ({})", d.id, d.held ? "held for writing" : "read only", d.path));
  }
  return refusals;
}

// One job file per host that takes part, written to the work folder, and fio's client command
// line naming them; hosts with no device for the workload sit it out (`sat_out`). A failed job
// file is the workload's error.
Result<Controller::FioRun> Controller::write_jobs(const std::string& prefix, const Workload& w, double capacities, double log_interval_s,
                                                 json::array& sat_out) {
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
int Controller::wait_for_client(ChildProcess& client, const FioRun& run, const std::string& test_id, const Workload& w, HostsWorkloadResult& out,
                                const std::function<void()>& tick) {
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
std::vector<FioIntervalSample> Controller::host_interval_log(const std::string& prefix, const HostSession& s) const {
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
Controller::HostResults Controller::host_results(const FioClientOutput& parsed, const FioRun& run, const std::string& prefix, const std::string& test_id) {
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
std::string Controller::not_aligned(const HostsMerge& m, const Workload& w, double log_interval_s) const {
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
void Controller::keep_results(HostsWorkloadResult& out, const HostResults& got, const Workload& w, double log_interval_s) {
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

HostsWorkloadResult Controller::run_workload(const std::string& prefix, const suites::TestSpec& test, Workload w, bool& complete, double capacities) {
  if (o_.duration_s && !w.io_limit_bytes && !own_runtime_) w.runtime_s = *o_.duration_s;
  if (o_.engine) w.engine = *o_.engine;
  if (o_.suite.region_bytes && !w.size_bytes) w.size_bytes = o_.suite.region_bytes;
  HostsWorkloadResult out;
  out.doc = json::object{{"rw", to_string(w.rw)}, {"bs_bytes", w.bs_bytes}, {"iodepth", w.iodepth}, {"numjobs", w.numjobs},
                         {"runtime_s", w.runtime_s}, {"ramp_s", w.ramp_s}, {"engine", fio_engine(w.engine)}};
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

HostsProgress Controller::progress(const std::string& what, double elapsed_s, std::optional<double> planned_s, const std::vector<HostSession*>& part,
                                   bool finished) const {
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
    h.state = s.lost() ? HostState::lost : finished ? HostState::done : elapsed_s < o_.startdelay_s ? HostState::preparing : HostState::running;
    if (auto it = last_iops_.find(h.name); it != last_iops_.end()) h.iops = it->second;
    p.hosts.push_back(std::move(h));
  }
  return p;
}

// SNIA PTS 3.3 on the array: the workload repeats in rounds of round_s (each one fio run across the
// hosts) until the merged rounds are steady (IOPS, or the merged mean latency for latency tests), as
// `rounds` decides; the last round stands for the workload. Only the first round ramps (the local
// runner's rounds follow each other without one). Required and not attained: the result is not judged.
HostsWorkloadResult Controller::run_steady_rounds(const std::string& prefix, const suites::TestSpec& test, Workload w, bool& complete,
                                                  HostsRounds& rounds) {
  const suites::SteadyStateSpec& ss = o_.suite.steady_state;
  const double ramp_s = w.ramp_s;
  w.runtime_s = o_.duration_s ? std::min(*o_.duration_s, ss.round_s) : ss.round_s;
  HostsWorkloadResult last;
  own_runtime_ = true;
  for (size_t k = 0; k < ss.criteria.max_rounds && complete && !interrupted_.load(); ++k) {
    w.ramp_s = k == 0 ? ramp_s : 0;
    detail_ = fmt::format("round {} of at most {}", k + 1, ss.criteria.max_rounds);
    last = run_workload(fmt::format("{}r{}", prefix, k), test, w, complete);
    if (!rounds.add_round(last)) break;
  }
  own_runtime_ = false;
  detail_.clear();
  last.doc["steady_state"] = rounds.json();
  last.mark_not_judged(rounds.not_judged_reason());
  return last;
}

// One workload of a test across the hosts: fio's executor of the workload's phases
// (phase_sequence.hpp), each phase one or more fio runs; result() is what stands for the workload.
class Controller::WorkloadRun final : public WorkloadPhaseExecutor {
 public:
  WorkloadRun(Controller& c, std::string prefix, const suites::TestSpec& test, const Workload& w)
      : c_(c), prefix_(std::move(prefix)), test_(test), w_(w) {}

  bool stopped() const override { return c_.stopped(); }

  void warm_up() override { warm_ = c_.warm_up(prefix_ + "warm", test_, w_, c_.complete_); }

  // As the local runner: rounds of the sweep's heaviest step until the merged numbers are steady.
  bool sweep_rounds() override {
    Workload track = w_;
    track.iodepth = test_.sweep->steps.back().iodepth;
    track.numjobs = test_.sweep->steps.back().numjobs;
    rounds_workload_ = fmt::format("{} {} QD{} x{}", to_string(track.rw), format_bytes(track.bs_bytes), track.iodepth, track.numjobs);
    rounds_.emplace(c_.o_.suite.steady_state.criteria, c_.o_.suite.steady_state.required, test_.track_latency);
    c_.run_steady_rounds(prefix_ + "ss", test_, track, c_.complete_, *rounds_);
    return true;  // the sweep says itself that it did not run after them
  }

  // Each step one fio run, until the merged IOPS gain less than min_gain_pct; the best step stands
  // for the workload, with the rounds' steady state. Required and not attained: not judged.
  void sweep() override {
    Workload w = w_;
    json::array steps;
    double best = -1;
    for (size_t k = 0; k < test_.sweep->steps.size() && !stopped(); ++k) {
      w.iodepth = test_.sweep->steps[k].iodepth;
      w.numjobs = test_.sweep->steps[k].numjobs;
      c_.detail_ = fmt::format("sweep step {} of at most {}", k + 1, test_.sweep->steps.size());
      HostsWorkloadResult step = c_.run_workload(fmt::format("{}s{}", prefix_, k), test_, w, c_.complete_);
      const double iops = merged_total_iops(step);
      steps.push_back(step.doc);
      const bool gained = best <= 0 || iops >= best * (1 + test_.sweep->min_gain_pct / 100);
      if (iops > best) {
        best = iops;
        result_ = std::move(step);
      }
      if (!gained) break;
    }
    c_.detail_.clear();
    if (steps.empty()) result_.fail(rounds_ ? "the sweep did not run after its steady-state rounds" : "the sweep did not run");
    result_.doc["sweep"] = std::move(steps);
    if (rounds_) {
      result_.doc["steady_state"] = rounds_->json(rounds_workload_);
      result_.mark_not_judged(rounds_->not_judged_reason());
    }
  }

  void steady_rounds() override {
    HostsRounds rounds(c_.o_.suite.steady_state.criteria, c_.o_.suite.steady_state.required, test_.track_latency);
    result_ = c_.run_steady_rounds(prefix_, test_, w_, c_.complete_, rounds);
  }

  void measure() override { result_ = c_.run_workload(prefix_, test_, w_, c_.complete_); }

  HostsWorkloadResult result() && {
    if (!warm_.empty()) result_.doc["warmup"] = std::move(warm_);
    return std::move(result_);
  }

 private:
  Controller& c_;
  const std::string prefix_;
  const suites::TestSpec& test_;
  const Workload w_;
  json::object warm_;
  std::optional<HostsRounds> rounds_;
  std::string rounds_workload_;
  HostsWorkloadResult result_;
};

// A mix x block size matrix across the hosts, as the local runner does it (PTS-E IOPS test): each
// round runs every cell once (one fio run each, no ramp), rounds repeat until the tracked cell's
// merged IOPS are steady; each cell's last round stands for it, with the rounds it ran and the
// matrix's steady state. Without steady state the matrix runs once. Required and not attained:
// no cell is judged.
std::vector<HostsWorkloadResult> Controller::run_matrix(const std::string& prefix, const suites::TestSpec& test, bool& complete, json::object& summary) {
  const suites::SteadyStateSpec& ss = o_.suite.steady_state;
  const suites::MatrixSpec& spec = *test.matrix;
  const size_t n = test.workloads.size();
  SteadyCriteria criteria = ss.criteria;
  if (!ss.enabled) criteria.max_rounds = 1;
  HostsRounds tracked(criteria, ss.enabled && ss.required, false);
  std::vector<HostsWorkloadResult> cells(n);
  std::vector<size_t> cell_rounds(n, 0);
  std::vector<uint32_t> mixes;
  for (const Workload& w : test.workloads) mixes.push_back(w.rwmixread_pct);
  size_t rounds_run = 0;
  double round_s = 0;
  own_runtime_ = ss.enabled;
  for (size_t r = 0; r < criteria.max_rounds && complete && !interrupted_.load(); ++r) {
    for (size_t i = 0; i < n && complete && !interrupted_.load(); ++i) {
      Workload w = test.workloads[i];
      w.ramp_s = 0;  // PTS runs the cells back to back
      if (ss.enabled) w.runtime_s = o_.duration_s ? std::min(*o_.duration_s, ss.round_s) : ss.round_s;
      else if (o_.duration_s) w.runtime_s = *o_.duration_s;
      round_s = w.runtime_s;
      detail_ = fmt::format("round {} of at most {}, cell {} of {}", r + 1, criteria.max_rounds, i + 1, n);
      cells[i] = run_workload(fmt::format("{}r{}c{}", prefix, r, i), test, w, complete);
      ++cell_rounds[i];
    }
    if (!complete || interrupted_.load()) break;
    ++rounds_run;
    if (spec.tracked >= n || !tracked.add_round(cells[spec.tracked]) || !ss.enabled) break;
  }
  own_runtime_ = false;
  detail_.clear();
  const std::string why = tracked.not_judged_reason();
  for (size_t i = 0; i < n; ++i) {
    HostsWorkloadResult& c = cells[i];
    if (!cell_rounds[i]) c.fail(interrupted_.load() ? "interrupted before this cell ran" : "the matrix stopped before this cell ran");
    if (ss.enabled)
      c.doc["steady_state"] = json::object{{"required", tracked.required()}, {"attained", tracked.attained()}, {"rounds", cell_rounds[i]},
                                         {"decided_by", "the tracked cell's merged IOPS (see the test's matrix)"}};
    c.mark_not_judged(why);
  }
  summary = hosts_matrix_json(spec, mixes, cells, cell_rounds, tracked, rounds_run, round_s);
  return cells;
}

// Read workloads warm the array's caches first: the workload runs for the suite's warmup time across
// the hosts, and the merged interval series says whether IOPS had stopped rising (the slope criterion
// over the last window). One fio run, not rounds: each run costs the hosts a start delay.
json::object Controller::warm_up(const std::string& prefix, const suites::TestSpec& test, Workload w, bool& complete) {
  const suites::WarmupSpec& wu = o_.suite.warmup;
  w.runtime_s = o_.duration_s ? std::min(*o_.duration_s, wu.max_s) : wu.max_s;
  w.ramp_s = 0;
  log_interval_override_s_ = wu.interval_s;
  own_runtime_ = true;
  detail_ = "warming caches";
  const HostsWorkloadResult out = run_workload(prefix, test, w, complete);
  own_runtime_ = false;
  detail_.clear();
  log_interval_override_s_ = 0;
  std::vector<double> series;
  if (out.merged)
    for (const FioIntervalSample& s : out.merged->intervals) series.push_back(s.value[0] + s.value[1]);
  SteadyCriteria c;
  c.window_rounds = std::min(wu.window, std::max<size_t>(series.size(), 2));
  c.max_rounds = series.size();
  c.max_slope_pct = wu.max_slope_pct;
  c.check_excursion = false;
  const SteadyStateResult st = detect_steady_state(std::span<const double>(series.data() + (series.size() > c.window_rounds ? series.size() - c.window_rounds : 0),
                                                                            std::min(series.size(), c.window_rounds)), c);
  json::array iv;
  for (double v : series) iv.push_back(v);
  return json::object{{"runtime_s", w.runtime_s}, {"interval_iops", std::move(iv)}, {"warm", st.attained},
                      {"hosts", out.doc.contains("hosts") ? out.doc.at("hosts") : json::value(nullptr)}};
}

// The unwritten-space probe on every host with diskvet (its gate, read only, beside the hold):
// sampled blocks that read back all zeros were never written, and reads there measure nothing.
// `unwritten` names each device found unwritten, and each host that could not be probed.
json::object Controller::probe_hosts(std::string& unwritten, bool& found) {
  const suites::ProbeSpec& p = o_.suite.probe;
  std::vector<std::pair<HostSession*, ChildProcess>> asked;
  json::object out;
  for (HostSession& s : hosts_) {
    if (s.lost() || s.host->devices.empty()) continue;
    if (!s.host->has_diskvet()) {
      out[s.host->name] = "not probed: no diskvet on the host";
      unwritten += fmt::format("{}{}: not probed (no diskvet there)", unwritten.empty() ? "" : "; ", s.host->name);
      continue;
    }
    auto argv = ssh_prefix(*s.host);
    argv.insert(argv.end(), {s.host->ssh, s.host->diskvet, "gate", "--no-wait", "--probe", std::to_string(p.samples), "--max-zero-pct",
                             fmt::format("{}", p.max_zero_pct)});
    if (o_.suite.region_bytes) argv.insert(argv.end(), {"--region", std::to_string(o_.suite.region_bytes)});
    for (const HostDevice& d : s.host->devices) argv.insert(argv.end(), {"--device", d.id});
    SpawnOptions so;
    so.pipe_stdout = true;
    auto c = ChildProcess::spawn(argv, so);
    if (c) asked.emplace_back(&s, std::move(*c));
  }
  for (auto& [s, c] : asked) {
    auto line = c.read_line((o_.connect_timeout_s + 60) * 1000);
    c.wait_for(10000);
    auto devs = line ? parse_gate_json(*line, s->host->name) : Result<std::vector<GateDevice>>(runtime_error(s->host->name, "no answer"));
    json::array rows;
    if (!devs) {
      unwritten += fmt::format("{}{}: the probe did not answer", unwritten.empty() ? "" : "; ", s->host->name);
      out[s->host->name] = "the probe did not answer";
      continue;
    }
    for (const GateDevice& d : *devs) {
      rows.push_back(json::object{{"id", d.id}, {"samples", d.probe_samples}, {"zero_samples", d.probe_zero_samples}, {"unwritten", d.unwritten || !d.probed}});
      found = found || (d.probed && d.unwritten);
      if (d.unwritten || !d.probed)
        unwritten += fmt::format("{}{}:{}: {}", unwritten.empty() ? "" : "; ", s->host->name, d.id,
                                 d.probed ? fmt::format("{} of {} sampled blocks read zeros", d.probe_zero_samples, d.probe_samples) : "not probed (" + d.probe_error + ")");
    }
    out[s->host->name] = std::move(rows);
  }
  return out;
}

// Workload-independent preconditioning (SNIA PTS 3.2) on every host's held devices at once: one
// sized fio run of sequential writes, each device written `capacities` times over its region. A
// host that wrote less (a time cap) or could not take part leaves a required preconditioning missing.
json::object Controller::precondition_hosts(bool& complete, std::string& incomplete) {
  const suites::PreconditionSpec& p = o_.suite.precondition;
  Workload w;
  w.rw = Pattern::write;
  w.bs_bytes = p.bs_bytes;
  w.iodepth = p.iodepth;
  w.numjobs = p.numjobs;
  w.ramp_s = 0;
  w.io_limit_bytes = 1;  // sized per host below
  if (!o_.suite.tests.empty() && !o_.suite.tests[0].workloads.empty()) w.engine = o_.suite.tests[0].workloads[0].engine;
  suites::TestSpec pre;
  pre.id = "precondition";
  say("", fmt::format("preconditioning: sequential {} writes, {}x each region", w.bs_bytes, p.capacities));
  HostsWorkloadResult out = run_workload("pre", pre, w, complete, p.capacities);
  std::string missing;
  for (const HostSession& s : hosts_) {
    if (s.lost()) continue;
    auto want = host_target_bytes_.find(s.host->name);
    auto wrote = out.written_bytes.find(s.host->name);
    if (want == host_target_bytes_.end() || wrote == out.written_bytes.end()) {
      missing += fmt::format("{}{} was not preconditioned", missing.empty() ? "" : "; ", s.host->name);
      continue;
    }
    if (wrote->second < want->second)
      missing += fmt::format("{}{} wrote {} of {} bytes", missing.empty() ? "" : "; ", s.host->name, wrote->second, want->second);
  }
  if (!missing.empty()) out.doc["incomplete"] = missing;
  incomplete = missing;
  return std::move(out.doc);
}

json::object Controller::host_json(const HostSession& s) const {
  json::array devs;
  for (const GateDevice& d : s.devices) {
    json::object o{{"id", d.id}, {"path", d.path}, {"held", d.held}, {"write_asked", d.write_asked}, {"size_bytes", d.size_bytes}};
    if (!d.refusal.empty()) o["refusal"] = d.refusal;
    devs.push_back(std::move(o));
  }
  json::object o{{"name", s.host->name}, {"ssh", s.host->ssh}, {"diskvet", s.host->has_diskvet()}, {"fio_version", s.fio_version},
                 {"state", s.state}, {"devices", std::move(devs)}};
  if (!s.reason.empty()) o["reason"] = s.reason;
  if (!s.when.empty()) o["when"] = s.when;
  return o;
}

// Closing a session's stdin ends what it started on the host; then each host is asked whether any
// process of its fio server is still there.
void Controller::shut_down() {
  for (HostSession& s : hosts_) {
    if (s.gate) s.gate->close_stdin();
    if (s.server) s.server->close_stdin();
  }
  for (HostSession& s : hosts_) {
    if (s.gate && !s.gate->wait_for(10000)) s.gate->stop(2000);
    if (s.server && !s.server->wait_for(15000)) s.server->stop(2000);
  }
  // Asked of every host at once, then the answers collected.
  std::vector<std::pair<HostSession*, ChildProcess>> checks;
  for (HostSession& s : hosts_) {
    if (s.server_pid.empty() || s.state == "lost") continue;
    auto argv = ssh_prefix(*s.host);
    argv.insert(argv.end(), {s.host->ssh, fmt::format("pgrep -f -- '[s]erver=sock:{}' || true", s.remote_sock)});
    SpawnOptions so;
    so.pipe_stdout = true;
    auto c = ChildProcess::spawn(argv, so);
    if (c) checks.emplace_back(&s, std::move(*c));
  }
  for (auto& [s, c] : checks) {
    std::string left = c.read_rest(20000);
    c.wait_for(5000);
    while (!left.empty() && left.back() == '\n') left.pop_back();
    for (char& ch : left)
      if (ch == '\n') ch = ' ';
    if (!left.empty()) {
      leftovers_.push_back(json::object{{"host", s->host->name}, {"pids", left}});
      say(s->host->name, "fio processes still running after the run: " + left);
    }
  }
}

// The work folder (job files, fio's outputs, the forwarded sockets), removed at the end; its name
// carries our pid, so what a killed controller left behind is known by whoever killed it. Returns
// why it could not be made (empty: made).
std::string Controller::make_work_folder() {
  std::error_code tmp_ec;
  const fs::path tmp = fs::temp_directory_path(tmp_ec);
  std::string tmpl = fmt::format("{}/diskvet-hosts-{}-XXXXXX", tmp_ec ? "/tmp" : tmp.string(), ::getpid());
  if (!::mkdtemp(tmpl.data())) return fmt::format("cannot make a work folder in {}: {}", fs::path(tmpl).parent_path().string(), std::strerror(errno));
  work_ = tmpl;
  return {};
}

// The controller's own fio: every host must run the same build (fio refuses other protocol versions).
std::string Controller::local_fio_version() const {
  SpawnOptions so;
  so.pipe_stdout = true;
  auto c = ChildProcess::spawn({o_.local_fio, "--version"}, so);
  if (!c) return {};
  std::string version = last_line(c->read_rest(10000));
  c->wait_for(5000);
  return version;
}

// The gate phase: fio's servers up on every host with the controller's fio, then every device held
// (or refused) by the host's own gate. On failure the run's status, exit code and error.
bool Controller::hold_hosts(json::object& rep, std::string& status, int& exit) {
  if (!start_servers()) {
    status = "INCOMPLETE";
    return false;
  }
  std::vector<std::string> differ;
  for (HostSession& s : hosts_)
    if (s.fio_version != local_version_) {
      differ.push_back(fmt::format("{} runs {}", s.host->name, s.fio_version));
      lose(s, "version-mismatch", fmt::format("runs {}, the controller {}", s.fio_version, local_version_));
    }
  if (!differ.empty()) {
    std::string list;
    for (const auto& d : differ) list += (list.empty() ? "" : "; ") + d;
    rep["error"] = fmt::format("every host must run the controller's fio ({}): {}", local_version_, list);
    status = "REFUSED";
    exit = 2;
    return false;
  }
  if (start_gates()) return true;
  const bool refused = std::any_of(hosts_.begin(), hosts_.end(), [](const HostSession& s) { return s.state == "refused"; });
  status = refused ? "REFUSED" : "INCOMPLETE";
  exit = refused ? 2 : 3;
  if (refused) rep["error"] = "a host's gate refused a device: nothing was written";
  return false;
}

// What fio's client/server cannot do across hosts: the phases that need diskvet's engine or the
// drive itself on each host.
std::string Controller::cannot(SuitePhase phase) const {
  switch (phase) {
    case SuitePhase::self_test: return "fio's client/server cannot start a drive's self-test (diskvet selftest on each host can)";
    case SuitePhase::health_before:
    case SuitePhase::health_after: return "fio's client/server reads no drive health (diskvet list on each host shows it)";
    case SuitePhase::address_probe:
      return "the address-integrity probe runs on diskvet's engine, not fio's (diskvet probe-capacity on each host)";
    case SuitePhase::purge: return "fio's client/server cannot purge a drive";
    case SuitePhase::unwritten_probe:
      if (o_.engine)
        return fmt::format("--fio-engine {} runs the workloads: their reads are not the devices' (a lab option)", fio_engine(*o_.engine));
      return "";
    case SuitePhase::precondition:
    case SuitePhase::tests: return "";
  }
  return "";
}

// A phase the suite asks for and fio's client/server cannot do is named in the report, never left out
// silently: the array's numbers were measured without it.
void Controller::skipped(SuitePhase phase, const std::string& why) {
  json::value& v = (*rep_)["phases_not_run"];
  if (!v.is_array()) v = json::array();
  v.as_array().push_back(json::object{{"phase", to_string(phase)}, {"why", why}});
  say("", fmt::format("not run: {}: {}", to_string(phase), why));
}

// One preconditioning for whatever reason (the suite asks, or the probe found unwritten space: the
// probe's line said so); precondition_hosts says what it writes.
PreconditionOutcome Controller::precondition(const std::string&) {
  std::string incomplete;
  (*rep_)["precondition"] = precondition_hosts(complete_, incomplete);
  return PreconditionOutcome{true, incomplete.empty(), "preconditioning required and incomplete: " + incomplete};
}

UnwrittenOutcome Controller::probe_unwritten() {
  std::string unwritten;
  bool found = false;
  (*rep_)["probe"] = probe_hosts(unwritten, found);
  if (unwritten.empty()) return {};
  say("", "probe: " + unwritten);
  return UnwrittenOutcome{true, found, "unwritten space would be read: " + unwritten};
}

// The probe after the preconditioning says whether the space is written now: its answer, not what
// the preconditioning reported, decides.
UnwrittenOutcome Controller::unwritten_after(const PreconditionOutcome&, const UnwrittenOutcome&) { return probe_unwritten(); }

// Required preconditioning incomplete comes first (it is closest to the measurement), then unwritten
// space: either makes every test NOT-EVALUATED.
void Controller::tests_starting(const PhaseFindings& findings) {
  required_missing_ = !findings.precondition_missing.empty() ? findings.precondition_missing : findings.region_unwritten;
  if (!required_missing_.empty()) {
    (*rep_)["not_judged"] = required_missing_;
    say("", "not judged: " + required_missing_);
  }
}

// One workload of a test as the suite runs it: a sweep, steady-state rounds, or one run; read
// workloads warm the caches first where the suite asks.
HostsWorkloadResult Controller::run_test_workload(const std::string& prefix, const suites::TestSpec& test, const Workload& w) {
  WorkloadRun x(*this, prefix, test, w);
  run_workload_phases(o_.suite, test, w, x);
  return std::move(x).result();
}

// Per-host limits (--host-profile): every host judged on its own numbers; the worst host counts for
// the test (its statuses join `statuses`).
json::object Controller::judge_per_host(const suites::TestSpec& test, const std::vector<HostsWorkloadResult>& done, bool complete,
                                        const std::string& required_missing, std::vector<VerdictStatus>& statuses) const {
  json::object per_host;
  for (const HostSession& s : hosts_) {
    // Each workload as this host alone measured it: its own numbers (none when it has none), with
    // the workload's error and reason not to judge.
    std::vector<HostsWorkloadResult> own;
    for (const HostsWorkloadResult& d : done) {
      HostsWorkloadResult w;
      w.not_judged = d.not_judged;
      w.error = d.error;
      if (auto it = d.per_host.find(s.host->name); it != d.per_host.end()) w.merged = it->second;
      own.push_back(std::move(w));
    }
    json::object hj;
    statuses.push_back(judge_hosts_test(hj, test.id, *o_.host_profile, own, complete && !s.lost(), required_missing));
    per_host[s.host->name] = std::move(hj);
  }
  return per_host;
}

// One test: its workloads (or its matrix) across the hosts, judged on the merged numbers and, with
// --host-profile, on each host's own.
void Controller::run_test(const suites::TestSpec& test) {
  const size_t t = tests_.size();
  std::vector<HostsWorkloadResult> done;
  json::object matrix;
  if (test.matrix) done = run_matrix(fmt::format("t{}", t), test, complete_, matrix);
  for (size_t wi = 0; !test.matrix && wi < test.workloads.size() && !stopped(); ++wi)
    done.push_back(run_test_workload(fmt::format("t{}w{}", t, wi), test, test.workloads[wi]));
  json::array workloads;
  for (const auto& d : done) workloads.push_back(d.doc);
  json::object tj{{"id", test.id}, {"workloads", std::move(workloads)}};
  if (!matrix.empty()) tj["matrix"] = std::move(matrix);
  std::optional<VerdictStatus> status;
  if (o_.profile) status = judge_hosts_test(tj, test.id, *o_.profile, done, complete_, required_missing_);
  if (o_.host_profile) tj["host_verdicts"] = judge_per_host(test, done, complete_, required_missing_, statuses_);
  // The test's own status after its hosts', as the statuses have always been gathered.
  if (status) statuses_.push_back(*status);
  tests_.push_back(std::move(tj));
}

HostsRunResult Controller::run() {
  HostsRunResult r;
  json::object& rep = r.report;
  rep["schema"] = kReportSchema;
  rep["kind"] = kHostsReportKind;
  rep["diskvet_version"] = kVersion;
  rep["suite"] = o_.suite.name;
  rep["profile"] = o_.profile ? json::value(o_.profile->name) : json::value(nullptr);
  rep["started"] = utc_now_iso8601();
  std::random_device rd;
  run_id_ = fmt::format("{:08x}", rd());
  if (const std::string why = make_work_folder(); !why.empty()) {
    rep["error"] = why;
    return r;
  }
  for (const Host& h : o_.inventory.hosts) {
    HostSession s;
    s.host = &h;
    hosts_.push_back(std::move(s));
  }
  local_version_ = local_fio_version();
  rep["controller_fio_version"] = local_version_;
  std::string status = "COMPLETE";
  int exit = 3;
  json::array tests;
  if (local_version_.empty()) {
    rep["error"] = "fio is not installed on the controller (install fio)";
    status = "REFUSED";
    exit = 2;
  } else if (hold_hosts(rep, status, exit)) {
    rep_ = &rep;
    run_phases(o_.suite, *this);  // fio's executor never stops the sequence early: it cannot purge
    tests = std::move(tests_);
    const bool interrupted = interrupted_.load();
    if (!complete_ || interrupted) status = "INCOMPLETE";
    if (interrupted) rep["interrupted"] = true;
    const bool measurement_only = !o_.profile && !o_.host_profile;
    const bool aborted = status != "COMPLETE";
    const VerdictStatus overall = statuses_.empty() ? VerdictStatus::not_judged : rollup_overall(statuses_);
    rep["verdict"] = aborted ? "ERROR" : std::string(to_string(overall));
    exit = exit_code(overall, aborted, measurement_only);
  }
  shut_down();
  // A run refused or stopped before its tests has no verdict of its own: it measured nothing, so it
  // is an ERROR, as a run stopped mid-way is (every report has a verdict; README "Multi-host runs").
  if (!rep.contains("verdict")) rep["verdict"] = "ERROR";
  if (!leftovers_.empty()) {
    rep["left_running"] = leftovers_;
    if (exit == 0 || exit == 1 || exit == 4) exit = 3;
    status = "INCOMPLETE";
    rep["verdict"] = "ERROR";
  }
  json::array hosts;
  for (const HostSession& s : hosts_) hosts.push_back(host_json(s));
  rep["hosts"] = std::move(hosts);
  rep["tests"] = std::move(tests);
  rep["status"] = status;
  rep["exit_code"] = exit;
  rep["finished"] = utc_now_iso8601();
  std::error_code ec;
  fs::remove_all(work_, ec);
  r.exit_code = exit;
  return r;
}

}  // namespace

HostsRunResult run_hosts(const HostsOptions& options, const HostsEvents& events, const std::atomic<bool>& interrupted) {
  Controller c(options, events, interrupted);
  return c.run();
}

}  // namespace diskvet::runner
