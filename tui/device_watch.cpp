// Block-device uevents through libudev, or polling /sys/block when no netlink monitor is available.
#include "tui/device_watch.hpp"

#include <libudev.h>
#include <poll.h>

#include <filesystem>
#include <fstream>

namespace diskvet::tui {

namespace {

std::map<std::string, std::string> block_sizes() {
  std::map<std::string, std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/sys/block", ec)) {
    std::ifstream in(e.path() / "size");
    std::string size;
    std::getline(in, size);
    out[e.path().filename().string()] = size;
  }
  return out;
}

}  // namespace

DeviceWatch::DeviceWatch() {
  udev_ = udev_new();
  if (udev_) monitor_ = udev_monitor_new_from_netlink(udev_, "kernel");
  if (monitor_ && (udev_monitor_filter_add_match_subsystem_devtype(monitor_, "block", "disk") < 0 ||
                   udev_monitor_enable_receiving(monitor_) < 0)) {
    udev_monitor_unref(monitor_);
    monitor_ = nullptr;
  }
  if (!monitor_) sizes_ = block_sizes();
}

DeviceWatch::~DeviceWatch() {
  if (monitor_) udev_monitor_unref(monitor_);
  if (udev_) udev_unref(udev_);
}

bool DeviceWatch::changed() {
  if (!monitor_) {
    auto now = block_sizes();
    if (now == sizes_) return false;
    sizes_ = std::move(now);
    return true;
  }
  bool any = false;
  pollfd p{udev_monitor_get_fd(monitor_), POLLIN, 0};
  while (::poll(&p, 1, 0) > 0 && (p.revents & POLLIN)) {
    udev_device* d = udev_monitor_receive_device(monitor_);
    if (!d) break;
    any = true;
    udev_device_unref(d);
  }
  return any;
}

}  // namespace diskvet::tui
