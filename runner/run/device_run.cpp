// The phases of one device, in the order SNIA PTS prescribes: purge, preconditioning, then tests.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include <unistd.h>

#include "common/units.hpp"
#include "devices/health.hpp"
#include "runner/analysis/host_cpu.hpp"
#include "runner/io/seed.hpp"
#include "runner/run/capacity_probe.hpp"
#include "runner/run/io_error_report.hpp"
#include "runner/run/matrix_run.hpp"
#include "runner/run/phase_sequence.hpp"
#include "runner/run/precondition.hpp"
#include "runner/run/probe.hpp"
#include "runner/run/purge.hpp"
#include "runner/run/run_monitor.hpp"
#include "runner/run/self_test_step.hpp"
#include "runner/run/suite_run.hpp"
#include "runner/run/test_verdicts.hpp"
#include "runner/run/workload_run.hpp"
#include "runner/verify/verify_report.hpp"

namespace diskvet::runner {

namespace {

void add_health_facts(DeviceFacts& f, const std::optional<devices::Health>& h, const char* when) {
  if (!h || !h->known) return;
  for (const auto& p : h->problems) {
    f.unhealthy = true;
    f.health_problems.push_back(fmt::format("{} ({})", p, when));
  }
}

// What a device's blocks are stamped with: the name that follows the device, not its path.
std::string device_identity(const devices::Device& dv) { return !dv.serial.empty() ? dv.serial : !dv.wwn.empty() ? dv.wwn : dv.path; }

bool suite_verifies(const suites::Suite& s, uint32_t& bs_bytes) {
  for (const auto& t : s.tests)
    for (const auto& w : t.workloads)
      if (w.verify) {
        bs_bytes = w.bs_bytes;
        return true;
      }
  return false;
}

// A measured window's length: a quick suite's half second reads "0.5s", not format_duration's "0s".
std::string window_duration(double s) { return s < 10 ? fmt::format("{:.2g}s", s) : format_duration(s); }

// How far one test got, in words: passes written, or time run, against what was planned.
std::string test_progress(const TestRecord& t, const suites::TestSpec& spec, uint64_t region_bytes) {
  std::string s = t.id + ":";
  if (t.matrix) {
    size_t ran = 0, skipped = 0;
    for (const auto& w : t.workloads) ran += w.ran, skipped += !w.skipped.empty();
    return s + fmt::format(" {} of at most {} rounds of {} cells ({} skipped), {} cells measured", t.matrix->rounds_run, t.matrix->criteria.max_rounds,
                           t.workloads.size() - skipped, skipped, ran);
  }
  for (const auto& w : t.workloads) {
    const Measurement& m = w.result;
    uint64_t bytes = m.dir[0].bytes + m.dir[1].bytes;
    if (!w.ran) s += " not run" + (w.error.empty() ? std::string() : " (" + w.error + ")");
    else if (spec.passes > 0)
      s += fmt::format(" {:.3f} of {} pass{} ({}){}", static_cast<double>(bytes) / static_cast<double>(region_bytes), spec.passes,
                       spec.passes == 1 ? "" : "es", format_bytes(bytes), m.interrupted ? ", interrupted" : "");
    else
      s += fmt::format(" {} of {} ({}){}", window_duration(m.elapsed_s), window_duration(w.workload.runtime_s), format_bytes(bytes),
                       m.interrupted ? ", interrupted" : "");
    if (m.verify.enabled)
      s += fmt::format(", {} blocks verified, {} bad blocks found by {} reads", m.verify.blocks_verified, m.verify.bad_blocks, m.verify.mismatches);
  }
  return s;
}

// What the verifying jobs themselves hold beside the state (buffers, slots, in-flight sets,
// backlog), for the busiest verifying workload of the suite.
uint64_t verify_jobs_bytes(const suites::Suite& s) {
  uint64_t most = 0;
  for (const auto& t : s.tests)
    for (const auto& w : t.workloads)
      if (w.verify) most = std::max<uint64_t>(most, uint64_t{w.numjobs} * (w.bs_bytes + uint64_t{w.iodepth} * 64 + (16u << 10)));
  return most;
}

Result<VerifyLayout> layout_for(const Target& target, const suites::Suite& suite, uint64_t budget_bytes) {
  uint32_t bs = 0;
  if (!suite_verifies(suite, bs)) return VerifyLayout{};
  return plan_verify_layout(tested_region(target.info().size_bytes, suite).size_bytes, bs, budget_bytes, verify_jobs_bytes(suite));
}

// The drive's write counter against what was sent (devices/write_accounting.hpp): a counter that
// disagrees FAILs the device; another writer on this host makes its numbers INCONCLUSIVE. Not
// judged when a job was abandoned (its writes are missing from diskvet's count).
void judge_write_accounting(DeviceResult& res) {
  res.write_accounting = devices::account_writes(*res.health_before, *res.health_after, res.bytes_sent, res.passthrough_bytes_sent);
  if (!res.write_accounting) return;
  const devices::WriteAccounting& a = *res.write_accounting;
  if (a.fails()) {
    res.facts.unhealthy = true;
    res.facts.health_problems.push_back(a.words + " (during the run)");
  }
  if (!a.other_writer.empty()) res.facts.mark_inconclusive(a.other_writer);
}

// SATA/SAS counters that grew during the run (devices/smart_counters.hpp): failure predictors FAIL
// the device; interface CRC errors make it INCONCLUSIVE (a link fault, not the drive).
void judge_smart_counters(DeviceResult& res) {
  res.smart_counters = devices::review_smart_counters(*res.health_before, *res.health_after);
  if (!res.smart_counters) return;
  for (const auto& p : res.smart_counters->problems) {
    res.facts.unhealthy = true;
    res.facts.health_problems.push_back(p);
  }
  for (const auto& p : res.smart_counters->inconclusive) res.facts.mark_inconclusive(p);
}

// SATA/SAS error and self-test log entries the run added (devices/smart_logs.hpp): media and data
// errors and failed self-tests FAIL the device; the rest are listed with why.
void judge_smart_logs(DeviceResult& res) {
  res.smart_logs = devices::review_smart_logs(*res.health_before, *res.health_after);
  if (!res.smart_logs) return;
  for (const auto& p : res.smart_logs->problems) {
    res.facts.unhealthy = true;
    res.facts.health_problems.push_back(p + " (during the run)");
  }
}

}  // namespace

Region tested_region(uint64_t device_bytes, const suites::Suite& suite) {
  uint64_t size = device_bytes;
  if (suite.region_bytes) size = std::min(size, suite.region_bytes);
  return Region{0, size / (1u << 20) * (1u << 20)};
}

Status plan_verify_memory(RunPlan& plan) {
  const uint64_t share = plan.options.parallel && plan.devices.size() > 1 ? plan.options.verify_memory_bytes / plan.devices.size()
                                                                         : plan.options.verify_memory_bytes;
  for (auto& d : plan.devices) {
    if (!d.target.writable()) continue;  // verification state exists only for a device the run writes
    auto l = layout_for(d.target, plan.suite, share);
    if (!l) {
      Error e = l.error();
      e.subject = d.device.path;
      e.what += fmt::format(" (the run's budget is {}{})", format_bytes(plan.options.verify_memory_bytes),
                            share == plan.options.verify_memory_bytes ? "" : fmt::format(", {} per device in parallel", format_bytes(share)));
      return e;
    }
    d.verify_layout = *l;
  }
  return ok_status();
}

namespace {

// One device's run: the executor of the suite's phases (phase_sequence.hpp) on diskvet's engine, a
// method per phase, which run_phases calls in the one order; then finish(), which rolls up the
// verdict. A device that cannot go on ends through stop().
class DeviceRun final : public PhaseExecutor {
 public:
  DeviceRun(DevicePlan& d, const suites::Suite& suite, const RunOptions& opt, const RunHooks& hooks, RunEvents& ev)
      : d_(d), suite_(suite), opt_(opt), hooks_(hooks), ev_(ev), dev_(d.device.path), target_(d.target), writable_(d.target.writable()),
        seeds_(d.seed), region_(tested_region(d.target.info().size_bytes, suite)), profile_(d.profile ? &*d.profile : nullptr),
        no_limits_reason_(opt.measurement_only ? "measurement only (--profile none)"
                          : profile_           ? fmt::format("profile {} sets no limits for this test", profile_->name)
                                               : "no profile: " + d.profile_reason) {}

