// --profile auto: which shipped profile a device is, by its model and capacity.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "devices/device.hpp"
#include "suites/profile.hpp"

namespace diskvet::suites {

// Picks the profile for a device: the first non-template profile whose model regex matches the
// whole model and whose size range holds the device. The reason says which matched or why none did.
std::optional<Profile> match_profile(const devices::Device& d, const std::vector<Profile>& profiles, std::string& reason);

}  // namespace diskvet::suites
