// Many reports as one fleet: every drive a row, grouped by model, firmware and capacity (identical
// drives only: a firmware or a size apart is another population), outliers flagged against their
// group's median (IOPS more than 10% below it, p99 more than 10% above it, with the group's size),
// failures first. Max-IOPS is compared at one queue depth every drive of the group ran in its sweep
// (the largest they share), never at each drive's own knee. CSV for the purchasing department.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runner/compare/report_index.hpp"

namespace diskvet::runner {

struct FleetOptions {
  double outlier_pct = 10;
};

struct FleetColumn {
  std::string id;     // "max-iops/randread#0/read:iops"
  std::string label;  // "max-iops read IOPS"
  const CompareMetric* kind = nullptr;
  bool at_common_qd = false;
};

struct FleetCell {
  std::optional<double> value;
  std::optional<double> outstanding;  // the common queue depth it was read at (sweeps)
  std::optional<double> median;       // of the group, when the group has two or more values
  double off_pct = 0;                 // worse than the median by this much (negative: better)
  bool outlier = false;
};

struct FleetRow {
  std::string file;
  DeviceIndex device;
  std::string group;
  size_t group_size = 0;
  std::map<std::string, FleetCell> cells;  // by FleetColumn::id
  std::vector<std::string> outliers;       // in words
};

struct FleetGroup {
  std::string key, model, firmware;
  uint64_t size_bytes = 0;
  size_t drives = 0, failing = 0, outliers = 0;
  std::map<std::string, double> common_outstanding;  // per sweep column id
};

struct Fleet {
  std::vector<FleetColumn> columns;
  std::vector<FleetGroup> groups;
  std::vector<FleetRow> rows;  // failures first, then outliers, then by group
  double outlier_pct = 10;
};

Fleet build_fleet(const std::vector<ReportIndex>& reports, const FleetOptions& options);

std::string fleet_text(const Fleet& f);
std::string fleet_html(const Fleet& f);
// One line per drive, numbers in base units (IOPS, bytes/s, ns) so a spreadsheet can sum them.
std::string fleet_csv(const Fleet& f);

}  // namespace diskvet::runner
