// The self-test loop: start, poll, time out, abort, read the result.
#include "devices/self_test.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <thread>

namespace diskvet::devices {

std::string_view to_string(SelfTestType t) {
  switch (t) {
    case SelfTestType::none: return "none";
    case SelfTestType::short_test: return "short";
    case SelfTestType::extended: return "extended";
  }
  return "none";
}

std::optional<SelfTestType> parse_self_test_type(std::string_view text) {
  for (auto t : {SelfTestType::none, SelfTestType::short_test, SelfTestType::extended})
    if (text == to_string(t)) return t;
  return std::nullopt;
}

std::string_view to_string(SelfTestResult r) {
  switch (r) {
    case SelfTestResult::passed: return "passed";
    case SelfTestResult::failed: return "failed";
    case SelfTestResult::aborted: return "aborted";
    case SelfTestResult::timed_out: return "timed-out";
    case SelfTestResult::interrupted: return "interrupted";
    case SelfTestResult::not_supported: return "not-supported";
    case SelfTestResult::error: return "error";
  }
  return "error";
}

double self_test_timeout_min(double estimate_min) { return estimate_min + std::max(5.0, estimate_min / 2); }

SelfTestClock real_self_test_clock(const std::atomic<bool>* stop) {
  SelfTestClock c;
  const auto start = std::chrono::steady_clock::now();
  c.now_s = [start] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  c.wait = [stop](double seconds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
      if (stop && stop->load()) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return !(stop && stop->load());
  };
  return c;
}

namespace {

// Often enough to show progress, seldom enough not to burden a drive under test: a twentieth of the
// estimate, between 1 s and 30 s.
double poll_interval_s(double estimate_min) { return std::clamp(estimate_min * 60 / 20, 1.0, 30.0); }

std::string aborted_words(SelfTestDevice& dev, const std::string& why) {
  auto stopped = dev.abort();
  return stopped ? why + "; the test was aborted" : why + "; aborting it failed: " + stopped.error().message();
}

}  // namespace

SelfTestOutcome run_self_test(SelfTestDevice& dev, SelfTestType type, const SelfTestClock& clock, const SelfTestProgress& progress) {
  SelfTestOutcome o;
  o.type = type;
  o.source = dev.source();
  const SelfTestSupport s = dev.support(type);
  if (!s.supported) {
    o.result = SelfTestResult::not_supported;
    o.words = s.why;
    return o;
  }
  o.estimate_min = s.estimate_min;
  o.estimate_source = s.estimate_source;
  const double estimate = s.estimate_min.value_or(type == SelfTestType::short_test ? kShortSelfTestMin : kExtendedSelfTestDefaultMin);
  o.timeout_min = self_test_timeout_min(estimate);
  const double start_s = clock.now_s();
  if (auto started = dev.start(type); !started) {
    o.result = SelfTestResult::error;
    o.words = "could not be started: " + started.error().message();
    return o;
  }
  const double interval_s = poll_interval_s(estimate);
  for (;;) {
    const bool go_on = clock.wait(interval_s);
    o.elapsed_s = clock.now_s() - start_s;
    if (!go_on) {
      o.result = SelfTestResult::interrupted;
      o.words = aborted_words(dev, fmt::format("interrupted at {:.0f}% after {:.0f} s", o.last_percent, o.elapsed_s));
      return o;
    }
    auto p = dev.poll();
    ++o.polls;
    if (!p) {
      o.result = SelfTestResult::error;
      o.words = aborted_words(dev, "its progress could not be read: " + p.error().message());
      return o;
    }
    if (p->running) {
      o.last_percent = p->percent_done.value_or(o.last_percent);
      if (progress) progress(o.last_percent, fmt::format("{} self-test {:.0f}% done", to_string(type), o.last_percent));
      if (o.elapsed_s > o.timeout_min * 60) {
        o.result = SelfTestResult::timed_out;
        o.words = aborted_words(dev, fmt::format("still running at {:.0f}% after {:.1f} min, past the drive's estimate of {:.0f} min{} plus margin ({:.0f} min)",
                                                 o.last_percent, o.elapsed_s / 60, estimate,
                                                 s.estimate_source.empty() ? " (none given: diskvet's default)" : " (" + s.estimate_source + ")",
                                                 o.timeout_min));
        return o;
      }
      continue;
    }
    if (!p->newest) {
      o.result = SelfTestResult::error;
      o.words = "ended, but the drive's self-test log holds no result";
      return o;
    }
    o.entry = p->newest;
    o.result = p->newest->result;
    o.words = p->newest->words;
    if (o.result == SelfTestResult::passed) o.last_percent = 100;
    if (progress) progress(o.last_percent, fmt::format("{} self-test ended: {}", to_string(type), o.words));
    return o;
  }
}

}  // namespace diskvet::devices
