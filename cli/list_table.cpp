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

std::string row(const std::string& a, const std::string& b, const std::string& c, const std::string& d,
                const std::string& e, const std::string& f, const std::string& g) {
  std::string line = fmt::format("{:<13} {:<6} {:<16} {:<13} {:>8} {:<9} {}", a, b, c, d, e, f, g);
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line + "\n";
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
  // 13 + 6 + 16 + 13 + 8 + 9 + 7 columns and six separating spaces: 78, inside 80 columns.
  std::string out = row("PATH", "KIND", "MODEL", "SERIAL", "SIZE", "LBS/PBS", "HEALTH");
  if (devices.empty()) return out + "(no disks found)\n";
  for (const auto& d : devices) {
    out += row(fit(d.path, 13), fit(std::string(devices::to_string(d.kind)), 6), fit(d.model, 16),
                       fit(d.serial.empty() ? "-" : d.serial, 13), fit(format_bytes(d.size_bytes), 8),
                       fit(fmt::format("{}/{}", d.logical_block_size, d.physical_block_size), 9),
                       health_word(d.health));
    // The consent ID names this disk alone (SERIAL/NSID where a controller has several namespaces).
    if (!d.is_protected) {
      std::string also = d.consent_id.empty() ? "" : " or " + d.consent_id;
      out += "  " + fit("writable with --destroy-data " + d.path + also, kTableWidth - 2) + "\n";
    } else {
      // One reason a line, so none is cut off; the label says whether consent can override.
      bool strong = !d.consent_id.empty();
      std::string label = d.protection_overridable && strong ? "PROTECTED (its consent ID overrides): " : "PROTECTED: ";
      for (size_t i = 0; i < d.protection_reasons.size(); ++i)
        out += "  " + fit((i == 0 ? label : std::string(label.size(), ' ')) + d.protection_reasons[i], kTableWidth - 2) + "\n";
      if (d.protection_overridable && strong)
        out += "  " + fit("overridden only by --destroy-data " + d.consent_id, kTableWidth - 2) + "\n";
    }
    if (!d.health.problems.empty()) out += "  " + fit("UNHEALTHY: " + joined(d.health.problems), kTableWidth - 2) + "\n";
  }
  return out;
}

}  // namespace diskvet::cli
