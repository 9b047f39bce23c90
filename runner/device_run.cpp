// The phases of one device, in the order SNIA PTS prescribes: purge, preconditioning, then tests.
#include <fmt/format.h>

#include <algorithm>

#include "common/units.hpp"
#include "devices/health.hpp"
#include "runner/precondition.hpp"
#include "runner/probe.hpp"
#include "runner/purge.hpp"
#include "runner/suite_run.hpp"
#include "runner/test_verdicts.hpp"
#include "runner/workload_run.hpp"

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

}  // namespace

DeviceResult run_device(DevicePlan& d, const suites::Suite& suite, const RunOptions& opt, const RunHooks& hooks, RunEvents& ev) {
  DeviceResult res;
  res.device = d.device;
  res.started = utc_now_iso8601();
  res.rate_cap_iops = d.rate_cap_iops;
  if (d.profile) {
    res.profile_name = d.profile->name;
    res.profile_file = d.profile->file;
  }
  res.profile_reason = d.profile_reason;
  const std::string& dev = d.device.path;
  const Target& target = d.target;
  const bool writable = target.writable();
  auto stopped = [&] { return opt.stop && opt.stop->load(); };

  // The tested region: whole MiBs, so every block size of the suite divides it.
  uint64_t size = target.info().size_bytes;
  if (suite.region_bytes) size = std::min(size, suite.region_bytes);
  Region region{0, size / (1u << 20) * (1u << 20)};
  res.tested_bytes = region.size_bytes;
  if (region.size_bytes == 0) {
    res.facts.aborted = true;
    res.facts.error = fmt::format("{} is smaller than 1 MiB: nothing to test", format_bytes(target.info().size_bytes));
    res.verdict = rollup_device({}, res.facts);
    return res;
  }

  ev.on_phase(PhaseEvent{dev, Phase::health_before, "", -1, ""});
  if (hooks.read_health) res.health_before = hooks.read_health(d.device);

  if (suite.purge && !stopped()) {
    ev.on_phase(PhaseEvent{dev, Phase::purge, "", -1, ""});
    res.purge = purge(d, region, hooks);
    ev.on_log(LogLevel::info, dev, "purge: " + res.purge.method + " (" + res.purge.detail + ")");
  }

  const double limit_s = opt.precondition_limit_s.value_or(suite.precondition.limit_s);
  auto run_precondition = [&](std::string why) {
    ev.on_phase(PhaseEvent{dev, Phase::precondition, "", -1, why});
    res.precondition = precondition(target, region, suite.precondition, limit_s, ev, dev, opt.stop);
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
    res.facts.required_missing = true;
    res.facts.required_missing_reason = trust.precondition_detail;
  }

  const suites::Profile* profile = d.profile ? &*d.profile : nullptr;
  std::vector<Rollup> test_rollups;
  for (const auto& spec : suite.tests) {
    if (stopped()) break;
    TestRecord t;
    t.id = spec.id;
    t.description = spec.description;
    for (size_t i = 0; i < spec.workloads.size() && !stopped(); ++i) {
      if (writes(spec.workloads[i].rw) && !writable) {
        WorkloadRecord r;
        r.workload = spec.workloads[i];
        r.error = "a write workload needs the device opened for writing (--destroy-data)";
        t.workloads.push_back(std::move(r));
        continue;
      }
      WorkloadContext c{target, region, suite, spec, i, d.rate_cap_iops, opt.duration_s, ev, dev, opt.stop};
      WorkloadRecord r = run_test_workload(c);
      if (!r.error.empty()) ev.on_log(LogLevel::error, dev, fmt::format("{}: {}", spec.id, r.error));
      res.facts.io_errors += r.result.io_errors;
      if (r.steady_required && !(r.steady_state && r.steady_state->attained) && r.ran) {
        res.facts.required_missing = true;
        if (res.facts.required_missing_reason.empty())
          res.facts.required_missing_reason = fmt::format("{}: steady state required and not attained", spec.id);
      }
      t.workloads.push_back(std::move(r));
    }
    ev.on_phase(PhaseEvent{dev, Phase::verdict, spec.id, -1, ""});
    const suites::TestLimits* limits = nullptr;
    if (profile)
      for (const auto& tl : profile->tests)
        if (tl.test_id == spec.id) limits = &tl;
    t.verdicts = judge_test(t, limits, trust);
    t.verdict = rollup_test(t.verdicts);
    for (const auto& v : t.verdicts) ev.on_verdict(dev, v);
    test_rollups.push_back(t.verdict);
    res.tests.push_back(std::move(t));
  }

  ev.on_phase(PhaseEvent{dev, Phase::health_after, "", -1, ""});
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
  res.completed = !stopped() && res.tests.size() == suite.tests.size();
  if (!res.completed) {
    res.facts.aborted = true;
    res.facts.error = "interrupted";
  }
  res.verdict = rollup_device(test_rollups, res.facts);
  res.finished = utc_now_iso8601();
  ev.on_device_verdict(DeviceVerdictEvent{dev, res.verdict});
  return res;
}

}  // namespace diskvet::runner
