// The TUI's model: everything the screens show and the keys change. Plain values; views render it,
// keys.cpp updates it, run_model.cpp folds the runner's events into it. No terminal, no I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "devices/device.hpp"
#include "runner/analysis/verdict.hpp"
#include "runner/run/run_events.hpp"

namespace diskvet::tui {

enum class ScreenId { devices, details, suites, confirm, run, results, result_detail };
enum class Dialog { none, help, quit, abort };

struct DeviceRow {
  devices::Device device;
  bool selected = false;
};

struct SuiteChoice {
  std::string name;
  std::string description;
  bool placeholder = false;
  bool writes = true;             // any phase or workload writes: consent and free devices needed
  double estimate_s_per_device = 0;
};

// One device the confirmation screen asks about.
struct ConfirmEntry {
  std::string path, model, serial;
  uint64_t size_bytes = 0;
  std::string typed;
  std::string wwn;
  uint32_t nsid = 0;            // NVMe namespace id, else 0
  bool pick_namespace = false;  // its controller has several namespaces: the serial alone names none
  // What the operator must type: the serial's last characters (then "/NSID" when the namespace must
  // be picked), or YES when it has no serial.
  std::string expected() const;
  bool matches() const { return typed == expected(); }
};

inline constexpr size_t kSerialChars = 6;   // how many of the serial's last characters to type
inline constexpr size_t kHistory = 240;     // IOPS samples kept per device for the sparkline
inline constexpr size_t kLogLines = 200;

struct RunDeviceView {
  std::string path;
  runner::Phase phase = runner::Phase::gate;
  std::string test_id, detail;
  double fraction = 0;
  double elapsed_s = 0;
  std::optional<double> eta_s;
  double iops = 0, mb_per_s = 0, lat_mean_us = 0;
  double lat_p99_us = 0;  // of the last interval, both directions together
  std::vector<double> iops_history;
  std::optional<runner::VerdictStatus> verdict;
};

struct LogLine {
  runner::LogLevel level = runner::LogLevel::info;
  std::string text;
};

// One workload of a test as the detail view shows it: latency percentiles per direction and the
// IOPS of each interval of the measured window.
inline constexpr double kDetailPercentiles[] = {50, 90, 99, 99.9, 99.99};
struct ResultDirection {
  std::string name;  // "read", "write"
  uint64_t ios = 0;
  double iops = 0, mb_per_s = 0;
  std::vector<double> percentiles_us;  // in the order of kDetailPercentiles
};
struct ResultWorkload {
  std::string label;  // "randread 4KiB QD32 x2"
  bool ran = false;
  std::string error;
  std::vector<ResultDirection> directions;
  std::vector<double> interval_iops;
};

struct ResultTest {
  std::string id;
  runner::VerdictStatus status = runner::VerdictStatus::not_judged;
  std::vector<runner::MetricVerdict> verdicts;
  std::string reason;  // the first reason it is not PASS
  std::vector<ResultWorkload> workloads;
};
struct ResultDevice {
  std::string path;
  runner::VerdictStatus status = runner::VerdictStatus::not_judged;
  std::vector<std::string> reasons;
  std::vector<ResultTest> tests;
};
struct Results {
  runner::VerdictStatus overall = runner::VerdictStatus::not_judged;
  bool aborted = false;
  std::string abort_reason;
  int exit_code = 0;
  std::string report_path;   // where it was saved
  std::string report_error;  // why it could not be saved
  std::vector<ResultDevice> devices;
};

struct Model {
  int width = 80, height = 24;
  ScreenId screen = ScreenId::devices;
  Dialog dialog = Dialog::none;
  std::string status;  // one line: the last refusal or hint

  std::vector<DeviceRow> devices;
  size_t cursor = 0;
  std::string discovery_error;

  std::vector<SuiteChoice> suites;
  size_t suite_cursor = 0;
  std::vector<std::string> profiles{"auto"};  // "auto", the shipped profile names, the cloud families, "none"
  size_t profile_cursor = 0;
  std::string profile_hint;                    // per-device matches for the chosen profile, in words
  // A cloud family's parameters as typed ("iops=6000,mbps=250": e opens the field on the suite
  // screen), and what the command line's parser says of them for the chosen devices ("" when right).
  std::string profile_params;
  bool editing_params = false;
  std::string profile_error;

  std::vector<ConfirmEntry> confirm;
  size_t confirm_cursor = 0;
  std::string confirm_error;

  bool running = false;
  bool abort_requested = false;
  bool quit_after_run = false;
  std::string run_suite;
  std::vector<RunDeviceView> run;
  std::deque<LogLine> log;

  std::optional<Results> results;
  size_t result_cursor = 0;  // the device whose metrics are shown
  size_t detail_cursor = 0;  // the test the detail view shows
  bool quit = false;

  const DeviceRow* current_device() const { return cursor < devices.size() ? &devices[cursor] : nullptr; }
  const SuiteChoice* current_suite() const { return suite_cursor < suites.size() ? &suites[suite_cursor] : nullptr; }
  // The profile as --profile would say it: "auto", a name, "none", or FAMILY[:PARAMETERS].
  std::string chosen_profile() const;
  std::vector<const DeviceRow*> selected() const;
};

// Why the device cannot be chosen for a write test, or "" when it can.
std::string write_refusal(const devices::Device& d);

// The chosen cloud family with its parameters checked by the command line's own parser against each
// chosen device (its size, for the families sized from it): "" when the profile is right or no family.
std::string check_profile_params(const Model& m);

// Replaces the device list (a refresh), keeping the selection of devices still present and free.
void set_devices(Model& m, std::vector<devices::Device> found);

// Adds a line to the log pane, dropping the oldest past kLogLines.
void add_log(Model& m, runner::LogLevel level, std::string text);

}  // namespace diskvet::tui
