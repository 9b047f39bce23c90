// A suite run started from the TUI: its plan built by runner/plan's build_plan, as `diskvet run`
// builds its own (every device through the protection gate, the report claimed) before the first I/O, the runner on its own thread feeding
// TuiEvents, and the sealed report written at the end, aborted or not.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/error.hpp"
#include "devices/device.hpp"
#include "suites/suite.hpp"
#include "tui/event_queue.hpp"
#include "tui/model.hpp"
#include "tui/options.hpp"

namespace diskvet::tui {

// One device the operator confirmed: its path and the identity shown when they confirmed it.
struct ConfirmedDevice {
  std::string path;
  std::string serial;
  std::string wwn;
  uint32_t nsid = 0;  // NVMe namespace id, else 0
};

class RunSession {
 public:
  // Builds the plan: the gate for every device (consent names only the confirmed paths, and each
  // device held must still be the one confirmed); on any refusal nothing is started or written.
  static Result<std::unique_ptr<RunSession>> start(const suites::Suite& suite, const std::vector<ConfirmedDevice>& devices,
                                                   const std::string& profile, const TuiOptions& options);
  ~RunSession();  // aborts and waits: the report is still written
  RunSession(const RunSession&) = delete;
  RunSession& operator=(const RunSession&) = delete;

  TuiEvents& events() { return events_; }
  void abort() { stop_.store(true); }
  bool finished() const { return finished_.load(); }
  // The results once finished() (joins the runner thread).
  Results take_results();

 private:
  RunSession() = default;
  TuiEvents events_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> finished_{false};
  std::thread thread_;
  std::mutex m_;
  Results results_;
};

// Whether the device now at a confirmed path is the one confirmed: exactly the serial shown (one that
// disappeared or changed means another device, or one that can no longer be told apart), the same
// namespace and the same WWN. `now` comes from discovery, the source the list was shown from.
Status check_still_confirmed(const devices::Device& now, const ConfirmedDevice& confirmed);

// "diskvet-report-quick-2026-12-02T16-05-23Z.json" in dir.
std::string report_path_in(const std::string& dir, const std::string& suite);

}  // namespace diskvet::tui
