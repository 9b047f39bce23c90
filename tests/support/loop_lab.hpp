// The tests' one loop-device helper: a loop device over a /dev/shm backing file of its own, attached
// and detached through devices/loop_device.hpp (the code `diskvet run` uses for its scratch device).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "devices/loop_device.hpp"

namespace diskvet::testing {

// Why this machine cannot make loop devices for a test, or empty when it can.
std::string loop_devices_unavailable();

// Skips the test (with the reason) where loop devices cannot be made.
#define SKIP_UNLESS_LOOP_DEVICES()                                                                       \
  do {                                                                                                   \
    if (auto why = ::diskvet::testing::loop_devices_unavailable(); !why.empty()) GTEST_SKIP() << why; \
  } while (0)

// A loop device over /dev/shm/diskvet-<tag>-<unique>.img, direct I/O on unless options say
// otherwise; detached and the file deleted on destruction. `prepare` is a shell command run on the
// backing file before it is attached (sfdisk, mkfs.ext4, mkswap). valid() is false, and why() says
// why, when it could not be made.
class LoopDevice {
 public:
  LoopDevice(const std::string& tag, uint64_t size_bytes, const devices::LoopOptions& options = {}, const std::string& prepare = {});
  ~LoopDevice();
  LoopDevice(const LoopDevice&) = delete;
  LoopDevice& operator=(const LoopDevice&) = delete;

  bool valid() const { return loop_.has_value(); }
  const std::string& why() const { return why_; }
  const std::string& path() const;  // /dev/loopN
  const std::string& backing() const { return backing_; }
  std::string name() const;  // loopN
  // The first partition's node of a partscan loop device, or empty when none appeared. Kernels built
  // without partition-table parsers leave partitions to user space, so partx adds them (BLKPG) when
  // the scan found none.
  std::string first_partition() const;

 private:
  std::string backing_, why_;
  std::optional<devices::LoopDevice> loop_;
};

}  // namespace diskvet::testing
