// Where the host's kernel interfaces live; injectable so tests can point discovery at a fake tree.
#pragma once

#include <filesystem>

namespace diskvet::devices {

struct HostPaths {
  std::filesystem::path sysfs = "/sys";
  std::filesystem::path dev = "/dev";
  std::filesystem::path proc = "/proc";
  // True when these are the live kernel interfaces (libudev and ioctls only make sense then).
  bool live() const { return sysfs == "/sys" && dev == "/dev" && proc == "/proc"; }
};

}  // namespace diskvet::devices
