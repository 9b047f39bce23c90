// libudev enumeration with RAII handles; the only file that includes libudev.h.
#include "devices/udev_db.hpp"

#include <libudev.h>

#include <memory>

namespace diskvet::devices {

namespace {

struct UdevUnref {
  void operator()(udev* u) const { udev_unref(u); }
  void operator()(udev_enumerate* e) const { udev_enumerate_unref(e); }
  void operator()(udev_device* d) const { udev_device_unref(d); }
};

}  // namespace

std::optional<std::vector<UdevDisk>> udev_whole_disks() {
  std::unique_ptr<udev, UdevUnref> ctx(udev_new());
  if (!ctx) return std::nullopt;
  std::unique_ptr<udev_enumerate, UdevUnref> en(udev_enumerate_new(ctx.get()));
  if (!en) return std::nullopt;
  if (udev_enumerate_add_match_subsystem(en.get(), "block") < 0) return std::nullopt;
  if (udev_enumerate_add_match_property(en.get(), "DEVTYPE", "disk") < 0) return std::nullopt;
  if (udev_enumerate_scan_devices(en.get()) < 0) return std::nullopt;
  std::vector<UdevDisk> disks;
  udev_list_entry* entry = nullptr;
  udev_list_entry_foreach(entry, udev_enumerate_get_list_entry(en.get())) {
    const char* syspath = udev_list_entry_get_name(entry);
    if (!syspath) continue;
    std::unique_ptr<udev_device, UdevUnref> dev(udev_device_new_from_syspath(ctx.get(), syspath));
    if (!dev) continue;
    UdevDisk disk{syspath, {}};
    udev_list_entry* prop = nullptr;
    udev_list_entry_foreach(prop, udev_device_get_properties_list_entry(dev.get())) {
      const char* name = udev_list_entry_get_name(prop);
      const char* value = udev_list_entry_get_value(prop);
      if (name && value) disk.properties[name] = value;
    }
    disks.push_back(std::move(disk));
  }
  return disks;
}

std::string udev_unescape(const std::string& s) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() && s[i + 1] == 'x' && hex(s[i + 2]) >= 0 && hex(s[i + 3]) >= 0) {
      out += static_cast<char>(hex(s[i + 2]) * 16 + hex(s[i + 3]));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace diskvet::devices
