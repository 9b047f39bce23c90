// Layout of the device table: fixed columns, long values cut with '~' so the table stays 80 wide.
#include "cli/list_table.hpp"

#include <fmt/format.h>

#include "common/units.hpp"

namespace diskvet::cli {

namespace {

std::string fit(const std::string& s, size_t width) {
  if (s.size() <= width) return s;
  return s.substr(0, width - 1) + "~";
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : "; ") + s;
  return out;
}

}  // namespace

std::string health_word(const devices::Health& h) {
  if (!h.known) return "unknown";
  return h.healthy() ? "ok" : "UNHEALTHY";
}

std::string render_device_table(const std::vector<devices::Device>& devices) {
  // 14 + 6 + 17 + 14 + 8 + 10 + 9 columns and six separating spaces: 84 would be too wide, so the
  // widths below add up to 80 exactly.
  constexpr const char* kRow = "{:<13} {:<6} {:<16} {:<13} {:>8} {:<9} {:<7}\n";
  std::string out = fmt::format(kRow, "PATH", "KIND", "MODEL", "SERIAL", "SIZE", "LBS/PBS", "HEALTH");
  if (devices.empty()) return out + "(no disks found)\n";
  for (const auto& d : devices) {
    out += fmt::format(kRow, fit(d.path, 13), fit(std::string(devices::to_string(d.kind)), 6), fit(d.model, 16),
                       fit(d.serial.empty() ? "-" : d.serial, 13), fit(format_bytes(d.size_bytes), 8),
                       fit(fmt::format("{}/{}", d.logical_block_size, d.physical_block_size), 9),
                       health_word(d.health));
    std::string status;
    if (!d.is_protected) status = "writable with --destroy-data " + d.path;
    else if (d.protection_overridable) status = "PROTECTED (serial/WWN consent overrides): " + joined(d.protection_reasons);
    else status = "PROTECTED: " + joined(d.protection_reasons);
    out += "  " + fit(status, kTableWidth - 2) + "\n";
    if (!d.health.problems.empty()) out += "  " + fit("UNHEALTHY: " + joined(d.health.problems), kTableWidth - 2) + "\n";
  }
  return out;
}

}  // namespace diskvet::cli
