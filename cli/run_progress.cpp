// Progress of a suite run on stderr.
#include "cli/run_progress.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "common/units.hpp"

namespace diskvet::cli {

using namespace diskvet::runner;

RunProgress::RunProgress(bool quiet, bool live) : quiet_(quiet), live_(live) {}
RunProgress::~RunProgress() { clear_line(); }

void RunProgress::clear_line() {
  if (line_shown_) std::fputs("\r\033[K", stderr);
  line_shown_ = false;
}

void RunProgress::on_phase(const PhaseEvent& e) {
  if (quiet_ || e.phase == Phase::verdict || e.phase == Phase::done) return;
  clear_line();
  std::string where = e.device.empty() ? "" : fmt::format("[{}] ", e.device);
  std::string test = e.test_id.empty() ? "" : " " + e.test_id;
  std::fprintf(stderr, "%s%s%s%s\n", where.c_str(), std::string(to_string(e.phase)).c_str(), test.c_str(),
               e.detail.empty() ? "" : (": " + e.detail).c_str());
}

void RunProgress::on_progress(const ProgressEvent& e) {
  if (quiet_ || !live_) return;
  std::string eta = e.eta_s ? " ETA " + format_duration(*e.eta_s) : "";
  std::string line = fmt::format("\r  {} {:3.0f}%  {}{}\033[K", to_string(e.phase), e.fraction * 100, format_duration(e.elapsed_s), eta);
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  line_shown_ = true;
}

void RunProgress::on_log(LogLevel level, const std::string& device, const std::string& text) {
  if (quiet_ && level == LogLevel::info) return;
  clear_line();
  const char* tag = level == LogLevel::error ? "error: " : (level == LogLevel::warning ? "warning: " : "");
  std::fprintf(stderr, "[%s] %s%s\n", device.c_str(), tag, text.c_str());
}

void RunProgress::on_device_verdict(const DeviceVerdictEvent& e) {
  if (quiet_) return;
  clear_line();
  std::fprintf(stderr, "[%s] device verdict: %s\n", e.device.c_str(), std::string(to_string(e.verdict.status)).c_str());
}

}  // namespace diskvet::cli
