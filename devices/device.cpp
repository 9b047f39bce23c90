// Names of device kinds, as printed by `diskvet list` and written to reports.
#include "devices/device.hpp"

namespace diskvet::devices {

std::string_view to_string(DeviceKind k) {
  switch (k) {
    case DeviceKind::nvme: return "nvme";
    case DeviceKind::scsi: return "scsi";
    case DeviceKind::virtio: return "virtio";
    case DeviceKind::loop: return "loop";
    case DeviceKind::zram: return "zram";
    case DeviceKind::md: return "md";
    case DeviceKind::dm: return "dm";
    case DeviceKind::other: return "other";
  }
  return "other";
}

std::optional<DeviceKind> parse_device_kind(std::string_view text) {
  for (auto k : {DeviceKind::nvme, DeviceKind::scsi, DeviceKind::virtio, DeviceKind::loop, DeviceKind::zram,
                 DeviceKind::md, DeviceKind::dm, DeviceKind::other})
    if (to_string(k) == text) return k;
  return std::nullopt;
}

}  // namespace diskvet::devices