  DeviceResult run(const std::optional<devices::SelfTestOutcome>& self_test_before) {
    start();
    // The tested region: whole MiBs, so every block size of the suite divides it.
    if (region_.size_bytes == 0) return stop(fmt::format("{} is smaller than 1 MiB: nothing to test", format_bytes(target_.info().size_bytes)));
    if (auto error = prepare_verification(); !error.empty()) {
      ev_.on_log(LogLevel::error, dev_, error);
      return stop(error);
    }
    self_test_before_ = self_test_before;
    if (PhaseSequenceEnd end = run_phases(suite_, *this); !end.stopped.empty()) return stop(end.stopped);
    return finish();
  }

  // The phases (PhaseExecutor), in the order run_phases calls them.
  bool stopped() const override { return (opt_.stop && opt_.stop->load()) || res_.watchdog.abandoned; }

  std::string cannot(SuitePhase phase) const override {
    const bool writes = phase == SuitePhase::address_probe || phase == SuitePhase::precondition;
    return writes && !writable_ ? "the device was not opened for writing (no consent)" : "";
  }

  void skipped(SuitePhase phase, const std::string& why) override {
    if (phase == SuitePhase::precondition) res_.precondition.reason = "not preconditioned: " + why;
    else res_.phases_not_run.push_back(PhaseNotRun{std::string(to_string(phase)), why});
  }

