// Test lab helpers: run the diskvet binary and capture what it says, scratch files (loop devices:
// loop_lab.hpp).
#pragma once

#include <string>
#include <vector>

namespace diskvet::testing {

struct CommandResult {
  int exit_code = -1;  // 128+N when killed by signal N
  std::string out;
  std::string err;
  double exit_after_interrupt_ms = -1;  // from the SIGINT to the child's exit; -1: not interrupted
};

// Runs argv (no shell). If interrupt_after_ms > 0, sends SIGINT to the child after that long.
CommandResult run_command(const std::vector<std::string>& argv, int interrupt_after_ms = 0);

bool is_root();
bool have_program(const std::string& name);

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
