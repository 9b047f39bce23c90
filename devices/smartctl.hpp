// SATA/SAS health through `smartctl --json` (smartmontools), when it is installed.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "devices/device.hpp"

namespace diskvet::devices {

// Health from smartctl's JSON output (`smartctl --json -a`): smart_status.passed, temperature,
// ATA attributes 5/187/197/198, SCSI grown defects and uncorrected errors. nullopt when the
// output says nothing about SMART (not supported, or the device could not be opened).
std::optional<Health> parse_smartctl_json(std::string_view json_text);

// How long one smartctl may take (a SCSI drive spinning up answers in seconds; a hung one never).
inline constexpr std::chrono::milliseconds kSmartctlDeadline{15000};
// smartctl's health of the device at `node` (never waking a disk in standby); nullopt when smartctl is missing, failed, or did not
// answer within kSmartctlDeadline (it is killed then).
std::optional<Health> run_smartctl(const std::string& node, std::chrono::milliseconds deadline = kSmartctlDeadline);

}  // namespace diskvet::devices