  void health_before() override { read_health_before(self_test_before_); }

  void probe_addresses() override;

  std::string purge() override {
    ev_.on_phase(PhaseEvent{dev_, Phase::purge, "", -1, ""});
    res_.purge = runner::purge(d_, region_, hooks_, ev_);
    ev_.on_log(res_.purge.failed ? LogLevel::error : LogLevel::info, dev_, "purge: " + res_.purge.method + " (" + res_.purge.detail + ")");
    if (!res_.purge.failed) return "";
    // A purge that started and did not finish leaves the device in no state worth measuring
    // (a sanitize may still be running, failing every I/O): this device's run stops here.
    if (hooks_.read_health) res_.health_after = hooks_.read_health(d_.device);
    return "purge " + res_.purge.method + " did not complete: " + res_.purge.detail;
  }

  PreconditionOutcome precondition(const std::string& why) override {
    precondition_region(why);
    const PreconditionRecord& p = res_.precondition;
    return PreconditionOutcome{p.performed, p.completed,
                               fmt::format("preconditioning incomplete: {:.2f} of {:.2f} capacities written", p.capacities_written,
                                           suite_.precondition.capacities)};
  }

  std::string precondition_not_done() const override { return "preconditioning required but not done: " + res_.precondition.reason; }

  UnwrittenOutcome probe_unwritten() override;

  UnwrittenOutcome unwritten_after(const PreconditionOutcome&, const UnwrittenOutcome& before) override {
    res_.probe.filled_after = res_.precondition.capacities_written >= 1.0;
    return res_.probe.filled_after ? UnwrittenOutcome{} : before;
  }

  void tests_starting(const PhaseFindings& findings) override;

  void run_test(const suites::TestSpec& spec) override { run_test(spec, *monitor_); }

  void health_after() override;

 private:
  void start() {
    res_.device = d_.device;
    res_.started = utc_now_iso8601();
    res_.rate_cap_iops = d_.rate_cap_iops;
    if (profile_) {
      res_.profile_name = profile_->name;
      res_.profile_file = profile_->file;
      res_.profile_source = profile_->source;
    }
    res_.profile_reason = d_.profile_reason;
    res_.fast_path = d_.fast_path;
    res_.tested_bytes = region_.size_bytes;
  }

  // The device's run ends here, with what it has: ERROR, naming why.
  DeviceResult stop(const std::string& error) {
    res_.facts.aborted = true;
    res_.facts.error = error;
    res_.verdict = rollup_device({}, res_.facts);
    res_.finished = utc_now_iso8601();
    ev_.on_device_verdict(DeviceVerdictEvent{dev_, res_.verdict});
    return std::move(res_);
  }

  // Verification state lives for the whole device run (the full write sets every block's
  // generation, later phases check against it). Sized and allocated before anything is written:
  // a state that does not fit stops this device with a report, never an abort. Why not, or empty.
  std::string prepare_verification() {
    uint32_t verify_bs = 0;
    res_.facts.verifies = suite_verifies(suite_, verify_bs);
    if (!res_.facts.verifies || !writable_) return "";
    Result<VerifyLayout> layout = d_.verify_layout ? Result<VerifyLayout>(*d_.verify_layout) : layout_for(target_, suite_, opt_.verify_memory_bytes);
    const std::string identity = device_identity(d_.device);
    uint64_t seed = static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) ^ identity_hash(identity);
    auto state = layout ? VerifyState::create(*layout, region_.offset_bytes, target_.info().logical_block_size, identity_hash(identity), seed,
                                              static_cast<uint64_t>(suite_.monitor.latency_outlier_s * 1e9))
                        : Result<std::unique_ptr<VerifyState>>(layout.error());
    if (!state) return state.error().message();
    verify_ = std::move(*state);
    res_.verify.layout = verify_->layout();
    return "";
  }

