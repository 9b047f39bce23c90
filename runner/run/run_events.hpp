// RunEvents: how front ends (CLI now, TUI later, unattended boot) observe a suite run. The runner
// calls these; it never prints. Calls are serialized by the runner (never two at once, even with
// --parallel), come from runner threads (not the caller's), and must return quickly: a slow sink
// delays the next interval sample, never an I/O.
#pragma once

#include <mutex>
#include <optional>
#include <string>

#include "runner/analysis/verdict.hpp"
#include "runner/io/measurement.hpp"

namespace diskvet::runner {

enum class Phase {
  gate,          // devices opened through the protection gate (consent, O_EXCL)
  health_before,
  self_test,     // the drive's own self-test (short or extended), before or after the run
  capacity_probe,  // address integrity: blocks over the whole claimed capacity written, flushed, read back
  purge,         // NVMe format/sanitize, else discard, else none
  precondition,  // workload-independent: sequential 128 KiB writes over N x the tested capacity
  probe,         // unwritten-space probe before read tests
  warmup,        // cache warmup before a read workload
  steady_state,  // workload-dependent rounds until steady state
  measure,       // the measurement window (or one step of a sweep)
  health_after,
  verdict,
  done,
};
std::string_view to_string(Phase p);

enum class LogLevel { info, warning, error };

struct PhaseEvent {
  std::string device;   // the device path ("" for run-wide events)
  Phase phase = Phase::gate;
  std::string test_id;  // "" outside a test
  int workload = -1;    // index into the test's workloads, -1 outside one
  std::string detail;   // "randread 4KiB QD32 x2", "round 3 of at most 25", ...
};

struct ProgressEvent {
  std::string device;
  Phase phase = Phase::gate;
  std::string test_id;
  double fraction = 0;            // 0..1 of the current phase step (one workload run, or the preconditioning)
  double elapsed_s = 0;           // since the step began
  std::optional<double> eta_s;    // remaining, when it can be estimated
  std::string detail;             // "1.2 of 2.0 capacities written"
};

struct SampleEvent {
  std::string device;
  Phase phase = Phase::measure;
  std::string test_id;
  int workload = -1;
  IntervalSample sample;  // one interval of the engine's series (default 1 s)
};

struct DeviceVerdictEvent {
  std::string device;
  Rollup verdict;
};

class RunEvents {
 public:
  virtual ~RunEvents() = default;
  virtual void on_phase(const PhaseEvent&) {}
  virtual void on_progress(const ProgressEvent&) {}
  virtual void on_sample(const SampleEvent&) {}
  // Each metric verdict of a test, as soon as the test is judged.
  virtual void on_verdict(const std::string& /*device*/, const MetricVerdict&) {}
  virtual void on_device_verdict(const DeviceVerdictEvent&) {}
  virtual void on_log(LogLevel, const std::string& /*device*/, const std::string& /*text*/) {}
};

// Forwards to another sink under one mutex: the runner wraps the caller's sink in this.
class SerializedEvents final : public RunEvents {
 public:
  explicit SerializedEvents(RunEvents& inner) : inner_(inner) {}
  void on_phase(const PhaseEvent& e) override { std::lock_guard l(m_); inner_.on_phase(e); }
  void on_progress(const ProgressEvent& e) override { std::lock_guard l(m_); inner_.on_progress(e); }
  void on_sample(const SampleEvent& e) override { std::lock_guard l(m_); inner_.on_sample(e); }
  void on_verdict(const std::string& d, const MetricVerdict& v) override { std::lock_guard l(m_); inner_.on_verdict(d, v); }
  void on_device_verdict(const DeviceVerdictEvent& e) override { std::lock_guard l(m_); inner_.on_device_verdict(e); }
  void on_log(LogLevel lv, const std::string& d, const std::string& t) override { std::lock_guard l(m_); inner_.on_log(lv, d, t); }

 private:
  RunEvents& inner_;
  std::mutex m_;
};

}  // namespace diskvet::runner
