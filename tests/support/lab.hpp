// Test lab helpers: run the diskvet binary and capture what it says, scratch files (loop devices:
// loop_lab.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tests/support/run_command.hpp"

namespace diskvet::testing {

bool is_root();

// A file under a directory that supports O_DIRECT (the build tree, not tmpfs); removed on destruction.
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& tag, uint64_t size_bytes = 0);
  ~ScratchFile();
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// sha256 of a whole file or device, via sha256sum.
std::string sha256_of(const std::string& path);

}  // namespace diskvet::testing
