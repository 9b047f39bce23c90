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

bool suite_reads(const suites::Suite& s) {
  for (const auto& t : s.tests)
    for (const auto& w : t.workloads)
      if (reads(w.rw)) return true;
  return false;
}

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

DeviceResult run_device(DevicePlan& d, const suites::Suite& suite, const RunOptions& opt, const RunHooks& hooks, RunEvents& ev,
                        const std::optional<devices::SelfTestOutcome>& self_test_before) {
  DeviceResult res;
  res.device = d.device;
  res.started = utc_now_iso8601();
  res.rate_cap_iops = d.rate_cap_iops;
  if (d.profile) {
    res.profile_name = d.profile->name;
    res.profile_file = d.profile->file;
    res.profile_source = d.profile->source;
  }
  res.profile_reason = d.profile_reason;
  res.fast_path = d.fast_path;
  const std::string& dev = d.device.path;
  const Target& target = d.target;
  const bool writable = target.writable();
  auto stopped = [&] { return opt.stop && opt.stop->load(); };
  SeedSequence seeds(d.seed);  // one per engine run on this device, in the order they run

  // The tested region: whole MiBs, so every block size of the suite divides it.
  const Region region = tested_region(target.info().size_bytes, suite);
  res.tested_bytes = region.size_bytes;
  if (region.size_bytes == 0) {
    res.facts.aborted = true;
    res.facts.error = fmt::format("{} is smaller than 1 MiB: nothing to test", format_bytes(target.info().size_bytes));
    res.verdict = rollup_device({}, res.facts);
    return res;
  }

  // Verification state lives for the whole device run (the full write sets every block's
  // generation, later phases check against it). Sized and allocated before anything is written:
  // a state that does not fit stops this device with a report, never an abort.
  std::unique_ptr<VerifyState> verify;
  uint32_t verify_bs = 0;
  res.facts.verifies = suite_verifies(suite, verify_bs);
  if (res.facts.verifies && writable) {
    Result<VerifyLayout> layout = d.verify_layout ? Result<VerifyLayout>(*d.verify_layout) : layout_for(target, suite, opt.verify_memory_bytes);
    const std::string identity = device_identity(d.device);
    uint64_t seed = static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) ^ identity_hash(identity);
    auto state = layout ? VerifyState::create(*layout, region.offset_bytes, target.info().logical_block_size, identity_hash(identity), seed,
                                              static_cast<uint64_t>(suite.monitor.latency_outlier_s * 1e9))
                        : Result<std::unique_ptr<VerifyState>>(layout.error());
    if (!state) {
      res.facts.aborted = true;
      res.facts.error = state.error().message();
      ev.on_log(LogLevel::error, dev, res.facts.error);
      res.verdict = rollup_device({}, res.facts);
      res.finished = utc_now_iso8601();
      ev.on_device_verdict(DeviceVerdictEvent{dev, res.verdict});
      return res;
    }
    verify = std::move(*state);
    res.verify.layout = verify->layout();
  }

  ev.on_phase(PhaseEvent{dev, Phase::health_before, "", -1, ""});
  if (hooks.read_health) res.health_before = hooks.read_health(d.device);

  // Every address is real storage before anything is measured on it: first on a device the run writes.
  std::vector<Rollup> test_rollups;
  res.self_test_before = self_test_before;
  if (self_test_before)
    if (auto r = self_test_rollup(*self_test_before, "before")) test_rollups.push_back(*r);
  if (suite.address_probe.enabled && writable && !stopped()) {
    ev.on_phase(PhaseEvent{dev, Phase::capacity_probe, "", -1, ""});
    std::string error;
    // A seed of its own, off the sequence the engine runs take, so their seeds stay as they were.
    const uint64_t probe_seed = derive_seed(seeds.base(), ~uint64_t{0});
    res.capacity_probe = probe_capacity(target, device_identity(d.device), probe_seed, suite.address_probe, ev, dev, opt.stop, error);
    res.bytes_sent += res.capacity_probe->bytes_written;  // written outside the engine: the write accounting counts it here
    test_rollups.push_back(capacity_probe_rollup(*res.capacity_probe, error));
    const Rollup& v = test_rollups.back();
    ev.on_log(v.status == VerdictStatus::pass ? LogLevel::info : LogLevel::error, dev,
              v.reasons.empty() ? "capacity probe: " + res.capacity_probe->summary() : v.reasons.front());
  }

  if (suite.purge && !stopped()) {
    ev.on_phase(PhaseEvent{dev, Phase::purge, "", -1, ""});
    res.purge = purge(d, region, hooks, ev);
    ev.on_log(res.purge.failed ? LogLevel::error : LogLevel::info, dev, "purge: " + res.purge.method + " (" + res.purge.detail + ")");
    if (res.purge.failed) {
      // A purge that started and did not finish leaves the device in no state worth measuring
      // (a sanitize may still be running, failing every I/O): this device's run stops here.
      res.facts.aborted = true;
      res.facts.error = "purge " + res.purge.method + " did not complete: " + res.purge.detail;
      if (hooks.read_health) res.health_after = hooks.read_health(d.device);
      res.verdict = rollup_device({}, res.facts);
      res.finished = utc_now_iso8601();
      ev.on_device_verdict(DeviceVerdictEvent{dev, res.verdict});
      return res;
    }
  }

  const double limit_s = opt.precondition_limit_s.value_or(suite.precondition.limit_s);
  auto run_precondition = [&](const std::string& why) {
    ev.on_phase(PhaseEvent{dev, Phase::precondition, "", -1, why});
    res.precondition = precondition(target, region, suite.precondition, limit_s, ev, dev, opt.stop, seeds.next());
    res.bytes_sent += res.precondition.bytes_sent;
    if (res.precondition.reason.empty()) res.precondition.reason = why;
    else res.precondition.reason = why + "; " + res.precondition.reason;
  };
  if (suite.precondition.enabled && !stopped()) {
    if (writable) run_precondition("the suite preconditions (SNIA PTS workload-independent)");
    else res.precondition.reason = "not preconditioned: the device was not opened for writing (no consent)";
  }

  TrustFacts trust;
  if (suite.probe.enabled && suite_reads(suite) && !stopped()) {
    ev.on_phase(PhaseEvent{dev, Phase::probe, "", -1, ""});
    auto probe = probe_unwritten(target, region, suite.probe.samples, suite.probe.max_zero_pct);
    if (probe) {
      res.probe = *probe;
    } else {
      res.probe.detail = probe.error().message();
      ev.on_log(LogLevel::warning, dev, "probe: " + res.probe.detail);
      // Fail closed: reads of space nobody checked are not trusted either.
      trust.region_unwritten = true;
      trust.unwritten_detail = "the unwritten-space probe could not run (" + res.probe.detail + ")";
    }
    if (res.probe.unwritten) {
      ev.on_log(LogLevel::warning, dev, "probe: " + res.probe.detail);
      if (suite.probe.on_unwritten == suites::OnUnwritten::precondition && writable && !res.precondition.performed) {
        run_precondition("the probe found unwritten space");
        res.probe.filled_after = res.precondition.capacities_written >= 1.0;
      }
      if (!res.probe.filled_after) {
        trust.region_unwritten = true;
        trust.unwritten_detail = "the region was never written (" + std::to_string(res.probe.zero_samples) + " of " +
                                 std::to_string(res.probe.samples) + " sampled blocks read zeros)";
      }
    }
  }
  if (suite.precondition.enabled && suite.precondition.required && !res.precondition.completed) {
    trust.precondition_missing = true;
    trust.precondition_detail = res.precondition.performed
                                    ? fmt::format("preconditioning incomplete: {:.2f} of {:.2f} capacities written", res.precondition.capacities_written,
                                                  suite.precondition.capacities)
                                    : "preconditioning required but not done: " + res.precondition.reason;
    res.facts.mark_inconclusive(trust.precondition_detail);
  }

  const suites::Profile* profile = d.profile ? &*d.profile : nullptr;
  const std::string no_limits_reason = opt.measurement_only ? "measurement only (--profile none)"
                                       : profile            ? fmt::format("profile {} sets no limits for this test", profile->name)
                                                            : "no profile: " + d.profile_reason;
  // The kernel's lines about this device from here on (its own name, its controller, its ATA link).
  std::error_code ec;
  const std::string sysfs = d.device.name.empty() ? "" : std::filesystem::canonical("/sys/block/" + d.device.name, ec).string();
  KernelLogWatch kernel_log(kernel_names(d.device.name.empty() ? std::filesystem::path(dev).filename().string() : d.device.name,
                                         d.device.nvme_controller, sysfs));
  RunMonitor monitor(suite.monitor, hooks, d.device, profile);
  const std::optional<CpuTimes> host_cpu_before = read_host_cpu();
  const auto host_cpu_start = std::chrono::steady_clock::now();
  for (const auto& spec : suite.tests) {
    if (stopped() || res.watchdog.abandoned) break;
    TestRecord t;
    t.id = spec.id;
    t.description = spec.description;
    // What each workload's record adds to the device's: errors, mismatches, CPU, missing steady state.
    auto account = [&](WorkloadRecord r, std::vector<WorkloadRecord>& into) {
      if (r.result.stall_count)
        ev.on_log(LogLevel::error, dev, fmt::format("{}: {} I/O{} past io_timeout{}", spec.id, r.result.stall_count, r.result.stall_count == 1 ? "" : "s",
                                                    r.result.abandoned ? ", one never came back: the device's run stops" : ""));
      if (!r.error.empty()) ev.on_log(LogLevel::error, dev, fmt::format("{}: {}", spec.id, r.error));
      if (const auto& pauses = r.result.pauses; !pauses.empty()) {
        double paused_s = 0;
        for (const Pause& p : pauses) paused_s += p.dur_s;
        const std::string why = fmt::format(
            "diskvet itself did not run for {:.1f} s during {} ({}from {:.1f} s into it: its process stopped, its VM paused, or the host "
            "starved it): the I/Os out then were not judged as stalls, and their latencies hold the pause",
            paused_s, spec.id, pauses.size() == 1 ? "" : fmt::format("{} pauses, the first ", pauses.size()), pauses.front().at_s);
        ev.on_log(LogLevel::warning, dev, why);
        res.facts.mark_inconclusive(why);
      }
      res.facts.io_errors += r.result.io_errors;
      if (r.result.io_errors) {
        // The run goes on (the next tests, the other devices); the device FAILs naming its first error.
        std::vector<DeviceIoError> these;
        keep_first_io_errors(these, spec.id, r.result, target.info().logical_block_size);
        for (const auto& e : these)
          if (res.first_io_errors.size() < kMaxDeviceIoErrors) res.first_io_errors.push_back(e);
        if (res.facts.io_error_detail.empty() && !res.first_io_errors.empty()) res.facts.io_error_detail = describe_io_error(res.first_io_errors.front());
        ev.on_log(LogLevel::error, dev, fmt::format("{} I/O error{}{}", r.result.io_errors, r.result.io_errors == 1 ? "" : "s",
                                                    these.empty() ? "" : ", first: " + describe_io_error(these.front())));
      }
      if (r.result.verify.mismatches) {
        if (res.verify.mismatches == 0) {
          const BlockMismatch& m = r.result.verify.first.front();
          res.facts.verify_detail = fmt::format("{} at LBA {} in {}: {}", to_string(m.kind), m.expected.lba, spec.id, describe_mismatch(m));
        }
        ev.on_log(LogLevel::error, dev, fmt::format("{}: {} new bad blocks, {} reads found bad blocks", spec.id, r.result.verify.bad_blocks,
                                                    r.result.verify.mismatches));
      }
      res.verify.merge(r.result.verify);
      res.job_cpu_s += r.result.usr_cpu_s + r.result.sys_cpu_s;
      res.facts.verify_mismatches = res.verify.mismatches;
      res.facts.verify_bad_blocks = res.verify.bad_blocks;
      res.facts.verified_blocks = res.verify.blocks_verified;
      if (r.steady_required && !(r.steady_state && r.steady_state->attained) && r.ran) {
        res.facts.required_missing = true;
        if (res.facts.required_missing_reason.empty())
          res.facts.required_missing_reason = fmt::format("{}: steady state required and not attained", spec.id);
      }
      into.push_back(std::move(r));
    };
    auto refuse_write = [&](const runner::Workload& w) {
      WorkloadRecord r;
      r.workload = w;
      r.error = "a write workload needs the device opened for writing (--destroy-data)";
      t.workloads.push_back(std::move(r));
    };
    if (spec.matrix) {
      // Every cell in every round: one unit, steady state decided on the tracked cell.
      WorkloadContext c{target, region, suite, spec, 0, d.rate_cap_iops, opt.duration_s, ev, dev, opt.stop, verify.get(), &res.watchdog, &seeds, &res.bytes_sent,
                        &d.fast_path, &res.passthrough_bytes_sent, hooks.sampler_clock};
      if (!writable) {
        for (const auto& w : spec.workloads) refuse_write(w);
      } else {
        MatrixRecord mx;
        monitor.workload_starting();
        std::vector<WorkloadRecord> cells = run_matrix_test(c, mx);
        for (auto& r : cells) {
          monitor.workload_done(spec.id, r);
          account(std::move(r), t.workloads);
        }
        t.matrix = std::move(mx);
      }
    }
    for (size_t i = 0; !spec.matrix && i < spec.workloads.size() && !stopped() && !res.watchdog.abandoned; ++i) {
      if (writes(spec.workloads[i].rw) && !writable) {
        refuse_write(spec.workloads[i]);
        continue;
      }
      WorkloadContext c{target, region, suite, spec, i, d.rate_cap_iops, opt.duration_s, ev, dev, opt.stop, verify.get(), &res.watchdog, &seeds, &res.bytes_sent,
                        &d.fast_path, &res.passthrough_bytes_sent, hooks.sampler_clock};
      monitor.workload_starting();
      WorkloadRecord r = run_test_workload(c);
      monitor.workload_done(spec.id, r);
      account(std::move(r), t.workloads);
    }
    // The first test once more on the block path, where the fast path changed how it ran: the two
    // side by side in the report (never judged; errors, stalls and mismatches count as anywhere).
    if (&spec == &suite.tests.front() && d.fast_path.asked && suite.fast_path.compare_block_path && !spec.matrix) {
      suites::Suite plain = suite;  // one window each: warmup and steady state were the fast path's
      plain.warmup.enabled = false;
      plain.steady_state.enabled = false;
      for (size_t i = 0; i < spec.workloads.size() && !stopped() && !res.watchdog.abandoned; ++i) {
        const Workload& asked = spec.workloads[i];
        const Workload fast = apply_fast_path(asked, d.fast_path, target.info());
        if ((writes(asked.rw) && !writable) || (fast.engine == asked.engine && fast.hipri == asked.hipri)) continue;
        ev.on_log(LogLevel::info, dev, fmt::format("{}: {} once more on the block path, beside the fast path", spec.id, describe(asked)));
        WorkloadContext c{target, region, plain, spec, i, d.rate_cap_iops, opt.duration_s, ev, dev, opt.stop, verify.get(), &res.watchdog, &seeds, &res.bytes_sent,
                          nullptr, &res.passthrough_bytes_sent, hooks.sampler_clock};
        account(run_test_workload(c), t.block_path);
      }
    }
    ev.on_phase(PhaseEvent{dev, Phase::verdict, spec.id, -1, ""});
    const suites::TestLimits* limits = nullptr;
    if (profile)
      for (const auto& tl : profile->tests)
        if (tl.test_id == spec.id) limits = &tl;
    res.progress.push_back(test_progress(t, spec, region.size_bytes));
    t.verdicts = judge_test(t, limits, trust);
    t.verdict = rollup_test(t, limits, no_limits_reason);
    for (const auto& v : t.verdicts) ev.on_verdict(dev, v);
    test_rollups.push_back(t.verdict);
    res.tests.push_back(std::move(t));
  }

  for (size_t i = res.tests.size(); i < suite.tests.size(); ++i) res.progress.push_back(suite.tests[i].id + ": not started");

  ev.on_phase(PhaseEvent{dev, Phase::health_after, "", -1, ""});
  monitor.finish(res);
  res.kernel_log = kernel_log.finish();
  const std::optional<uint64_t> max_stalls = profile ? profile->burnin.max_stalls : std::nullopt;
  for (auto& p : watchdog_problems(res.watchdog, max_stalls, res.kernel_log)) res.facts.run_problems.push_back(std::move(p));
  // Stalls beyond what the profile allows fail the device, and each test they happened in shows FAIL
  // too: a test whose I/O hung never reads PASS on the page, whatever its numbers.
  if (res.watchdog.stall_count > max_stalls.value_or(0))
    for (auto& t : res.tests)
      if (auto it = res.watchdog.stalls_by_test.find(t.id); it != res.watchdog.stalls_by_test.end()) {
        t.verdict.status = std::max(t.verdict.status, VerdictStatus::fail);
        t.verdict.reasons.push_back(fmt::format("{}: {} I/O{} out longer than io_timeout {} s", t.id, it->second, it->second == 1 ? "" : "s",
                                                res.watchdog.io_timeout_s));
      }
  if (auto after = read_host_cpu(); after && host_cpu_before) {
    res.host_cpu = host_cpu_share(*host_cpu_before, *after, sysconf(_SC_CLK_TCK));
    res.host_cpu_window_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - host_cpu_start).count();
  }
  for (const auto& p : res.facts.run_problems) ev.on_log(LogLevel::error, dev, p);
  if (hooks.read_health) res.health_after = hooks.read_health(d.device);
  add_health_facts(res.facts, res.health_before, "before the run");
  add_health_facts(res.facts, res.health_after, "after the run");
  if (res.health_before && res.health_after) {
    // New media errors, error-log entries or thermal throttling during the run fail the device too.
    devices::HealthDelta delta = devices::health_delta(*res.health_before, *res.health_after);
    for (const auto& p : delta.problems) {
      res.facts.unhealthy = true;
      res.facts.health_problems.push_back(p + " (during the run)");
    }
  }
  if (res.health_before && res.health_after && !res.watchdog.abandoned) judge_write_accounting(res);
  if (res.health_before && res.health_after) {
    res.error_log = devices::review_error_log(*res.health_before, *res.health_after);
    if (res.error_log)
      for (const auto& p : res.error_log->problems) {
        res.facts.unhealthy = true;
        res.facts.health_problems.push_back("error log: " + p + " (during the run)");
      }
    judge_smart_counters(res);
    judge_smart_logs(res);
    res.write_amplification = devices::write_amplification(*res.health_before, *res.health_after);
  }
  res.completed = !stopped() && !res.watchdog.abandoned && res.tests.size() == suite.tests.size();
  if (!res.completed) {
    res.facts.aborted = true;
    res.facts.error = res.watchdog.abandoned ? res.watchdog.abandon_detail : "interrupted";
  }
  res.verdict = rollup_device(test_rollups, res.facts);
  res.finished = utc_now_iso8601();
  ev.on_device_verdict(DeviceVerdictEvent{dev, res.verdict});
  return res;
}

}  // namespace diskvet::runner
