// The one protection gate: every path that writes to a device gets its descriptor here, or a
// refusal that names the device and the reason. There is no second path to a device.
#pragma once

#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/fd.hpp"
#include "devices/consent.hpp"
#include "devices/device.hpp"
#include "devices/host_paths.hpp"

namespace diskvet::devices {

// A granted write. A block device is held open with O_EXCL (O_DIRECT, O_RDWR) for as long as this
// lives; a file is open O_RDWR (the caller adds O_DIRECT, after laying out a file it created).
struct WriteGrant {
  std::string path;
  UniqueFd fd;
  bool block_device = false;
  bool created = false;  // a file this process just created (empty: the caller lays it out)
  Device device;         // block devices: what was checked (identity, protection as assessed)
};

// What the path names is decided on a descriptor, not on a path looked up before. A block device
// (a by-id link to one is followed, as the operator named a disk) must be a whole disk, pass every
// protection rule (protection.hpp) and be named by the consent (consent.hpp); the checks run
// before the exclusive open (for a clear refusal) and again while it is held (so nothing can mount
// or claim the device in between). Anything else goes to the file gate (file_gate.hpp): a missing
// path is created O_EXCL when create_size_bytes > 0, an existing regular file needs consent naming
// it, and a final symlink is never followed to a file.
Result<WriteGrant> open_for_write(const std::string& path, const Consent& consent, uint64_t create_size_bytes = 0);

}  // namespace diskvet::devices
