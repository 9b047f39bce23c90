// libudev at the boundary: whole-disk enumeration and a device's udev properties (ID_MODEL,
// ID_SERIAL_SHORT, ID_WWN, ID_BUS, ID_PATH). Without a udev database (a minimal boot image) the
// enumeration still works from sysfs and the properties are simply missing.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace diskvet::devices {

using UdevProperties = std::map<std::string, std::string>;

struct UdevDisk {
  std::filesystem::path syspath;  // /sys/devices/.../block/sda
  UdevProperties properties;
};

// Every block device with DEVTYPE=disk; nullopt when libudev cannot be used at all.
std::optional<std::vector<UdevDisk>> udev_whole_disks();

// udev's escaped strings (ID_MODEL_ENC): "Samsung\x20SSD" -> "Samsung SSD".
std::string udev_unescape(const std::string& encoded);

}  // namespace diskvet::devices
