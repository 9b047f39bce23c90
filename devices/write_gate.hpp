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

// A granted write: the device held open with O_EXCL (O_DIRECT, O_RDWR) for as long as this lives.
struct WriteGrant {
  std::string path;
  UniqueFd fd;
  bool block_device = false;
  Device device;  // block devices: what was checked (identity, protection as assessed)
};

// Regular files are scratch targets and need no consent; block devices must be whole disks, pass
// every protection rule (protection.hpp) and be named by the consent (consent.hpp). The checks run
// before the exclusive open (for a clear refusal) and again while it is held (so nothing can
// mount or claim the device in between).
Result<WriteGrant> open_for_write(const std::string& path, const Consent& consent);

// A regular file is a device in disguise when it backs a loop device or is an active swap file:
// writing it would bypass the gate for that device. Refused (safety error) in that case; a file
// that does not exist yet is fine. open_for_write applies it; so must any writer that opens
// scratch files itself (diskvet io through Target::open).
Status check_scratch_file(const std::string& path, const HostPaths& host = {});

}  // namespace diskvet::devices
