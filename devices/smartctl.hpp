// SATA/SAS health through `smartctl --json` (smartmontools), when it is installed.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "devices/device.hpp"

namespace diskvet::devices {

// Health from smartctl's JSON output (`smartctl --json -a`): smart_status.passed, temperature,
// ATA attributes 5/187/197/198, SCSI grown defects and uncorrected errors. nullopt when the
// output says nothing about SMART (not supported, or the device could not be opened).
std::optional<Health> parse_smartctl_json(std::string_view json_text);

// Runs smartctl on the device node (never waking a disk in standby) and parses its output;
// nullopt when smartctl is missing or fails.
std::optional<Health> run_smartctl(const std::string& node);

}  // namespace diskvet::devices
