// Self-tests on every device of a run in parallel, and their verdicts.
#include "runner/run/self_test_step.hpp"

#include <fmt/format.h>

#include <system_error>
#include <thread>

namespace diskvet::runner {

namespace {

devices::SelfTestOutcome self_test_one(DevicePlan& d, devices::SelfTestType type, const char* when, const RunOptions& options,
                                       const RunHooks& hooks, RunEvents& events) {
  const std::string& dev = d.device.path;
  events.on_phase(PhaseEvent{dev, Phase::self_test, "", -1, fmt::format("{} self-test {} the run", to_string(type), when)});
  std::unique_ptr<devices::SelfTestDevice> backend = hooks.self_test ? hooks.self_test(d.device) : nullptr;
  devices::SelfTestOutcome o;
  if (!backend) {
    o.type = type;
    o.result = devices::SelfTestResult::not_supported;
    o.words = "not supported: this kind of device has no self-test diskvet can run (NVMe and SATA/SAS drives have)";
  } else {
    const devices::SelfTestClock clock = devices::real_self_test_clock(options.stop);
    o = devices::run_self_test(*backend, type, clock, [&](double pct, const std::string& line) {
      events.on_progress(ProgressEvent{dev, Phase::self_test, "", pct / 100, clock.now_s(), std::nullopt, line});
      events.on_log(LogLevel::info, dev, line);
    });
  }
  const LogLevel level = o.passed() ? LogLevel::info : (o.result == devices::SelfTestResult::not_supported ? LogLevel::warning : LogLevel::error);
  events.on_log(level, dev, fmt::format("{} self-test {} the run: {}: {}", to_string(type), when, to_string(o.result), o.words));
  return o;
}

}  // namespace

std::vector<std::optional<devices::SelfTestOutcome>> run_self_tests(RunPlan& plan, devices::SelfTestType type, const char* when,
                                                                   const std::vector<bool>& run_on, const RunHooks& hooks, RunEvents& events) {
  std::vector<std::optional<devices::SelfTestOutcome>> out(plan.devices.size());
  std::vector<std::thread> threads;
  size_t next = 0;
  try {
    for (; next < plan.devices.size(); ++next)
      if (run_on[next])
        threads.emplace_back([&, i = next] { out[i] = self_test_one(plan.devices[i], type, when, plan.options, hooks, events); });
  } catch (const std::system_error&) {
    // No thread for the next device (a process limit): the rest run on this one, in turn.
    for (; next < plan.devices.size(); ++next)
      if (run_on[next]) out[next] = self_test_one(plan.devices[next], type, when, plan.options, hooks, events);
  }
  for (auto& t : threads) t.join();
  return out;
}

std::optional<Rollup> self_test_rollup(const devices::SelfTestOutcome& o, const char* when) {
  using devices::SelfTestResult;
  if (o.result == SelfTestResult::not_supported) return std::nullopt;
  Rollup r;
  const std::string what = fmt::format("{} self-test {} the run", to_string(o.type), when);
  switch (o.result) {
    case SelfTestResult::passed: r.status = VerdictStatus::pass; break;
    case SelfTestResult::failed: r.status = VerdictStatus::fail; r.reasons.push_back(what + " failed: " + o.words); break;
    case SelfTestResult::aborted: r.status = VerdictStatus::fail; r.reasons.push_back(what + " was aborted: " + o.words); break;
    case SelfTestResult::timed_out: r.status = VerdictStatus::fail; r.reasons.push_back(what + " timed out: " + o.words); break;
    default: r.status = VerdictStatus::error; r.reasons.push_back(what + " did not run to its end: " + o.words); break;
  }
  return r;
}

}  // namespace diskvet::runner
