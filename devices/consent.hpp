// Consent: which devices the operator agreed to destroy (--destroy-data), and the rules that turn
// that consent plus a protection assessment into a decision.
#pragma once

#include <string>
#include <vector>

#include "common/error.hpp"
#include "devices/device.hpp"
#include "devices/protection.hpp"
#include "devices/stack_facts.hpp"

namespace diskvet::devices {

// One --destroy-data id as the object it named when diskvet resolved it: once, before diskvet opened
// anything of its own (DESIGN.md Safety, rule 1). A path is never looked up again after that.
struct ConsentId {
  std::string text;
  bool path = false;      // an absolute path (other ids may still name a file in the working directory)
  bool existed = false;   // the path named something when it was resolved
  std::string dev_id;     // a block device's st_rdev ("8:16")
  FileId file;            // a regular file's (st_dev, st_ino)
  std::string refused;    // why this id consents to nothing: it resolves through /proc/PID/fd or /dev/fd
};

// Resolves a path id with openat2(RESOLVE_NO_MAGICLINKS): /proc/self/fd/3 or /dev/fd/3 would name
// whatever this process has open as descriptor 3 (the gate's own handle on its target), so an id
// that goes through such a link is refused, never resolved. Every id is tried as a path (a file in
// the working directory may be named bare); serials and WWNs still match by their text.
ConsentId resolve_consent_id(const std::string& id);

// --destroy-data IDs: serial, WWN, SERIAL/NSID, /dev path, or "all-unprotected", each resolved once
// when it is given (construct, or add()).
struct Consent {
  Consent() = default;
  explicit Consent(const std::vector<std::string>& given);
  void add(const std::string& id);
  std::vector<std::string> ids;
  std::vector<ConsentId> resolved;  // one per id, in order
  // The first id that consents to nothing because of how it resolves, or null.
  const ConsentId* refused() const;
};

inline constexpr const char* kAllUnprotected = "all-unprotected";

// The rules (DESIGN.md, Safety):
//  - protected by anything but partitions/signatures (mounted, held, swap, root, boot medium,
//    read-only, busy, dm/md, unprobed): refused whatever the consent;
//  - protected only by partitions/signatures: allowed when an id is the device's serial, WWN or
//    SERIAL/NSID and names it alone (not its path, not all-unprotected);
//  - unprotected: allowed when an id names it (serial, WWN, SERIAL/NSID, path) or is all-unprotected;
//  - a path names a device by the st_rdev it resolved to (consent.hpp's ConsentId), a bare kernel
//    name by that name; a path that named nothing when resolved names only the device whose
//    kernel node has exactly that name; an id refused at resolution refuses every write;
//  - a serial or WWN that also names another of `host_disks` (the serial of an NVMe controller with
//    several namespaces, one LUN seen through several paths) names none of them: alone it consents
//    to nothing, and the refusal lists each device's exact ids. Together with the device's own path
//    it counts as naming that device.
// `host_disks` are the host's whole disks as the same source describes them (d among them or not).
// A refusal is a safety Error naming the device and every reason.
Status check_consent(const Device& d, const Protection& p, const Consent& consent, const std::vector<Device>& host_disks);

}  // namespace diskvet::devices
