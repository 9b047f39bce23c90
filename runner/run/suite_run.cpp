// The run across devices: in turn or in parallel, then outliers and the overall verdict.
#include "runner/run/suite_run.hpp"

#include <fmt/format.h>

#include <ctime>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>

#include "devices/health.hpp"
#include "devices/nvme_error_log.hpp"
#include "devices/smart_counters.hpp"
#include "devices/smart_logs.hpp"
#include "runner/io/seed.hpp"
#include "runner/run/outliers.hpp"
#include "runner/run/self_test_step.hpp"

namespace diskvet::runner {

std::string_view to_string(Phase p) {
  switch (p) {
    case Phase::gate: return "gate";
    case Phase::health_before: return "health-before";
    case Phase::self_test: return "self-test";
    case Phase::capacity_probe: return "capacity-probe";
    case Phase::purge: return "purge";
    case Phase::precondition: return "precondition";
    case Phase::probe: return "probe";
    case Phase::warmup: return "warmup";
    case Phase::steady_state: return "steady-state";
    case Phase::measure: return "measure";
    case Phase::health_after: return "health-after";
    case Phase::verdict: return "verdict";
    case Phase::done: return "done";
  }
  return "?";
}

std::string utc_now_iso8601() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

namespace {

// The drive's health across the self-test after the run: an extended test reads every sector, and
// what it finds (new media errors, reallocated or pending sectors, entries in the error logs) shows
// only in a snapshot taken after it; the run's own "after" snapshot was taken before it. Growth
// there fails the device as growth during the run does (an interface CRC count makes it
// INCONCLUSIVE). The self-test logs are not reviewed here: the test's own result is already judged.
void judge_health_across_self_test(DeviceResult& d, const RunHooks& hooks) {
  if (!hooks.read_health || !d.health_after) return;
  std::optional<devices::Health> later = hooks.read_health(d.device);
  if (!later) return;
  auto without_self_test_logs = [](devices::Health h) {
    h.ata_self_test_log.reset();
    h.scsi_self_test_log.reset();
    return h;
  };
  const devices::Health from = without_self_test_logs(*d.health_after), to = without_self_test_logs(*later);
  DeviceFacts f;
  // The findings' words say "during the run"; these happened during the test after it.
  auto during = [](std::string p) {
    constexpr std::string_view kRun = "during the run";
    const size_t at = p.find(kRun);
    return at == std::string::npos ? p + " (during the self-test after the run)" : p.replace(at, kRun.size(), "during the self-test after the run");
  };
  for (const auto& p : devices::health_delta(from, to).problems) f.health_problems.push_back(during(p));
  DeviceResult::AcrossSelfTest across;
  across.smart_counters = devices::review_smart_counters(from, to);
  if (across.smart_counters) {
    for (const auto& p : across.smart_counters->problems) f.health_problems.push_back(during(p));
    for (const auto& p : across.smart_counters->inconclusive) f.mark_inconclusive(during(p));
  }
  across.error_log = devices::review_error_log(from, to);
  if (across.error_log)
    for (const auto& p : across.error_log->problems) f.health_problems.push_back(during("error log: " + p));
  across.smart_logs = devices::review_smart_logs(from, to);
  if (across.smart_logs)
    for (const auto& p : across.smart_logs->problems) f.health_problems.push_back(during(p));
  d.across_self_test = std::move(across);
  if (f.health_problems.empty() && !f.required_missing) return;
  f.unhealthy = !f.health_problems.empty();
  d.facts.health_problems.insert(d.facts.health_problems.end(), f.health_problems.begin(), f.health_problems.end());
  d.verdict = rollup_device({d.verdict}, f);
}

// The self-tests after the run, on every device that completed its run, at once; each one's verdict
// is folded into its device's, and so is what the drive's counters show across the test.
void judge_self_tests_after(RunPlan& plan, const RunHooks& hooks, RunEvents& events, RunResult& r) {
  std::vector<bool> run_on;
  for (const auto& d : r.devices) run_on.push_back(d.completed);
  auto outcomes = run_self_tests(plan, plan.suite.self_test.after, "after", run_on, hooks, events);
  for (size_t i = 0; i < r.devices.size(); ++i) {
    if (!outcomes[i]) continue;
    DeviceResult& d = r.devices[i];
    d.self_test_after = outcomes[i];
    const Rollup before = d.verdict;
    if (auto st = self_test_rollup(*outcomes[i], "after")) {
      d.verdict = rollup_device({d.verdict, *st}, DeviceFacts{});
      if (outcomes[i]->result == devices::SelfTestResult::interrupted) d.completed = false;
    }
    if (outcomes[i]->result != devices::SelfTestResult::not_supported) judge_health_across_self_test(d, hooks);
    if (d.verdict.status != before.status || d.verdict.reasons != before.reasons) events.on_device_verdict(DeviceVerdictEvent{d.device.path, d.verdict});
  }
}

}  // namespace

RunResult run_suite(RunPlan& plan, const RunHooks& hooks, RunEvents& sink) {
  SerializedEvents events(sink);
  RunResult r;
  r.suite_name = plan.suite.name;
  r.suite_file = plan.suite.file;
  r.suite_description = plan.suite.description;
  r.started = utc_now_iso8601();
  r.measurement_only = plan.options.measurement_only;
  if (r.measurement_only) r.notes.push_back("measurement only (--profile none): no limits were judged; health, I/O errors and data verification still were");
  r.devices.resize(plan.devices.size());
  // Every engine run of the run gets a seed of its own (device, then its runs in order), so no
  // workload, round, pass or step repeats another's data or offsets, nor an earlier run's.
  r.randseed = plan.options.randseed ? *plan.options.randseed : random_seed();
  for (size_t i = 0; i < plan.devices.size(); ++i) plan.devices[i].seed = derive_seed(r.randseed, i);
  const auto stopped = [&] { return plan.options.stop && plan.options.stop->load(); };
  // The self-tests before the run, on every device at once; each device's run then judges its own.
  std::vector<std::optional<devices::SelfTestOutcome>> self_tests(plan.devices.size());
  if (plan.suite.self_test.before != devices::SelfTestType::none && !stopped())
    self_tests = run_self_tests(plan, plan.suite.self_test.before, "before", std::vector<bool>(plan.devices.size(), true), hooks, events);
  if (plan.options.parallel && plan.devices.size() > 1) {
    // Jobs that poll their completions would spin against each other for the host's cores: in a
    // shelf run every job sleeps while it waits, and the report says so.
    suites::Suite suite = plan.suite;
    bool spun = false;
    for (auto& t : suite.tests)
      for (auto& w : t.workloads) spun = std::exchange(w.spin_us, 0u) != 0 || spun;
    if (spun) r.notes.push_back("completion polling (spin) was off: devices in parallel would spin against each other for the CPUs");
    std::vector<std::thread> threads;
    size_t started = 0;
    try {
      for (; started < plan.devices.size(); ++started)
        threads.emplace_back([&, i = started] { r.devices[i] = run_device(plan.devices[i], suite, plan.options, hooks, events, self_tests[i]); });
    } catch (const std::system_error& e) {
      // No thread for the next device (a process limit): the devices that have one run on, the
      // rest in turn on this thread once they end; the report says so.
      for (auto& t : threads) t.join();
      threads.clear();
      r.notes.push_back(fmt::format("{} of {} devices ran in parallel; the others in turn: no thread could be started for them ({})", started,
                                    plan.devices.size(), e.what()));
      for (size_t i = started; i < plan.devices.size(); ++i) r.devices[i] = run_device(plan.devices[i], suite, plan.options, hooks, events, self_tests[i]);
    }
    for (auto& t : threads) t.join();
    r.notes.push_back("devices ran in parallel (--parallel): they shared the host's CPU and buses");
  } else {
    for (size_t i = 0; i < plan.devices.size(); ++i) r.devices[i] = run_device(plan.devices[i], plan.suite, plan.options, hooks, events, self_tests[i]);
  }
  if (plan.suite.self_test.after != devices::SelfTestType::none && !stopped()) judge_self_tests_after(plan, hooks, events, r);
  flag_outliers(r.devices);
  std::vector<VerdictStatus> statuses;
  for (const auto& d : r.devices) {
    statuses.push_back(d.verdict.status);
    if (!d.completed) {
      r.aborted = true;
      r.abort_reason = d.facts.error.empty() ? "a device did not complete" : d.device.path + ": " + d.facts.error;
    }
  }
  if (plan.options.stop && plan.options.stop->load()) {
    r.aborted = true;
    r.abort_reason = "interrupted by a signal: the report is partial";
  }
  r.verdict = rollup_overall(statuses);
  r.finished = utc_now_iso8601();
  events.on_phase(PhaseEvent{"", Phase::done, "", -1, std::string(to_string(r.verdict))});
  return r;
}

}  // namespace diskvet::runner
