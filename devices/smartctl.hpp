// SATA/SAS health through `smartctl --json` (smartmontools), when it is installed.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "devices/device.hpp"
#include "devices/self_test.hpp"

namespace diskvet::devices {

// Health from smartctl's JSON output (`smartctl --json -a`): smart_status.passed, temperature,
// ATA attributes 5/187/197/198, SCSI grown defects and uncorrected errors. nullopt when the
// output says nothing about SMART (not supported, or the device could not be opened).
std::optional<Health> parse_smartctl_json(std::string_view json_text);

// A SATA or SAS drive's self-test state from `smartctl --json -c -l selftest`.
// ATA: whether it runs self-tests (ata_smart_data.capabilities.self_tests_supported), its recommended
// polling times (ata_smart_data.self_test.polling_minutes), whether one is running and how far
// (ata_smart_data.self_test.status: value F_h in progress, remaining_percent), and the self-test log's
// newest entry (ata_smart_self_test_log.standard.table[0]).
// SAS (device.protocol "SCSI"): self-tests are there when smartctl could read the self-test results
// log (an entry, or an exit status without its failed-command bit); the extended test's time from
// the Control mode page (scsi_extended_self_test_seconds, printed only beside a non-empty log), the
// short one's from SPC-4 (two minutes at most); running when the newest entry's result is Fh (its
// progress is not in the JSON). nullopt when the output is neither.
struct SmartctlSelfTestState {
  bool supported = false;
  std::string unsupported_why;  // when not supported, in words
  std::optional<double> short_min, extended_min;
  std::string short_source, extended_source;  // where each estimate comes from
  bool running = false;
  std::optional<double> percent_done;
  std::optional<SelfTestLogEntry> newest;
  std::string log_text;  // the self-test log as smartctl gave it: a new entry changes it
};
std::optional<SmartctlSelfTestState> parse_smartctl_self_test(std::string_view json_text);

// How long one smartctl may take (a SCSI drive spinning up answers in seconds; a hung one never).
inline constexpr std::chrono::milliseconds kSmartctlDeadline{15000};
// smartctl's health of the device at `node` (never waking a disk in standby); nullopt when smartctl is missing, failed, or did not
// answer within kSmartctlDeadline (it is killed then).
std::optional<Health> run_smartctl(const std::string& node, std::chrono::milliseconds deadline = kSmartctlDeadline);

// One smartctl run (argv after "smartctl"): its exit status and standard output; nullopt when it is
// not installed or did not end within the deadline (it is killed then).
// smartctl's exit status is a bit mask (smartctl(8)): bit 6 says the error log holds errors and
// bit 7 that the self-test log does, so a healthy answer from a drive with an old failed self-test
// exits 128 or more; only a status the JSON does not repeat (smartctl.exit_status) is a signal.
struct SmartctlOutput {
  int exit_status = 0;  // -1: not known
  bool killed = false;  // ended by a signal, not by exit
  std::string text;
  // Killed, not known, or any of `bits` set.
  bool failed(int bits) const { return killed || exit_status < 0 || (exit_status & bits) != 0; }
};
std::optional<SmartctlOutput> smartctl_output(const std::vector<std::string>& args, std::chrono::milliseconds deadline = kSmartctlDeadline);

}  // namespace diskvet::devices
