// A program diskvet started (smartctl, ssh, fio): argv (never a shell string), its own process group
// so it and its children stop together, pipes to its stdin and stdout when asked, every read with a
// deadline. Ended (SIGTERM, then SIGKILL) and reaped on destruction; a child stuck in the kernel (a
// smartctl on a hung drive) is killed and left for init to reap rather than waited for forever.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "common/fd.hpp"

namespace diskvet {

struct SpawnOptions {
  bool pipe_stdin = false;   // else /dev/null
  bool pipe_stdout = false;  // else stdout_file, else /dev/null
  std::string stdout_file;   // created (truncated) for stdout
  std::string stderr_file;   // created (truncated) for stderr; empty: /dev/null
  std::string working_dir;
};

class ChildProcess {
 public:
  // posix_spawnp, not fork: diskvet runs I/O and health threads beside it (glibc spawns with
  // CLONE_VM|CLONE_VFORK: no copy of a large address space).
  static Result<ChildProcess> spawn(const std::vector<std::string>& argv, const SpawnOptions& options = {});
  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();

  pid_t pid() const { return pid_; }
  bool write_stdin(std::string_view text);
  void close_stdin() { stdin_.reset(); }
  // One line of stdout (without its newline) within timeout_ms; nullopt at end of output or timeout.
  std::optional<std::string> read_line(int timeout_ms);
  // Whatever stdout holds until it closes or timeout_ms passes.
  std::string read_rest(int timeout_ms);
  // The exit code (128+N for signal N) once it ended; nullopt while it runs.
  std::optional<int> poll();
  std::optional<int> wait_for(int timeout_ms);
  // SIGTERM to its process group, SIGKILL after grace_ms; reaped when it dies within grace_ms more
  // (a process in uninterruptible sleep may not: it is left, killed, for init). Returns the exit code.
  int stop(int grace_ms = 2000);
  const std::string& command() const { return command_; }

 private:
  ChildProcess() = default;
  pid_t pid_ = -1;
  std::optional<int> exit_code_;
  UniqueFd stdin_, stdout_;
  std::string buffer_;  // stdout read but not yet returned
  bool stdout_eof_ = false;
  std::string command_;
};

}  // namespace diskvet
