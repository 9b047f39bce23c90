// The devices screen: one row per disk (selection, path, model, serial, size, health, PROTECTED and
// why, or free) and a box with the full protection reasons of the device under the cursor.
#include <fmt/format.h>

#include <algorithm>

#include "common/units.hpp"
#include "tui/format.hpp"
#include "tui/view.hpp"

namespace diskvet::tui {

namespace {

std::string health_word(const devices::Health& h) {
  if (!h.known) return "unknown";
  return h.healthy() ? "ok" : "UNHEALTHY";
}

struct Columns {
  size_t sel = 4, path = 13, model = 11, serial = 13, size = 8, health = 9, status = 15;
};

Columns columns(int width) {
  Columns c;
  const int fixed = static_cast<int>(c.sel + c.path + c.serial + c.size + c.health) + 5;  // and their separators
  int rest = width - 2 - fixed - 1;  // model + separator + status
  c.model = static_cast<size_t>(std::clamp(rest * 2 / 5, 10, 28));
  c.status = static_cast<size_t>(std::max(rest - static_cast<int>(c.model), 8));
  return c;
}

}  // namespace

void render_devices(const Model& m, Canvas& c, Area a) {
  const Columns col = columns(a.width);
  const int box_h = 6;
  const int table_top = a.top + 2;
  const int table_bottom = a.bottom - box_h - 1;  // rows [table_top, table_bottom)
  size_t selected = m.selected().size();
  c.text(1, a.top, fit(fmt::format("{} device{}, {} selected for a write test", m.devices.size(), m.devices.size() == 1 ? "" : "s", selected),
                       static_cast<size_t>(a.width - 2)));
  auto line = [&](const std::string& sel, const std::string& path, const std::string& model, const std::string& serial,
                  const std::string& size, const std::string& health, const std::string& status) {
    return fit(sel, col.sel, true) + fit(path, col.path, true) + " " + fit(model, col.model, true) + " " + fit(serial, col.serial, true) +
           " " + fmt::format("{:>{}}", fit(size, col.size), col.size) + " " + fit(health, col.health, true) + " " + fit(status, col.status);
  };
  c.text(1, a.top + 1, line("", "PATH", "MODEL", "SERIAL", "SIZE", "HEALTH", "STATUS"), Style::dim);
  if (!m.discovery_error.empty()) c.text(1, table_top, fit(m.discovery_error, static_cast<size_t>(a.width - 2)), Style::bad);
  else if (m.devices.empty()) c.text(1, table_top, "(no disks found; r refreshes)", Style::dim);

  const int rows = std::max(table_bottom - table_top, 1);
  size_t first = m.cursor >= static_cast<size_t>(rows) ? m.cursor - static_cast<size_t>(rows) + 1 : 0;
  for (int i = 0; i < rows && first + static_cast<size_t>(i) < m.devices.size(); ++i) {
    const size_t idx = first + static_cast<size_t>(i);
    const DeviceRow& r = m.devices[idx];
    const auto& d = r.device;
    std::string why = write_refusal(d);
    std::string status = why.empty() ? "free" : why;
    std::string text = line(r.selected ? "[x]" : "[ ]", d.path, d.model.empty() ? "-" : d.model, d.serial.empty() ? "-" : d.serial,
                            format_bytes(d.size_bytes), health_word(d.health), status);
    const int y = table_top + i;
    const bool at = idx == m.cursor;
    if (at) c.fill(1, y, a.width - 2, Style::selected);
    c.text(1, y, text, at ? Style::selected : Style::normal);
    if (!at) {
      const int sx = 1 + static_cast<int>(col.sel + col.path + col.model + col.serial + col.size + col.health) + 5;
      c.text(sx, y, fit(status, col.status), why.empty() ? Style::good : Style::bad);
      if (!d.health.healthy() && d.health.known) c.text(sx - 1 - static_cast<int>(col.health), y, fit("UNHEALTHY", col.health), Style::bad);
    }
  }
  if (m.devices.size() > static_cast<size_t>(rows))
    c.text(a.width - 12, a.top + 1, fmt::format("{:>3}/{:<3}", m.cursor + 1, m.devices.size()), Style::dim);

  // The device under the cursor, in full.
  const int by = a.bottom - box_h;
  const DeviceRow* cur = m.current_device();
  c.frame(0, by, a.width, box_h, cur ? cur->device.path : "device");
  if (!cur) return;
  const auto& d = cur->device;
  const size_t inner = static_cast<size_t>(a.width - 4);
  c.text(2, by + 1, fit(fmt::format("{} {}  serial {}  {}  {}", devices::to_string(d.kind), d.model.empty() ? "-" : d.model,
                                    d.serial.empty() ? "(none)" : d.serial, format_bytes(d.size_bytes),
                                    d.wwn.empty() ? "" : "wwn " + d.wwn),
                        inner));
  int y = by + 2;
  if (!d.is_protected) {
    c.text(2, y++, fit("free: can be chosen for a write test (its data will be destroyed)", inner), Style::good);
  } else {
    c.text(2, y++, fit("PROTECTED: never written by diskvet. Why:", inner), Style::bad);
    for (const auto& reason : d.protection_reasons) {
      if (y >= by + box_h - 1) break;
      c.text(4, y++, fit("- " + reason, inner - 2), Style::bad);
    }
  }
  if (y < by + box_h - 1 && !d.health.problems.empty()) c.text(2, y, fit("UNHEALTHY: " + d.health.problems.front(), inner), Style::bad);
}

}  // namespace diskvet::tui
