// The plan room: every front end that runs a suite on this host (`diskvet run`, the terminal UI,
// the image's unattended mode, which calls `diskvet run`) turns what the operator asked for into a
// RunPlan here, once. build_plan returns either a plan that can run to its end or the reason it
// cannot, and nothing is written to any device before it returns: the report is claimed, every
// target has passed the gate and is held, every profile is chosen, every workload is checked against
// the device it will run on, and verification memory is sized.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "devices/consent.hpp"
#include "devices/device.hpp"
#include "devices/loop_device.hpp"
#include "runner/plan/test_file.hpp"
#include "runner/report/report_file.hpp"
#include "runner/run/run_plan.hpp"
#include "suites/cloud_profile.hpp"
#include "suites/suite.hpp"

namespace diskvet::runner {

// A test file of diskvet's own in a directory on a mounted volume (`run --directory`).
struct FileTargetRequest {
  std::string directory;
  uint64_t size_bytes = uint64_t{1} << 30;
  bool keep = false;  // --keep-file: kept once the plan stands; a refused plan removes it
};

// Who chose the profile, as the report's profile reason says it.
enum class ProfileChooser { command_line, tui };

// What the operator asked for, from any front end; parsed, not yet checked against anything.
struct PlanRequest {
  suites::Suite suite;  // resolve_run_suite (a placeholder is refused)
  // Targets: named paths (block devices or files), or every unprotected disk (`all`), or a file of our
  // own in a directory; none of them: a scratch loop device (root), else a scratch file here.
  std::vector<std::string> devices;
  bool all = false;
  std::optional<FileTargetRequest> file_target;
  uint64_t scratch_size_bytes = uint64_t{1} << 30;
  devices::Consent consent;
  std::string profile = "auto";  // NAME | FILE | FAMILY:KEY=VALUE,... | auto | none
  ProfileChooser chooser = ProfileChooser::command_line;
  std::optional<suites::HostCap> host_cap;
  std::map<std::string, uint64_t> rate_caps;  // device path as named -> total IOPS
  std::string out;                            // the report's path
  std::string out_option = "--out";           // names it in messages
  RunOptions options;                         // measurement_only is set from `profile`
  // Called for each block device once the gate holds it (O_EXCL), with discovery's view of it then;
  // an error refuses the run. The TUI checks it is still the device the operator confirmed.
  std::function<Status(const std::string& path, const devices::Device& now)> confirm;
};

// A plan that can run to its end, and everything it holds. Members are released in reverse order:
// the targets (O_EXCL) first, then an unused report claim, then the files made for the run, and the
// scratch loop device last.
struct PlannedRun {
  std::optional<devices::LoopDevice> scratch_loop;
  OwnedFile scratch_file;  // the scratch or --directory file: removed afterwards unless kept
  ClaimedOutput report;
  std::vector<std::string> notes;  // what the plan decided that the report should say
  RunPlan plan;

  PlannedRun() = default;
  PlannedRun(PlannedRun&&) noexcept = default;
  PlannedRun& operator=(PlannedRun&&) = delete;
  // Closes every target (before the scratch device is detached, so its detach is not refused).
  void release_targets() { plan.devices.clear(); }
};

// Every check, in the order that keeps a refusal cheap: options, profiles, the report claim, then each
// target through the gate, then the workloads against the devices. Any failure is returned (a usage
// or safety error: exit 2) with everything made so far released.
Result<PlannedRun> build_plan(PlanRequest request);

// A suite by name or file that can run (a placeholder is a usage error).
Result<suites::Suite> resolve_run_suite(const std::string& name_or_file);

// A duration option (--duration, --precondition-limit): at least min_s, at most a year.
Result<double> parse_duration_option(const std::string& text, const std::string& option, double min_s);

// "diskvet-report-quick-2026-12-05T02-30-00Z.json" ("hosts-report" for `run --hosts`): no colons,
// so the name is valid on the FAT sticks and Windows shares reports are copied to.
std::string default_report_name(const std::string& kind, const std::string& suite);

// The devices library's effects for a run: health before, during and after (none for a file), and the
// NVMe purge through the target the gate opened.
RunHooks device_run_hooks();

}  // namespace diskvet::runner
