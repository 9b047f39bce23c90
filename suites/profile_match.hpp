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
// A cloud volume (cloud_identity.hpp) is matched to its family where the guest shows enough, and
// the reason says "inferred" and why; where it does not, none is chosen and the reason asks for one.
std::optional<Profile> match_profile(const devices::Device& d, const std::vector<Profile>& profiles, std::string& reason);

// A --profile value for one device: a cloud family with its parameters ("aws-gp3:iops=6000,mbps=250",
// sized from the device where the family needs it), a shipped profile's name, or a file.
Result<Profile> resolve_profile_for(const std::string& text, const devices::Device& d, std::string& reason);

}  // namespace diskvet::suites
