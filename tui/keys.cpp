// Key handling per screen and dialog.
#include "tui/keys.hpp"

#include <fmt/format.h>

#include "devices/identity.hpp"
#include "suites/cloud_profile.hpp"

namespace diskvet::tui {

namespace {

void move(size_t& cursor, size_t count, const Key& k, size_t page = 10) {
  if (count == 0) return;
  if (k.code == Key::up || k.is('k')) cursor = cursor > 0 ? cursor - 1 : 0;
  if (k.code == Key::down || k.is('j')) cursor = cursor + 1 < count ? cursor + 1 : cursor;
  if (k.code == Key::page_up) cursor = cursor > page ? cursor - page : 0;
  if (k.code == Key::page_down) cursor = cursor + page < count ? cursor + page : count - 1;
  if (k.code == Key::home) cursor = 0;
  if (k.code == Key::end) cursor = count - 1;
}

void step_forward(size_t& cursor, size_t count) {
  if (cursor + 1 < count) ++cursor;
}

void toggle(Model& m) {
  if (m.cursor >= m.devices.size()) return;
  DeviceRow& r = m.devices[m.cursor];
  if (r.selected) {
    r.selected = false;
    m.status.clear();
    return;
  }
  std::string why = write_refusal(r.device);
  if (!why.empty()) {
    m.status = fmt::format("{} cannot be chosen for a write test: {}", r.device.path, why);
    return;
  }
  r.selected = true;
  m.status.clear();
}

void select_all_free(Model& m) {
  size_t n = 0;
  for (auto& r : m.devices)
    if (write_refusal(r.device).empty()) r.selected = true, ++n;
  m.status = n ? fmt::format("{} free device{} selected", n, n == 1 ? "" : "s") : "no free device: every device is PROTECTED";
}

Action devices_key(Model& m, const Key& k) {
  if (k.code == Key::space) toggle(m);
  else if (k.is('a')) select_all_free(m);
  else if (k.code == Key::enter) { if (m.current_device()) m.screen = ScreenId::details; }
  else if (k.code == Key::tab || k.is('n') || k.code == Key::right) go_to_suites(m);
  else if (k.is('r')) return Action::refresh_devices;
  else move(m.cursor, m.devices.size(), k);
  return Action::none;
}

// Typing a cloud family's parameters: enter checks them with the command line's parser (the field
// stays open, with the error, until they are right), esc leaves them as typed.
Action params_key(Model& m, const Key& k) {
  if (k.code == Key::escape) m.editing_params = false;
  else if (k.code == Key::backspace) { if (!m.profile_params.empty()) m.profile_params.pop_back(); }
  else if (k.code == Key::ch && k.c > ' ' && k.c < 127 && m.profile_params.size() < 64) m.profile_params += k.c;
  else if (k.code == Key::enter) m.editing_params = !(m.profile_error = check_profile_params(m)).empty();
  return Action::none;
}

Action suites_key(Model& m, const Key& k) {
  if (m.editing_params) return params_key(m, k);
  if (k.code == Key::escape || k.code == Key::left || k.code == Key::backspace) m.screen = ScreenId::devices;
  else if (k.is('p')) {
    m.profile_cursor = m.profiles.empty() ? 0 : (m.profile_cursor + 1) % m.profiles.size();
    m.profile_params.clear();
    m.profile_error.clear();
  } else if (k.is('e')) {
    const std::string name = m.profile_cursor < m.profiles.size() ? m.profiles[m.profile_cursor] : "";
    if (suites::is_cloud_family(name)) m.editing_params = true;
    else m.status = fmt::format("{} takes no parameters: e edits a cloud family's (press p until one is chosen)", name.empty() ? "auto" : name);
  }
  else if (k.code == Key::enter || k.code == Key::tab || k.is('n')) go_to_confirm(m);
  else move(m.suite_cursor, m.suites.size(), k);
  return Action::none;
}

Action confirm_key(Model& m, const Key& k) {
  if (m.confirm.empty()) {
    if (k.code == Key::escape) m.screen = ScreenId::suites;
    return Action::none;
  }
  ConfirmEntry& e = m.confirm[m.confirm_cursor];
  if (k.code == Key::escape) m.screen = ScreenId::suites;
  else if (k.code == Key::up) move(m.confirm_cursor, m.confirm.size(), k);
  else if (k.code == Key::down || k.code == Key::tab) m.confirm_cursor = (m.confirm_cursor + 1) % m.confirm.size();
  else if (k.code == Key::backspace) { if (!e.typed.empty()) e.typed.pop_back(); }
  else if (k.code == Key::ch && k.c > ' ' && k.c < 127 && e.typed.size() < 64) e.typed += k.c;
  else if (k.code == Key::enter) {
    for (size_t i = 0; i < m.confirm.size(); ++i) {
      const auto& c = m.confirm[i];
      if (!c.matches()) {
        m.confirm_cursor = i;
        m.confirm_error = c.serial.empty()
                              ? fmt::format("{}: type YES to destroy its data; nothing was started", c.path)
                          : c.pick_namespace
                              ? fmt::format("{}: that is not the end of its serial and its namespace (type {} characters, "
                                            "ending in /{}); nothing was started",
                                            c.path, c.expected().size(), c.nsid)
                              : fmt::format("{}: that is not the end of its serial (type its last {} characters); nothing was started",
                                            c.path, c.expected().size());
        return Action::none;
      }
    }
    m.confirm_error.clear();
    return Action::start_run;
  }
  return Action::none;
}

Action results_key(Model& m, const Key& k) {
  size_t n = m.results ? m.results->devices.size() : 0;
  if (k.is('n') || k.code == Key::escape) {
    m.screen = ScreenId::devices;
    return Action::refresh_devices;
  }
  if (k.code == Key::enter && n > 0) {
    m.detail_cursor = 0;
    m.screen = ScreenId::result_detail;
    return Action::none;
  }
  move(m.result_cursor, n, k);
  return Action::none;
}

Action detail_key(Model& m, const Key& k) {
  if (k.code == Key::escape || k.code == Key::enter || k.code == Key::backspace) {
    m.screen = ScreenId::results;
    return Action::none;
  }
  size_t tests = m.results && m.result_cursor < m.results->devices.size() ? m.results->devices[m.result_cursor].tests.size() : 0;
  if (k.code == Key::right || k.code == Key::tab) step_forward(m.detail_cursor, tests);
  else if (k.code == Key::left) m.detail_cursor = m.detail_cursor > 0 ? m.detail_cursor - 1 : 0;
  else move(m.detail_cursor, tests, k);
  return Action::none;
}

}  // namespace

void go_to_suites(Model& m) {
  if (m.selected().empty()) {
    m.status = "select at least one free device first (space, or a for all free)";
    return;
  }
  m.status.clear();
  m.screen = ScreenId::suites;
}

void go_to_confirm(Model& m) {
  const SuiteChoice* s = m.current_suite();
  if (!s) return;
  if (s->placeholder) {
    m.status = fmt::format("suite {} is a placeholder and cannot run yet; choose another", s->name);
    return;
  }
  // The same check as `diskvet run --profile`, before any confirmation is asked for.
  if (m.profile_error = check_profile_params(m); !m.profile_error.empty()) {
    m.status = "profile " + m.chosen_profile() + ": " + m.profile_error;
    return;
  }
  m.confirm.clear();
  for (const DeviceRow* r : m.selected()) {
    const devices::Device& d = r->device;
    ConfirmEntry e;
    e.path = d.path, e.model = d.model, e.serial = d.serial, e.size_bytes = d.size_bytes;
    e.wwn = d.wwn;
    e.nsid = d.nvme_nsid;
    // Discovery names a namespace SERIAL/NSID when its serial is shared with other namespaces.
    e.pick_namespace = !d.consent_id.empty() && d.consent_id == devices::namespace_id(d);
    m.confirm.push_back(std::move(e));
  }
  m.confirm_cursor = 0;
  m.confirm_error.clear();
  m.status.clear();
  m.screen = ScreenId::confirm;
}

Action handle_key(Model& m, const Key& k) {
  if (k.code == Key::resize || k.code == Key::none) return Action::none;
  if (m.dialog == Dialog::help) {
    m.dialog = Dialog::none;
    return Action::none;
  }
  if (m.dialog == Dialog::quit || m.dialog == Dialog::abort) {
    bool yes = k.is('y') || k.is('Y');
    bool no = k.is('n') || k.is('N') || k.code == Key::escape;
    if (!yes && !no) return Action::none;
    Dialog d = m.dialog;
    m.dialog = Dialog::none;
    if (no) return Action::none;
    if (d == Dialog::quit) {
      if (!m.running) return Action::quit;
      m.quit_after_run = true;
    }
    m.abort_requested = true;
    add_log(m, runner::LogLevel::warning, "abort requested: stopping, the partial report will be written");
    return Action::abort_run;
  }
  // On the confirmation screen letters are typed into the serial field; only ? and Esc are keys.
  const bool typing = (m.screen == ScreenId::confirm && !m.confirm.empty()) || (m.screen == ScreenId::suites && m.editing_params);
  const bool typed_something = m.screen == ScreenId::suites ? !m.profile_params.empty() : typing && !m.confirm[m.confirm_cursor].typed.empty();
  if (k.is('?') && !(typing && typed_something)) {
    m.dialog = Dialog::help;
    return Action::none;
  }
  if (!typing && (k.is('q') || k.is('Q'))) {
    if (m.running) m.dialog = Dialog::quit;
    else return Action::quit;
    return Action::none;
  }
  switch (m.screen) {
    case ScreenId::devices: return devices_key(m, k);
    case ScreenId::details:
      if (k.code == Key::escape || k.code == Key::enter || k.code == Key::backspace || k.code == Key::left) m.screen = ScreenId::devices;
      return Action::none;
    case ScreenId::suites: return suites_key(m, k);
    case ScreenId::confirm: return confirm_key(m, k);
    case ScreenId::run:
      if ((k.is('a') || k.is('A')) && m.running && !m.abort_requested) m.dialog = Dialog::abort;
      return Action::none;
    case ScreenId::results: return results_key(m, k);
    case ScreenId::result_detail: return detail_key(m, k);
  }
  return Action::none;
}

}  // namespace diskvet::tui
