// TuiEvents: the TUI's RunEvents. Runner threads only append to a queue under a short lock and
// return; the UI thread drains it and folds the events into the model, so a slow screen never
// slows a measurement. Bounded: past kMaxQueued, progress and sample events are dropped first.
#pragma once

#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <variant>

#include "runner/run/run_events.hpp"

namespace diskvet::tui {

struct VerdictMsg {
  std::string device;
  runner::MetricVerdict verdict;
};
struct LogMsg {
  runner::LogLevel level;
  std::string device, text;
};

using RunEvent = std::variant<runner::PhaseEvent, runner::ProgressEvent, runner::SampleEvent, VerdictMsg, runner::DeviceVerdictEvent, LogMsg>;

class TuiEvents final : public runner::RunEvents {
 public:
  static constexpr size_t kMaxQueued = 4096;
  void on_phase(const runner::PhaseEvent& e) override { push(e, true); }
  void on_progress(const runner::ProgressEvent& e) override { push(e, false); }
  void on_sample(const runner::SampleEvent& e) override { push(e, false); }
  void on_verdict(const std::string& d, const runner::MetricVerdict& v) override { push(VerdictMsg{d, v}, true); }
  void on_device_verdict(const runner::DeviceVerdictEvent& e) override { push(e, true); }
  void on_log(runner::LogLevel l, const std::string& d, const std::string& t) override { push(LogMsg{l, d, t}, true); }

  // Everything queued so far, oldest first; the queue is left empty.
  std::deque<RunEvent> drain();
  size_t dropped() const;

 private:
  void push(RunEvent e, bool must_keep);
  mutable std::mutex m_;
  std::deque<RunEvent> q_;
  size_t dropped_ = 0;
};

}  // namespace diskvet::tui
