// Consent: which devices the operator agreed to destroy (--destroy-data), and the rules that turn
// that consent plus a protection assessment into a decision.
#pragma once

#include <string>
#include <vector>

#include "common/error.hpp"
#include "devices/device.hpp"
#include "devices/protection.hpp"

namespace diskvet::devices {

// --destroy-data IDs: serial, WWN, SERIAL/NSID, /dev path, or "all-unprotected".
struct Consent {
  std::vector<std::string> ids;
};

inline constexpr const char* kAllUnprotected = "all-unprotected";

// The rules (DESIGN.md, Safety):
//  - protected by anything but partitions/signatures (mounted, held, swap, root, boot medium,
//    read-only, busy, dm/md, unprobed): refused whatever the consent;
//  - protected only by partitions/signatures: allowed when an id is the device's serial, WWN or
//    SERIAL/NSID and names it alone (not its path, not all-unprotected);
//  - unprotected: allowed when an id names it (serial, WWN, SERIAL/NSID, path) or is all-unprotected;
//  - a serial or WWN that also names another of `host_disks` (the serial of an NVMe controller with
//    several namespaces, one LUN seen through several paths) names none of them: alone it consents
//    to nothing, and the refusal lists each device's exact ids. Together with the device's own path
//    it counts as naming that device.
// `host_disks` are the host's whole disks as the same source describes them (d among them or not).
// A refusal is a safety Error naming the device and every reason.
Status check_consent(const Device& d, const Protection& p, const Consent& consent, const std::vector<Device>& host_disks);

}  // namespace diskvet::devices
