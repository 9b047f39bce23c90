// SATA/SAS counters that predict failure, compared across a run (issue 26): growth during the run
// in reallocated sectors (ATA attribute 5), reported uncorrectable errors (187), command timeouts
// (188), current pending sectors (197), offline uncorrectable sectors (198), the SAS grown defect
// list and the SAS error counter log's uncorrected errors FAILs the device; growth in interface CRC
// errors (199) is named as a cable or backplane fault and makes the device INCONCLUSIVE. Pure: the
// counters come from the smartctl snapshots before and after the run (smartctl.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "devices/device.hpp"

namespace diskvet::devices {

struct SmartCounterFinding {
  std::string key;   // SmartCounter::key
  std::string name;  // SmartCounter::name
  uint64_t before = 0, after = 0;
  bool fails = false;  // false: the device is INCONCLUSIVE (a link fault, not the drive)
  std::string words;
};

struct SmartCounterReview {
  size_t compared = 0;                      // counters present in both snapshots
  std::vector<SmartCounterFinding> findings;  // only counters that grew
  std::vector<std::string> problems;        // each FAILs the device
  std::vector<std::string> inconclusive;    // each makes it INCONCLUSIVE
};

// nullopt when the snapshot before the run has no such counters (no smartctl, or NVMe).
std::optional<SmartCounterReview> review_smart_counters(const Health& before, const Health& after);

}  // namespace diskvet::devices
