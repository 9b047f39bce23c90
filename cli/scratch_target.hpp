// Scratch targets for a run with no device named: a file-backed loop device on /dev/shm when root
// (created and detached by this object), else an O_DIRECT file in the current directory.
#pragma once

#include <cstdint>
#include <string>

#include "common/error.hpp"
#include "common/fd.hpp"

namespace diskvet::cli {

// A loop device over a new backing file; detached and the file removed on destruction.
class ScratchLoop {
 public:
  // Creates `backing` (must not exist) of `size_bytes` and attaches it with direct I/O, its logical
  // block size 512 bytes, or 4096 to stand in for a 4Kn device.
  static Result<ScratchLoop> create(const std::string& backing, uint64_t size_bytes, uint32_t logical_block_bytes = 512);
  ScratchLoop(ScratchLoop&& o) noexcept;
  ScratchLoop& operator=(ScratchLoop&&) = delete;
  ScratchLoop(const ScratchLoop&) = delete;
  ~ScratchLoop();

  const std::string& path() const { return path_; }  // /dev/loopN
  const std::string& backing() const { return backing_; }
  // Detaches now (also done by the destructor); safe to call twice.
  void detach();

 private:
  ScratchLoop() = default;
  std::string path_, backing_;
  UniqueFd dev_;
};

// Whether this process may create loop devices (root and /dev/loop-control present).
bool can_create_loop_devices();

}  // namespace diskvet::cli
