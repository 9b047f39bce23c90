// Model helpers: the write refusal rule the devices screen shows, refresh, the log pane.
#include "tui/model.hpp"

#include <algorithm>

#include "suites/cloud_profile.hpp"

namespace diskvet::tui {

std::string ConfirmEntry::expected() const {
  if (serial.empty()) return "YES";
  std::string tail = serial.size() <= kSerialChars ? serial : serial.substr(serial.size() - kSerialChars);
  return pick_namespace ? tail + "/" + std::to_string(nsid) : tail;
}

std::vector<const DeviceRow*> Model::selected() const {
  std::vector<const DeviceRow*> out;
  for (const auto& r : devices)
    if (r.selected) out.push_back(&r);
  return out;
}

std::string Model::chosen_profile() const {
  const std::string name = profile_cursor < profiles.size() ? profiles[profile_cursor] : "auto";
  return suites::is_cloud_family(name) && !profile_params.empty() ? name + ":" + profile_params : name;
}

std::string check_profile_params(const Model& m) {
  const std::string text = m.chosen_profile();
  auto args = suites::parse_profile_args(text);
  if (!args) return args.error().message();
  if (!suites::is_cloud_family(args->name)) return {};
  for (const DeviceRow* r : m.selected())
    if (auto spec = suites::cloud_spec(*args, r->device.size_bytes); !spec) return spec.error().message();
  return {};
}

std::string write_refusal(const devices::Device& d) {
  // The TUI never offers a protected device for writing, not even one a serial consent could
  // override on the command line: the gate decides again when the run starts.
  if (!d.is_protected) return {};
  std::string out = "PROTECTED";
  for (size_t i = 0; i < d.protection_reasons.size(); ++i) out += (i == 0 ? ": " : "; ") + d.protection_reasons[i];
  if (d.protection_reasons.empty()) out += ": could not be examined";
  return out;
}

void set_devices(Model& m, std::vector<devices::Device> found) {
  std::vector<std::string> keep;
  for (const auto& r : m.devices)
    if (r.selected) keep.push_back(r.device.path);
  std::string at = m.current_device() ? m.current_device()->device.path : "";
  m.devices.clear();
  for (auto& d : found) {
    bool sel = std::find(keep.begin(), keep.end(), d.path) != keep.end() && write_refusal(d).empty();
    m.devices.push_back(DeviceRow{std::move(d), sel});
  }
  m.cursor = 0;
  for (size_t i = 0; i < m.devices.size(); ++i)
    if (m.devices[i].device.path == at) m.cursor = i;
}

void add_log(Model& m, runner::LogLevel level, std::string text) {
  m.log.push_back(LogLine{level, std::move(text)});
  while (m.log.size() > kLogLines) m.log.pop_front();
}

}  // namespace diskvet::tui
