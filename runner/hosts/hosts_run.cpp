// The controller of a multi-host run: fio's executor of the suite's phases across the hosts
// (preconditioning, the unwritten-space probe, warmup, rounds, sweeps, matrices, verdicts) and run().
#include "runner/hosts/hosts_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <span>

#include "common/units.hpp"
#include "diskvet/version.hpp"
#include "runner/analysis/steady_state.hpp"
#include "runner/hosts/fio_job.hpp"
#include "runner/hosts/hosts_controller.hpp"
#include "runner/hosts/hosts_verdicts.hpp"
#include "runner/report/report_json.hpp"
#include "runner/report/report_schema.hpp"

namespace diskvet::runner {

namespace fs = std::filesystem;

// SNIA PTS 3.3 on the array: the workload repeats in rounds of round_s (each one fio run across the
// hosts) until the merged rounds are steady (IOPS, or the merged mean latency for latency tests), as
// `rounds` decides; the last round stands for the workload. Only the first round ramps (the local
// runner's rounds follow each other without one). Required and not attained: the result is not judged.
HostsWorkloadResult HostsController::run_steady_rounds(const std::string& prefix, const suites::TestSpec& test, Workload w, bool& complete,
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
class HostsController::WorkloadRun final : public WorkloadPhaseExecutor {
 public:
  WorkloadRun(HostsController& c, std::string prefix, const suites::TestSpec& test, const Workload& w)
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
  HostsController& c_;
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
std::vector<HostsWorkloadResult> HostsController::run_matrix(const std::string& prefix, const suites::TestSpec& test, bool& complete,
                                                             json::object& summary) {
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
json::object HostsController::warm_up(const std::string& prefix, const suites::TestSpec& test, Workload w, bool& complete) {
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
json::object HostsController::probe_hosts(std::string& unwritten, bool& found) {
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
json::object HostsController::precondition_hosts(bool& complete, std::string& incomplete) {
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

// What fio's client/server cannot do across hosts: the phases that need diskvet's engine or the
// drive itself on each host.
std::string HostsController::cannot(SuitePhase phase) const {
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
void HostsController::skipped(SuitePhase phase, const std::string& why) {
  json::value& v = (*rep_)["phases_not_run"];
  if (!v.is_array()) v = json::array();
  v.as_array().push_back(json::object{{"phase", to_string(phase)}, {"why", why}});
  say("", fmt::format("not run: {}: {}", to_string(phase), why));
}

// One preconditioning for whatever reason (the suite asks, or the probe found unwritten space: the
// probe's line said so); precondition_hosts says what it writes.
PreconditionOutcome HostsController::precondition(const std::string&) {
  std::string incomplete;
  (*rep_)["precondition"] = precondition_hosts(complete_, incomplete);
  return PreconditionOutcome{true, incomplete.empty(), "preconditioning required and incomplete: " + incomplete};
}

UnwrittenOutcome HostsController::probe_unwritten() {
  std::string unwritten;
  bool found = false;
  (*rep_)["probe"] = probe_hosts(unwritten, found);
  if (unwritten.empty()) return {};
  say("", "probe: " + unwritten);
  return UnwrittenOutcome{true, found, "unwritten space would be read: " + unwritten};
}

// The probe after the preconditioning says whether the space is written now: its answer, not what
// the preconditioning reported, decides.
UnwrittenOutcome HostsController::unwritten_after(const PreconditionOutcome&, const UnwrittenOutcome&) { return probe_unwritten(); }

// Required preconditioning incomplete comes first (it is closest to the measurement), then unwritten
// space: either makes every test NOT-EVALUATED.
void HostsController::tests_starting(const PhaseFindings& findings) {
  required_missing_ = !findings.precondition_missing.empty() ? findings.precondition_missing : findings.region_unwritten;
  if (!required_missing_.empty()) {
    (*rep_)["not_judged"] = required_missing_;
    say("", "not judged: " + required_missing_);
  }
}

// One workload of a test as the suite runs it: a sweep, steady-state rounds, or one run; read
// workloads warm the caches first where the suite asks.
HostsWorkloadResult HostsController::run_test_workload(const std::string& prefix, const suites::TestSpec& test, const Workload& w) {
  WorkloadRun x(*this, prefix, test, w);
  run_workload_phases(o_.suite, test, w, x);
  return std::move(x).result();
}

// Per-host limits (--host-profile): every host judged on its own numbers; the worst host counts for
// the test (its statuses join `statuses`).
json::object HostsController::judge_per_host(const suites::TestSpec& test, const std::vector<HostsWorkloadResult>& done, bool complete,
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
void HostsController::run_test(const suites::TestSpec& test) {
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

HostsRunResult HostsController::run() {
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

HostsRunResult run_hosts(const HostsOptions& options, const HostsEvents& events, const std::atomic<bool>& interrupted) {
  HostsController c(options, events, interrupted);
  return c.run();
}

}  // namespace diskvet::runner