  void read_health_before(const std::optional<devices::SelfTestOutcome>& self_test_before) {
    ev_.on_phase(PhaseEvent{dev_, Phase::health_before, "", -1, ""});
    if (hooks_.read_health) res_.health_before = hooks_.read_health(d_.device);
    res_.self_test_before = self_test_before;
    if (self_test_before)
      if (auto r = self_test_rollup(*self_test_before, "before")) test_rollups_.push_back(*r);
  }

  void precondition_region(const std::string& why) {
    const double limit_s = opt_.precondition_limit_s.value_or(suite_.precondition.limit_s);
    ev_.on_phase(PhaseEvent{dev_, Phase::precondition, "", -1, why});
    res_.precondition = runner::precondition(target_, region_, suite_.precondition, limit_s, ev_, dev_, opt_.stop, seeds_.next());
    res_.bytes_sent += res_.precondition.bytes_sent;
    if (res_.precondition.reason.empty()) res_.precondition.reason = why;
    else res_.precondition.reason = why + "; " + res_.precondition.reason;
  }

  WorkloadContext context(const suites::Suite& suite, const suites::TestSpec& spec, size_t i, const FastPath* fast_path) {
    return WorkloadContext{target_, region_, suite, spec, i, d_.rate_cap_iops, opt_.duration_s, ev_, dev_, opt_.stop, verify_.get(), &res_.watchdog, &seeds_,
                           &res_.bytes_sent, fast_path, &res_.passthrough_bytes_sent, hooks_.sampler_clock};
  }

  void run_test(const suites::TestSpec& spec, RunMonitor& monitor) {
    TestRecord t;
    t.id = spec.id;
    t.description = spec.description;
    auto refuse_write = [&](const runner::Workload& w) {
      WorkloadRecord r;
      r.workload = w;
      r.error = "a write workload needs the device opened for writing (--destroy-data)";
      t.workloads.push_back(std::move(r));
    };
    if (spec.matrix) {
      // Every cell in every round: one unit, steady state decided on the tracked cell.
      if (!writable_) {
        for (const auto& w : spec.workloads) refuse_write(w);
      } else {
        WorkloadContext c = context(suite_, spec, 0, &d_.fast_path);
        MatrixRecord mx;
        monitor.workload_starting();
        std::vector<WorkloadRecord> cells = run_matrix_test(c, mx);
        for (auto& r : cells) {
          monitor.workload_done(spec.id, r);
          account(spec, std::move(r), t.workloads);
        }
        t.matrix = std::move(mx);
      }
    }
    for (size_t i = 0; !spec.matrix && i < spec.workloads.size() && !stopped(); ++i) {
      if (writes(spec.workloads[i].rw) && !writable_) {
        refuse_write(spec.workloads[i]);
        continue;
      }
      WorkloadContext c = context(suite_, spec, i, &d_.fast_path);
      monitor.workload_starting();
      WorkloadRecord r = run_test_workload(c);
      monitor.workload_done(spec.id, r);
      account(spec, std::move(r), t.workloads);
    }
    if (&spec == &suite_.tests.front() && d_.fast_path.asked && suite_.fast_path.compare_block_path && !spec.matrix) run_on_block_path(spec, t);
    judge(spec, t);
  }

  // The first test once more on the block path, where the fast path changed how it ran: the two
  // side by side in the report (never judged; errors, stalls and mismatches count as anywhere).
  void run_on_block_path(const suites::TestSpec& spec, TestRecord& t) {
    suites::Suite plain = suite_;  // one window each: warmup and steady state were the fast path's
    plain.warmup.enabled = false;
    plain.steady_state.enabled = false;
    for (size_t i = 0; i < spec.workloads.size() && !stopped(); ++i) {
      const Workload& asked = spec.workloads[i];
      const Workload fast = apply_fast_path(asked, d_.fast_path, target_.info());
      if ((writes(asked.rw) && !writable_) || (fast.engine == asked.engine && fast.hipri == asked.hipri)) continue;
      ev_.on_log(LogLevel::info, dev_, fmt::format("{}: {} once more on the block path, beside the fast path", spec.id, describe(asked)));
      WorkloadContext c = context(plain, spec, i, nullptr);
      account(spec, run_test_workload(c), t.block_path);
    }
  }

