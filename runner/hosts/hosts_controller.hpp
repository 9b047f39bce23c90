// The multi-host controller, shared by the files of the room that make it: fio's executor of the
// suite's phases (hosts_run.cpp), one fio run across the hosts (hosts_fio_run.cpp) and the host
// bookkeeping around them (host_sessions.cpp). Not included outside runner/hosts/.
#pragma once

#include <fmt/format.h>
#include <boost/json.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/child_process.hpp"
#include "runner/analysis/verdict.hpp"
#include "runner/hosts/fio_output.hpp"
#include "runner/hosts/host_gate.hpp"
#include "runner/hosts/hosts_merge.hpp"
#include "runner/hosts/hosts_progress.hpp"
#include "runner/hosts/hosts_rounds.hpp"
#include "runner/hosts/hosts_run.hpp"
#include "runner/hosts/hosts_workload.hpp"
#include "runner/run/phase_sequence.hpp"
#include "runner/run/suite_run.hpp"

namespace diskvet::runner {

namespace json = boost::json;

// A whole file as bytes (empty when it cannot be read).
std::string read_file(const std::string& path);
// The last line of a text, without its line end.
std::string last_line(std::string text);

struct HostSession {
  const Host* host = nullptr;
  std::string local_sock;  // relative to the work folder: fio names the host by it
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

// The multi-host run: fio's executor of the suite's phases (runner/run/phase_sequence.hpp) across
// the hosts, plus its host bookkeeping (SSH sessions, fio servers, gates, lost hosts).
class HostsController final : public PhaseExecutor {
 public:
  HostsController(const HostsOptions& o, const HostsEvents& e, const std::atomic<bool>& interrupted)
      : o_(o), events_(e), interrupted_(interrupted) {}
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
  HostsWorkloadResult run_workload(const std::string& prefix, const suites::TestSpec& test, Workload w, bool& complete,
                                   double capacities = 0);
  // incomplete: which hosts wrote less than their target, or could not take part (empty: none).
  json::object precondition_hosts(bool& complete, std::string& incomplete);
  // unwritten: each device found unwritten and each host that could not be probed; found: whether a
  // probe that ran found space never written.
  json::object probe_hosts(std::string& unwritten, bool& found);
  // Rounds of w until `rounds` says they end; returns the last round.
  HostsWorkloadResult run_steady_rounds(const std::string& prefix, const suites::TestSpec& test, Workload w, bool& complete,
                                        HostsRounds& rounds);
  class WorkloadRun;
  std::vector<HostsWorkloadResult> run_matrix(const std::string& prefix, const suites::TestSpec& test, bool& complete,
                                              json::object& summary);
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
  double log_interval_override_s_ = 0;                 // warmup: the suite's interval
  bool own_runtime_ = false;                           // rounds and warmup: their runtime stands (--duration already applied)
  std::string detail_;                                 // what the run is within its test ("round 2 of at most 25"), for progress
  std::map<std::string, double> last_iops_;            // each host's IOPS in its last finished fio run
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

}  // namespace diskvet::runner
