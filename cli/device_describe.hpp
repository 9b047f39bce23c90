// A Device value for a path named on the command line. Interim: fills identity from sysfs until
// devices::find_device() (the devices library) lands; then this file goes.
#pragma once

#include <string>

#include "common/error.hpp"
#include "devices/device.hpp"

namespace diskvet::cli {

Result<devices::Device> describe_device(const std::string& path);

}  // namespace diskvet::cli
