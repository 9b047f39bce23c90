// Drive temperature from hwmon (the drivetemp driver for SATA disks), matched by device.
#pragma once

#include <optional>

#include "devices/device.hpp"
#include "devices/host_paths.hpp"

namespace diskvet::devices {

// temp1_input of the hwmon whose name is "drivetemp" and whose device is this disk's device;
// nullopt when there is none.
std::optional<double> drivetemp_c(const Device& d, const HostPaths& host = {});

}  // namespace diskvet::devices
