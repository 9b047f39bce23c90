// DeviceWatch: tells the devices screen when disks came, went or changed size, so the list is read
// again. Kernel uevents for the block subsystem through a libudev netlink monitor (no udevd needed,
// as in the appliance's initramfs); where that cannot be opened, a cheap poll of /sys/block sizes.
#pragma once

#include <map>
#include <memory>
#include <string>

struct udev;
struct udev_monitor;

namespace diskvet::tui {

class DeviceWatch {
 public:
  DeviceWatch();
  ~DeviceWatch();
  DeviceWatch(const DeviceWatch&) = delete;
  DeviceWatch& operator=(const DeviceWatch&) = delete;
  // True when something changed since the last call; never blocks.
  bool changed();
  bool uses_uevents() const { return monitor_ != nullptr; }

 private:
  ::udev* udev_ = nullptr;
  ::udev_monitor* monitor_ = nullptr;
  std::map<std::string, std::string> sizes_;  // the fallback's last view of /sys/block
};

}  // namespace diskvet::tui