  // What each workload's record adds to the device's: errors, mismatches, CPU, pauses, missing steady state.
  void account(const suites::TestSpec& spec, WorkloadRecord r, std::vector<WorkloadRecord>& into) {
    if (r.result.stall_count)
      ev_.on_log(LogLevel::error, dev_, fmt::format("{}: {} I/O{} past io_timeout{}", spec.id, r.result.stall_count, r.result.stall_count == 1 ? "" : "s",
                                                    r.result.abandoned ? ", one never came back: the device's run stops" : ""));
    if (!r.error.empty()) ev_.on_log(LogLevel::error, dev_, fmt::format("{}: {}", spec.id, r.error));
    if (const auto& pauses = r.result.pauses; !pauses.empty()) {
      double paused_s = 0;
      for (const Pause& p : pauses) paused_s += p.dur_s;
      const std::string why = fmt::format(
          "diskvet itself did not run for {:.1f} s during {} ({}from {:.1f} s into it: its process stopped, its VM paused, or the host "
          "starved it): the I/Os out then were not judged as stalls, and their latencies hold the pause",
          paused_s, spec.id, pauses.size() == 1 ? "" : fmt::format("{} pauses, the first ", pauses.size()), pauses.front().at_s);
      ev_.on_log(LogLevel::warning, dev_, why);
      res_.facts.mark_inconclusive(why);
    }
    res_.facts.io_errors += r.result.io_errors;
    if (r.result.io_errors) {
      // The run goes on (the next tests, the other devices); the device FAILs naming its first error.
      std::vector<DeviceIoError> these;
      keep_first_io_errors(these, spec.id, r.result, target_.info().logical_block_size);
      for (const auto& e : these)
        if (res_.first_io_errors.size() < kMaxDeviceIoErrors) res_.first_io_errors.push_back(e);
      if (res_.facts.io_error_detail.empty() && !res_.first_io_errors.empty()) res_.facts.io_error_detail = describe_io_error(res_.first_io_errors.front());
      ev_.on_log(LogLevel::error, dev_, fmt::format("{} I/O error{}{}", r.result.io_errors, r.result.io_errors == 1 ? "" : "s",
                                                    these.empty() ? "" : ", first: " + describe_io_error(these.front())));
    }
    if (r.result.verify.mismatches) {
      if (res_.verify.mismatches == 0) {
        const BlockMismatch& m = r.result.verify.first.front();
        res_.facts.verify_detail = fmt::format("{} at LBA {} in {}: {}", to_string(m.kind), m.expected.lba, spec.id, describe_mismatch(m));
      }
      ev_.on_log(LogLevel::error, dev_, fmt::format("{}: {} new bad blocks, {} reads found bad blocks", spec.id, r.result.verify.bad_blocks,
                                                    r.result.verify.mismatches));
    }
    res_.verify.merge(r.result.verify);
    res_.job_cpu_s += r.result.usr_cpu_s + r.result.sys_cpu_s;
    res_.facts.verify_mismatches = res_.verify.mismatches;
    res_.facts.verify_bad_blocks = res_.verify.bad_blocks;
    res_.facts.verified_blocks = res_.verify.blocks_verified;
    if (r.steady_required && !(r.steady_state && r.steady_state->attained) && r.ran) {
      res_.facts.required_missing = true;
      if (res_.facts.required_missing_reason.empty())
        res_.facts.required_missing_reason = fmt::format("{}: steady state required and not attained", spec.id);
    }
    into.push_back(std::move(r));
  }

  void judge(const suites::TestSpec& spec, TestRecord& t) {
    ev_.on_phase(PhaseEvent{dev_, Phase::verdict, spec.id, -1, ""});
    const suites::TestLimits* limits = nullptr;
    if (profile_)
      for (const auto& tl : profile_->tests)
        if (tl.test_id == spec.id) limits = &tl;
    res_.progress.push_back(test_progress(t, spec, region_.size_bytes));
    t.verdicts = judge_test(t, limits, trust_);
    t.verdict = rollup_test(t, limits, no_limits_reason_);
    for (const auto& v : t.verdicts) ev_.on_verdict(dev_, v);
    test_rollups_.push_back(t.verdict);
    res_.tests.push_back(std::move(t));
  }

