// The one protection gate: every path that writes to a device gets its descriptor here, or a
// refusal that names the device and the reason. There is no second path to a device.
#pragma once

#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/fd.hpp"

namespace diskvet::devices {

// What the operator consented to destroy: --destroy-data IDs (serial, WWN, /dev path, or
// "all-unprotected").
struct Consent {
  std::vector<std::string> ids;
};

// A granted write: the device held open with O_EXCL (O_DIRECT, O_RDWR) for as long as this lives.
struct WriteGrant {
  std::string path;
  UniqueFd fd;
  bool block_device = false;
};

// Regular files are scratch targets and need no consent; block devices must pass every
// protection rule and be named by the consent.
Result<WriteGrant> open_for_write(const std::string& path, const Consent& consent);

}  // namespace diskvet::devices
