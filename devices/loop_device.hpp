// Scratch loop devices: a backing file attached as /dev/loopN by this process and detached by it,
// for `diskvet run` with no device named (cli/run_command.cpp) and for the tests' loop devices
// (tests/support/loop_lab.hpp). Nothing here touches a loop device it did not attach.
#pragma once

#include <cstdint>
#include <string>

#include "common/error.hpp"
#include "common/fd.hpp"

namespace diskvet::devices {

struct LoopOptions {
  uint32_t logical_block_bytes = 512;  // 4096 stands in for a 4Kn device
  bool direct_io = true;               // falls back to buffered where the backing file system has no direct I/O
  bool read_only = false;              // losetup -r
  bool partscan = false;               // losetup -P: the kernel reads the partition table
};

// A loop device over a backing file; detached on destruction, and the file removed when this
// object created it.
class LoopDevice {
 public:
  // Creates `backing` (must not exist) of `size_bytes` and attaches it.
  static Result<LoopDevice> create(const std::string& backing, uint64_t size_bytes, const LoopOptions& options = {});
  // Attaches an existing file (prepared by the caller, who keeps it).
  static Result<LoopDevice> attach(const std::string& backing, const LoopOptions& options = {});
  LoopDevice(LoopDevice&& o) noexcept;
  LoopDevice& operator=(LoopDevice&&) = delete;
  LoopDevice(const LoopDevice&) = delete;
  ~LoopDevice();

  const std::string& path() const { return path_; }  // /dev/loopN
  const std::string& backing() const { return backing_; }
  // Detaches now (also done by the destructor); safe to call twice.
  void detach();

 private:
  LoopDevice() = default;
  // Attaches the open backing file to a free loop device.
  static Result<LoopDevice> configure(LoopDevice loop, const UniqueFd& file, const LoopOptions& options);
  std::string path_, backing_;
  bool owns_backing_ = false;
  UniqueFd dev_;
};

// Whether this process may create loop devices (root and /dev/loop-control present).
bool can_create_loop_devices();

}  // namespace diskvet::devices