  // Health after the run against before.
  void read_health_after() {
    if (hooks_.read_health) res_.health_after = hooks_.read_health(d_.device);
    add_health_facts(res_.facts, res_.health_before, "before the run");
    add_health_facts(res_.facts, res_.health_after, "after the run");
    if (res_.health_before && res_.health_after) {
      devices::HealthDelta delta = devices::health_delta(*res_.health_before, *res_.health_after);
      for (const auto& p : delta.problems) {
        res_.facts.unhealthy = true;
        res_.facts.health_problems.push_back(p + " (during the run)");
      }
      if (!res_.watchdog.abandoned) judge_write_accounting(res_);
      res_.error_log = devices::review_error_log(*res_.health_before, *res_.health_after);
      if (res_.error_log)
        for (const auto& p : res_.error_log->problems) {
          res_.facts.unhealthy = true;
          res_.facts.health_problems.push_back("error log: " + p + " (during the run)");
        }
      judge_smart_counters(res_);
      judge_smart_logs(res_);
      res_.write_amplification = devices::write_amplification(*res_.health_before, *res_.health_after);
    }
  }

  // Whether the run completed, and the device's verdict.
  DeviceResult finish() {
    res_.completed = !stopped() && res_.tests.size() == suite_.tests.size();
    if (!res_.completed) {
      res_.facts.aborted = true;
      res_.facts.error = res_.watchdog.abandoned ? res_.watchdog.abandon_detail : "interrupted";
    }
    res_.verdict = rollup_device(test_rollups_, res_.facts);
    res_.finished = utc_now_iso8601();
    ev_.on_device_verdict(DeviceVerdictEvent{dev_, res_.verdict});
    return std::move(res_);
  }

