// RunPlan: the suite, and per device its opened target, its profile and lab options — everything a
// run needs, decided before the first I/O. Effects the runner cannot do itself come through hooks.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "devices/device.hpp"
#include "devices/self_test.hpp"
#include "runner/io/clock.hpp"
#include "runner/io/target.hpp"
#include "runner/run/fast_path.hpp"
#include "runner/run/run_result.hpp"
#include "runner/verify/verify_state.hpp"
#include "suites/profile.hpp"
#include "suites/suite.hpp"

namespace diskvet::runner {

struct DevicePlan {
  devices::Device device;
  Target target;   // opened through the protection gate when writable (held O_EXCL for the run)
  std::optional<suites::Profile> profile;
  std::string profile_reason;
  uint64_t rate_cap_iops = 0;  // total IOPS cap for every workload on this device (0: none)
  // How the device's verification state is kept, sized by plan_verify_memory before anything is
  // written (unset: run_device sizes it from RunOptions::verify_memory_bytes).
  std::optional<VerifyLayout> verify_layout = std::nullopt;
  // The first of this device's seeds (runner/io/seed.hpp): each engine run on it takes the next.
  // run_suite derives it from the run's seed and the device's place in the plan.
  uint64_t seed = 0;
  // NVMe passthrough and polling where the suite asks for them and the device has them, decided
  // before anything is written (runner/run/fast_path.hpp).
  FastPath fast_path{};
};

// How far a long purge (a sanitize) is: fraction 0..1, the remaining time when known, a line of detail.
using PurgeProgress = std::function<void(double fraction, std::optional<double> eta_s, const std::string& detail)>;

// What an NVMe purge hook did: the record when the controller accepted a purge command (done or
// failed), else why none was issued (the runner then tries discard and says so).
struct NvmePurgeAnswer {
  std::optional<PurgeRecord> record;
  std::string why_not;
};

// Effects at the edges, supplied by the front end (the devices library implements them).
struct RunHooks {
  // Health now; nullopt when no source is known. Called before and after the tests.
  std::function<std::optional<devices::Health>(const devices::Device&)> read_health;
  // NVMe sanitize or format with user-data erase, through the target the gate opened for writing
  // (never called otherwise). See NvmePurgeAnswer; runner::purge_nvme is the devices library's.
  std::function<NvmePurgeAnswer(const devices::Device&, const Target&, const PurgeProgress&)> nvme_purge;
  // The device's self-test backend (devices::open_self_test); unset or nullptr: it has none.
  std::function<std::unique_ptr<devices::SelfTestDevice>(const devices::Device&)> self_test;
  // The engine sampler's and watchdog's clock for every workload (tests: synthetic time, see
  // RunControl::sampler_clock); nullptr: the system's.
  Clock* sampler_clock = nullptr;
};

struct RunOptions {
  bool parallel = false;
  std::optional<double> precondition_limit_s;  // overrides the suite's cap
  std::optional<double> duration_s;            // overrides every measurement window's runtime
  const std::atomic<bool>* stop = nullptr;     // SIGINT/SIGTERM: stop cleanly, partial report
  // --profile none: the user asked for numbers, not verdicts on limits. Unjudged tests then end the
  // run with 0 when everything ran; the report says so. Health, errors and verification still judge.
  bool measurement_only = false;
  // Verification state of the whole run (every device, every job): split over the devices when they
  // run in parallel (--verify-memory).
  uint64_t verify_memory_bytes = kDefaultVerifyMemoryBytes;
  // --randseed: repeat a run's offsets and write data; unset, the run draws a seed of its own.
  std::optional<uint64_t> randseed;
};

struct RunPlan {
  suites::Suite suite;
  std::vector<DevicePlan> devices;
  RunOptions options;
};

}  // namespace diskvet::runner
