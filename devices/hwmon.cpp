// hwmon lookup: /sys/class/hwmon/hwmonN/{name,device,temp1_input (millidegrees)}.
#include "devices/hwmon.hpp"

#include <filesystem>

#include "devices/sysfs.hpp"

namespace diskvet::devices {

namespace fs = std::filesystem;

std::optional<double> drivetemp_c(const Device& d, const HostPaths& host) {
  if (d.sysfs_path.empty()) return std::nullopt;
  std::error_code ec;
  fs::path disk_device = fs::canonical(fs::path(d.sysfs_path) / "device", ec);
  if (ec) return std::nullopt;
  for (const auto& e : fs::directory_iterator(host.sysfs / "class" / "hwmon", ec)) {
    if (read_attr(e.path() / "name").value_or("") != "drivetemp") continue;
    fs::path dev = fs::canonical(e.path() / "device", ec);
    if (ec || dev != disk_device) continue;
    auto milli = read_attr(e.path() / "temp1_input");
    if (!milli) continue;
    char* end = nullptr;
    double v = std::strtod(milli->c_str(), &end);
    if (end == milli->c_str()) continue;
    return v / 1000.0;
  }
  return std::nullopt;
}

}  // namespace diskvet::devices