  DevicePlan& d_;
  const suites::Suite& suite_;
  const RunOptions& opt_;
  const RunHooks& hooks_;
  RunEvents& ev_;
  const std::string& dev_;
  const Target& target_;
  const bool writable_;
  SeedSequence seeds_;  // one per engine run on this device, in the order they run
  const Region region_;
  const suites::Profile* profile_;
  const std::string no_limits_reason_;  // why a test without limits is not judged
  DeviceResult res_;
  std::unique_ptr<VerifyState> verify_;
  std::vector<Rollup> test_rollups_;
  TrustFacts trust_;
  std::optional<devices::SelfTestOutcome> self_test_before_;
  // The watch over the tests, from tests_starting() to health_after().
  std::optional<KernelLogWatch> kernel_log_;
  std::optional<RunMonitor> monitor_;
  std::optional<CpuTimes> host_cpu_before_;
  std::chrono::steady_clock::time_point host_cpu_start_;
};

// Every address is real storage before anything is measured on it: first on a device the run writes.
void DeviceRun::probe_addresses() {
  ev_.on_phase(PhaseEvent{dev_, Phase::capacity_probe, "", -1, ""});
  std::string error;
  // A seed of its own, off the sequence the engine runs take, so their seeds stay as they were.
  const uint64_t probe_seed = derive_seed(seeds_.base(), ~uint64_t{0});
  res_.capacity_probe = probe_capacity(target_, device_identity(d_.device), probe_seed, suite_.address_probe, ev_, dev_, opt_.stop, error);
  res_.bytes_sent += res_.capacity_probe->bytes_written;  // written outside the engine: the write accounting counts it here
  test_rollups_.push_back(capacity_probe_rollup(*res_.capacity_probe, error));
  const Rollup& v = test_rollups_.back();
  ev_.on_log(v.status == VerdictStatus::pass ? LogLevel::info : LogLevel::error, dev_,
             v.reasons.empty() ? "capacity probe: " + res_.capacity_probe->summary() : v.reasons.front());
}

// Reads of space never written measure nothing: the probe reads sampled blocks of the region. A
// probe that cannot run fails closed (reads of space nobody checked are not trusted either), but
// asks for no preconditioning.
UnwrittenOutcome DeviceRun::probe_unwritten() {
  ev_.on_phase(PhaseEvent{dev_, Phase::probe, "", -1, ""});
  auto probe = runner::probe_unwritten(target_, region_, suite_.probe.samples, suite_.probe.max_zero_pct);
  if (!probe) {
    res_.probe.detail = probe.error().message();
    ev_.on_log(LogLevel::warning, dev_, "probe: " + res_.probe.detail);
    return UnwrittenOutcome{true, false, "the unwritten-space probe could not run (" + res_.probe.detail + ")"};
  }
  res_.probe = *probe;
  if (!res_.probe.unwritten) return {};
  ev_.on_log(LogLevel::warning, dev_, "probe: " + res_.probe.detail);
  return UnwrittenOutcome{
      true, true,
      fmt::format("the region was never written ({} of {} sampled blocks read zeros)", res_.probe.zero_samples, res_.probe.samples)};
}

// What the phases before found that the tests cannot trust; then the watch over the tests begins:
// health polls and slowdowns (RunMonitor), the kernel's lines about this device (its own name, its
// controller, its ATA link), the host's CPU.
void DeviceRun::tests_starting(const PhaseFindings& findings) {
  if (!findings.region_unwritten.empty()) {
    trust_.region_unwritten = true;
    trust_.unwritten_detail = findings.region_unwritten;
  }
  if (!findings.precondition_missing.empty()) {
    trust_.precondition_missing = true;
    trust_.precondition_detail = findings.precondition_missing;
    res_.facts.mark_inconclusive(trust_.precondition_detail);
  }
  std::error_code ec;
  const std::string sysfs = d_.device.name.empty() ? "" : std::filesystem::canonical("/sys/block/" + d_.device.name, ec).string();
  kernel_log_.emplace(kernel_names(d_.device.name.empty() ? std::filesystem::path(dev_).filename().string() : d_.device.name,
                                   d_.device.nvme_controller, sysfs));
  monitor_.emplace(suite_.monitor, hooks_, d_.device, profile_);
  host_cpu_before_ = read_host_cpu();
  host_cpu_start_ = std::chrono::steady_clock::now();
}

// What the watch over the tests found; then health after the run against before (new media errors,
// error-log entries, throttling, counters, the write accounting).
void DeviceRun::health_after() {
  for (size_t i = res_.tests.size(); i < suite_.tests.size(); ++i) res_.progress.push_back(suite_.tests[i].id + ": not started");
  ev_.on_phase(PhaseEvent{dev_, Phase::health_after, "", -1, ""});
  monitor_->finish(res_);
  res_.kernel_log = kernel_log_->finish();
  monitor_.reset();  // the watch ends with the tests (its poller with it)
  kernel_log_.reset();
  const std::optional<uint64_t> max_stalls = profile_ ? profile_->burnin.max_stalls : std::nullopt;
  for (auto& p : watchdog_problems(res_.watchdog, max_stalls, res_.kernel_log)) res_.facts.run_problems.push_back(std::move(p));
  // Stalls beyond what the profile allows fail the device, and each test they happened in shows FAIL
  // too: a test whose I/O hung never reads PASS on the page, whatever its numbers.
  if (res_.watchdog.stall_count > max_stalls.value_or(0))
    for (auto& t : res_.tests)
      if (auto it = res_.watchdog.stalls_by_test.find(t.id); it != res_.watchdog.stalls_by_test.end()) {
        t.verdict.status = std::max(t.verdict.status, VerdictStatus::fail);
        t.verdict.reasons.push_back(fmt::format("{}: {} I/O{} out longer than io_timeout {} s", t.id, it->second,
                                                it->second == 1 ? "" : "s", res_.watchdog.io_timeout_s));
      }
  if (auto after = read_host_cpu(); after && host_cpu_before_) {
    res_.host_cpu = host_cpu_share(*host_cpu_before_, *after, sysconf(_SC_CLK_TCK));
    res_.host_cpu_window_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - host_cpu_start_).count();
  }
  for (const auto& p : res_.facts.run_problems) ev_.on_log(LogLevel::error, dev_, p);
  read_health_after();
}

}  // namespace

DeviceResult run_device(DevicePlan& d, const suites::Suite& suite, const RunOptions& opt, const RunHooks& hooks, RunEvents& ev,
                        const std::optional<devices::SelfTestOutcome>& self_test_before) {
  return DeviceRun(d, suite, opt, hooks, ev).run(self_test_before);
}

}  // namespace diskvet::runner
