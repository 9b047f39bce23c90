// The suite and profile screen: each shipped suite with its description and expected duration for
// the chosen devices; the profile (auto-matched per device, p to override).
#include <fmt/format.h>

#include "common/units.hpp"
#include "suites/cloud_profile.hpp"
#include "tui/format.hpp"
#include "tui/view.hpp"

namespace diskvet::tui {

void render_suites(const Model& m, Canvas& c, Area a) {
  const size_t n = m.selected().size();
  const size_t inner = static_cast<size_t>(a.width - 2);
  c.text(1, a.top, fit(fmt::format("Suite for {} device{}:", n, n == 1 ? "" : "s"), inner));
  int y = a.top + 2;
  for (size_t i = 0; i < m.suites.size() && y < a.bottom - 6; ++i) {
    const SuiteChoice& s = m.suites[i];
    const bool at = i == m.suite_cursor;
    std::string dur = s.placeholder ? "placeholder" : "about " + format_duration(s.estimate_s_per_device * static_cast<double>(n));
    std::string head = fmt::format("{} {:<12} {}", at ? ">" : " ", s.name, dur);
    if (at) c.fill(1, y, a.width - 2, Style::selected);
    c.text(1, y, fit(head, inner), at ? Style::selected : Style::normal);
    c.text(5, y + 1, fit(s.description, inner - 4), Style::dim);
    y += 3;
  }
  const int py = a.bottom - 5;
  c.rule(0, py - 1, a.width);
  const std::string name = m.profile_cursor < m.profiles.size() ? m.profiles[m.profile_cursor] : "auto";
  const bool family = suites::is_cloud_family(name);
  c.text(1, py, fit(fmt::format("Profile: {}  ({})", m.chosen_profile(),
                                family ? "p changes it; e edits the family's parameters, e.g. iops=6000,mbps=250"
                                       : "p changes it; auto matches each device by model and size"),
                    inner));
  int ly = py + 1;
  if (m.editing_params) c.text(3, ly++, fit(fmt::format("Parameters: {}_   (enter checks them, esc leaves them)", m.profile_params), inner - 2), Style::key);
  if (!m.profile_error.empty()) c.text(3, ly++, fit(m.profile_error, inner - 2), Style::bad);
  size_t start = 0;
  while (ly < a.bottom && start < m.profile_hint.size()) {
    size_t nl = m.profile_hint.find('\n', start);
    std::string line = m.profile_hint.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    c.text(3, ly++, fit(line, inner - 2), Style::dim);
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
}

}  // namespace diskvet::tui
