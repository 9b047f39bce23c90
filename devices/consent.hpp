// Consent: which devices the operator agreed to destroy (--destroy-data), and the rules that turn
// that consent plus a protection assessment into a decision.
#pragma once

#include <string>
#include <vector>

#include "common/error.hpp"
#include "devices/device.hpp"
#include "devices/protection.hpp"

namespace diskvet::devices {

// --destroy-data IDs: serial, WWN, /dev path, or "all-unprotected".
struct Consent {
  std::vector<std::string> ids;
};

inline constexpr const char* kAllUnprotected = "all-unprotected";

// The rules (DESIGN.md, Safety):
//  - protected by anything but partitions/signatures (mounted, held, swap, root, boot medium,
//    read-only, busy, dm/md, unprobed): refused whatever the consent;
//  - protected only by partitions/signatures: allowed when an id is the device's serial or WWN
//    (not its path, not all-unprotected);
//  - unprotected: allowed when an id names it (serial, WWN, path) or is all-unprotected.
// A refusal is a safety Error naming the device and every reason.
Status check_consent(const Device& d, const Protection& p, const Consent& consent);

}  // namespace diskvet::devices
