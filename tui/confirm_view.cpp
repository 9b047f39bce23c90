// The confirmation screen: what will be destroyed, and per device a field where the operator types
// the serial's last characters (or YES for a serial-less scratch device). Protected devices are
// listed apart with the reason they are never offered.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "common/units.hpp"
#include "tui/format.hpp"
#include "tui/view.hpp"

namespace diskvet::tui {

void render_confirm(const Model& m, Canvas& c, Area a) {
  const size_t inner = static_cast<size_t>(a.width - 2);
  const SuiteChoice* s = m.current_suite();
  const std::string suite = s ? s->name : "?";
  int y = a.top;
  if (m.confirm.empty()) {
    c.text(1, y, "No device is selected: esc goes back.", Style::warn);
    return;
  }
  c.text(1, y++, fit(fmt::format("Suite {} WRITES to these devices. ALL DATA ON THEM WILL BE DESTROYED:", suite), inner), Style::bad);
  ++y;
  for (size_t i = 0; i < m.confirm.size() && y < a.bottom - 6; ++i) {
    const ConfirmEntry& e = m.confirm[i];
    const bool at = i == m.confirm_cursor;
    c.text(1, y++, fit(fmt::format("{} {}  {}  serial {}  {}", at ? ">" : " ", e.path, e.model.empty() ? "-" : e.model,
                                   e.serial.empty() ? "(none)" : e.serial, format_bytes(e.size_bytes)),
                       inner),
           at ? Style::selected : Style::normal);
    std::string ask = e.serial.empty()       ? "no serial: type YES"
                      : e.pick_namespace ? fmt::format("type its serial's last {} characters, then /{} (namespace {})",
                                                       e.expected().size() - 1 - std::to_string(e.nsid).size(), e.nsid, e.nsid)
                                         : fmt::format("type the last {} characters of its serial", e.expected().size());
    int x = c.text(5, y, ask + ": [", Style::normal);
    const size_t field = std::max<size_t>(e.expected().size(), 6);
    x = c.text(x, y, fit(e.typed, field, true), at ? Style::selected : Style::normal);
    x = c.text(x, y, "]", Style::normal);
    if (e.matches()) c.text(x + 1, y, "ok", Style::good);
    y += 2;
  }
  // What was not offered, and why (the devices screen refused them).
  std::vector<std::string> refused;
  for (const auto& r : m.devices)
    if (r.device.is_protected) refused.push_back(fmt::format("{}: {}", r.device.path, write_refusal(r.device)));
  if (!refused.empty() && y < a.bottom - 3) {
    c.text(1, y++, "Never offered for writing:", Style::dim);
    for (const auto& r : refused) {
      if (y >= a.bottom - 3) break;
      c.text(3, y++, fit(r, inner - 2), Style::dim);
    }
  }
  if (!m.confirm_error.empty()) c.text(1, a.bottom - 2, fit(m.confirm_error, inner), Style::bad);
  c.text(1, a.bottom - 1, fit("Nothing starts until every field matches. Enter starts the run.", inner), Style::dim);
}

}  // namespace diskvet::tui
