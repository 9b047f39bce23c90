// A drive's own self-test (issue 26): started, polled until it ends, aborted on interruption or when
// it runs past the drive's own estimate plus a margin, and its result read from the drive's log, in
// the drive's words. One interface per seam: SelfTestDevice is what a drive offers (NVMe Device
// Self-test through libnvme, nvme_self_test.hpp; SATA through smartctl, smartctl_self_test.hpp),
// run_self_test the logic over it, tested over fakes.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/error.hpp"
#include "devices/device.hpp"

namespace diskvet::devices {

enum class SelfTestType { none, short_test, extended };
std::string_view to_string(SelfTestType t);  // "none", "short", "extended"
std::optional<SelfTestType> parse_self_test_type(std::string_view text);

// passed; failed (the drive says a segment or element failed); aborted (a reset, a command, a
// format: the test did not finish); timed_out (still running past its time, aborted by diskvet);
// interrupted (the operator stopped the run); not_supported (stated, never passed); error (it could
// not be started or its log not read).
enum class SelfTestResult { passed, failed, aborted, timed_out, interrupted, not_supported, error };
std::string_view to_string(SelfTestResult r);

// What the drive says about self-tests before one starts.
struct SelfTestSupport {
  bool supported = false;
  std::string why;  // not supported: why, in words
  // The drive's own estimate of the test's length, and where it comes from ("NVMe EDSTT",
  // "ATA polling time"); nullopt when it gives none.
  std::optional<double> estimate_min;
  std::string estimate_source;
};

// The newest entry of the drive's self-test log, as the drive words it.
struct SelfTestLogEntry {
  SelfTestResult result = SelfTestResult::passed;  // passed, failed or aborted
  std::string words;                               // "Operation completed without error (result 0h)"
  std::optional<uint32_t> failed_segment;
  std::optional<uint64_t> failing_lba;
  std::optional<uint64_t> power_on_hours;
};

// One look at a running or ended test.
struct SelfTestPoll {
  bool running = false;
  std::optional<double> percent_done;     // while running
  std::optional<SelfTestLogEntry> newest; // when not running: the log's newest entry
};

class SelfTestDevice {
 public:
  virtual ~SelfTestDevice() = default;
  virtual std::string source() const = 0;  // "nvme", "smartctl"
  virtual SelfTestSupport support(SelfTestType type) = 0;
  virtual Status start(SelfTestType type) = 0;
  virtual Result<SelfTestPoll> poll() = 0;
  virtual Status abort() = 0;
};

// Time as run_self_test sees it: the real one sleeps and reads the steady clock, a test's advances
// by what is slept. wait returns false when the run was interrupted.
struct SelfTestClock {
  std::function<double()> now_s;
  std::function<bool(double seconds)> wait;
};
// The steady clock, waking every 100 ms to look at *stop (may be null).
SelfTestClock real_self_test_clock(const std::atomic<bool>* stop);

// When a test without an estimate is given up: the short test is specified at 2 minutes (NVMe
// Base Specification 2.0, Device Self-test command; ATA's short self-test likewise); an extended one
// without an estimate gets 24 hours.
inline constexpr double kShortSelfTestMin = 2;
inline constexpr double kExtendedSelfTestDefaultMin = 24 * 60;
// The margin past the drive's estimate before the test counts as hung: half the estimate, at least
// 5 minutes (a drive busy with host I/O, or in background work, runs its test slower than it said).
double self_test_timeout_min(double estimate_min);

struct SelfTestOutcome {
  SelfTestType type = SelfTestType::none;
  std::string source;
  SelfTestResult result = SelfTestResult::not_supported;
  std::string words;  // the drive's words, or why diskvet ended it
  std::optional<SelfTestLogEntry> entry;
  std::optional<double> estimate_min;
  std::string estimate_source;
  double timeout_min = 0;
  double elapsed_s = 0;
  double last_percent = 0;
  size_t polls = 0;
  bool passed() const { return result == SelfTestResult::passed; }
};

// Progress while the test runs: the drive's percent done (0..100) and a line for people.
using SelfTestProgress = std::function<void(double percent, const std::string& line)>;

// Starts the test, polls it until it ends, and returns the log's newest entry in the drive's words;
// aborts it (and says so) on interruption or when it runs past self_test_timeout_min of its estimate.
SelfTestOutcome run_self_test(SelfTestDevice& dev, SelfTestType type, const SelfTestClock& clock, const SelfTestProgress& progress = {});

// The backend for a device: NVMe through its controller, SATA/SAS through smartctl; nullptr when the
// kind of device has no self-test (loop, zram, virtio, a file).
std::unique_ptr<SelfTestDevice> open_self_test(const Device& d);

}  // namespace diskvet::devices
