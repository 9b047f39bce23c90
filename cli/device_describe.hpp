// A Device value for a path named on the command line: regular files described here, block
// devices through devices::find_device().
#pragma once

#include <string>

#include "common/error.hpp"
#include "devices/device.hpp"

namespace diskvet::cli {

Result<devices::Device> describe_device(const std::string& path);

}  // namespace diskvet::cli
