// How an operator names a device (consent, --device, find_device): path, serial or WWN.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "devices/device.hpp"

namespace diskvet::devices {

enum class IdForm { path, serial, wwn };

// A WWN without its notation: "naa.5000C500A1B2C3D4", "0x5000c500a1b2c3d4" and
// "5000c500a1b2c3d4" all become "5000c500a1b2c3d4"; "eui.0025385b71b0a2c1" -> "0025385b71b0a2c1".
std::string normalize_wwn(std::string_view wwn);

// Which of the device's identities `id` is, if any. Paths are compared as given: resolve
// symlinks first (resolve_device_path). The path form also accepts the bare kernel name.
std::optional<IdForm> identifies(const Device& d, std::string_view id);

// A /dev symlink (by-id, by-path) resolved to the node it points at; anything else unchanged.
std::string resolve_device_path(std::string_view id);

}  // namespace diskvet::devices
