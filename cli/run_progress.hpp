// The CLI's RunEvents: phase lines and warnings on stderr, and on a terminal one rewritten status
// line with progress and ETA. The TUI implements the same interface.
#pragma once

#include <string>

#include "runner/run/run_events.hpp"

namespace diskvet::cli {

class RunProgress final : public runner::RunEvents {
 public:
  RunProgress(bool quiet, bool live);
  ~RunProgress() override;
  void on_phase(const runner::PhaseEvent& e) override;
  void on_progress(const runner::ProgressEvent& e) override;
  void on_log(runner::LogLevel level, const std::string& device, const std::string& text) override;
  void on_device_verdict(const runner::DeviceVerdictEvent& e) override;

 private:
  void clear_line();
  bool quiet_, live_;
  bool line_shown_ = false;
};

}  // namespace diskvet::cli
