// The health gate, snapshot deltas, and choosing a health source per device.
#include "devices/health.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "devices/disk_stats.hpp"
#include "devices/hwmon.hpp"
#include "devices/nvme.hpp"
#include "devices/nvme_layout.hpp"
#include "devices/smartctl.hpp"

namespace diskvet::devices {

void evaluate_health(Health& h) {
  h.problems.clear();
  if (!h.known) return;
  if (h.critical_warning && *h.critical_warning) {
    std::string words;
    for (const auto& w : critical_warning_words(*h.critical_warning)) words += (words.empty() ? "" : ", ") + w;
    h.problems.push_back(fmt::format("critical warning 0x{:02x}: {}", *h.critical_warning, words));
  }
  // Strictly below: a drive reporting spare 0 with threshold 0 (QEMU) is not out of spare.
  if (h.available_spare_pct && h.available_spare_threshold_pct && *h.available_spare_pct < *h.available_spare_threshold_pct)
    h.problems.push_back(fmt::format("available spare {}% is below its threshold {}%", *h.available_spare_pct,
                                     *h.available_spare_threshold_pct));
  if (h.media_errors && *h.media_errors > 0) h.problems.push_back(fmt::format("{} media and data integrity errors", *h.media_errors));
  if (h.percentage_used && *h.percentage_used >= 100)
    h.problems.push_back(fmt::format("percentage used {}%: rated endurance reached", *h.percentage_used));
  if (h.smart_passed && !*h.smart_passed) h.problems.push_back("SMART overall self-assessment failed");
  if (h.pending_sectors && *h.pending_sectors > 0) h.problems.push_back(fmt::format("{} sectors pending reallocation", *h.pending_sectors));
}

namespace {

template <typename T>
std::optional<T> grew(const std::optional<T>& before, const std::optional<T>& after) {
  if (!before || !after) return std::nullopt;
  return *after > *before ? static_cast<T>(*after - *before) : T{0};
}

}  // namespace

void note_sample(HealthDelta& delta, const Health& sample) {
  if (sample.temperature_c && (!delta.max_temperature_c || *sample.temperature_c > *delta.max_temperature_c))
    delta.max_temperature_c = sample.temperature_c;
}

HealthDelta health_delta(const Health& before, const Health& after) {
  HealthDelta d;
  d.new_media_errors = grew(before.media_errors, after.media_errors);
  d.new_error_log_entries = grew(before.error_log_entries, after.error_log_entries);
  d.new_thermal_transitions = grew(before.thermal_transitions, after.thermal_transitions);
  d.new_warning_temp_time_min = grew(before.warning_temp_time_min, after.warning_temp_time_min);
  d.new_critical_temp_time_min = grew(before.critical_temp_time_min, after.critical_temp_time_min);
  d.data_units_written = grew(before.data_units_written, after.data_units_written);
  d.data_units_read = grew(before.data_units_read, after.data_units_read);
  note_sample(d, before);
  note_sample(d, after);
  d.became_unhealthy = before.healthy() && after.known && !after.healthy();
  // smartctl's media errors are attributes 187 + 198 (or SAS uncorrected errors): when both
  // snapshots carry the counters, review_smart_counters names each one, so they are not said twice.
  const bool counters_named = !before.smart_counters.empty() && !after.smart_counters.empty();
  if (d.new_media_errors.value_or(0) && !counters_named)
    d.problems.push_back(fmt::format("{} new media and data integrity errors", *d.new_media_errors));
  if (d.new_thermal_transitions.value_or(0))
    d.problems.push_back(fmt::format("{} thermal-management transitions (throttling) during the run", *d.new_thermal_transitions));
  if (d.new_critical_temp_time_min.value_or(0))
    d.problems.push_back(fmt::format("{} min above the critical temperature", *d.new_critical_temp_time_min));
  else if (d.new_warning_temp_time_min.value_or(0))
    d.problems.push_back(fmt::format("{} min above the warning temperature", *d.new_warning_temp_time_min));
  if (d.became_unhealthy)
    for (const auto& p : after.problems) d.problems.push_back("became unhealthy: " + p);
  return d;
}

Health read_health(const Device& d, const HostPaths& host) {
  Health h;
  if (d.kind == DeviceKind::nvme && host.live()) {
    if (auto nvme = read_nvme(d)) h = nvme->health;  // health only: identity stays as discovered
  } else if ((d.kind == DeviceKind::scsi || d.kind == DeviceKind::other) && host.live()) {
    if (auto smart = run_smartctl(d.path)) h = *smart;
  }
  if (h.known && !d.name.empty()) {
    // What this host sent, read beside the drive's own counters (write_accounting.hpp).
    const SectorsWritten w = sectors_written(d.name, d.kind == DeviceKind::nvme ? d.nvme_controller : "", host.sysfs);
    h.device_sectors_written = w.device;
    h.host_sectors_written = w.covered;
  }
  if (!h.temperature_c)
    if (auto t = drivetemp_c(d, host)) {
      h.temperature_c = t;
      if (h.source.empty()) h.source = "hwmon";  // a temperature alone does not make health known
    }
  evaluate_health(h);
  return h;
}

}  // namespace diskvet::devices
