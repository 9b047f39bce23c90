// Health: the snapshot the runner takes before and after a run, the gate that says a device is
// unhealthy (its acceptance verdict can then never be PASS), and the delta between two snapshots.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "devices/device.hpp"
#include "devices/host_paths.hpp"

namespace diskvet::devices {

// Reads health from the best source the device has: NVMe SMART/health log (libnvme), else
// `smartctl --json` for SATA/SAS when installed, else unknown (with a drivetemp temperature
// when hwmon has one). Never fails: what cannot be read stays unknown. Fills problems.
Health read_health(const Device& d, const HostPaths& host = {});

// The health gate (issue 3): critical warning set; available spare strictly below its threshold
// (QEMU's emulated drive reports both as 0, which is not a failure); media/data-integrity errors;
// percentage used at or over 100; a failed SMART self-assessment or pending sectors. Replaces
// h.problems with the words for each; unknown fields are not judged.
void evaluate_health(Health& h);

// What changed between the snapshot before a run and the one after (and any taken in between).
struct HealthDelta {
  std::optional<uint64_t> new_media_errors;
  std::optional<uint64_t> new_error_log_entries;  // judged entry by entry (nvme_error_log.hpp's review_error_log)
  std::optional<uint32_t> new_thermal_transitions;
  std::optional<uint32_t> new_warning_temp_time_min;
  std::optional<uint32_t> new_critical_temp_time_min;
  std::optional<uint64_t> data_units_written;  // during the run, thousands of 512-byte units
  std::optional<uint64_t> data_units_read;
  std::optional<double> max_temperature_c;     // the highest temperature any snapshot showed
  bool became_unhealthy = false;               // healthy before, unhealthy after
  std::vector<std::string> problems;           // in words, for the report
  bool worsened() const { return !problems.empty(); }
};

HealthDelta health_delta(const Health& before, const Health& after);
// Folds a snapshot taken during the run (health polling) into the delta's maximum temperature.
void note_sample(HealthDelta& delta, const Health& sample);

}  // namespace diskvet::devices
