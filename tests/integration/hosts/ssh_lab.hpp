// The multi-host lab on one machine: each "host" an sshd bound to its own loopback address
// (127.0.0.2, 127.0.0.3, ...; nothing outside the loopback range) with its own host key, one
// authorized client key, and an ssh config naming h1..hN for the controller. Loop devices and fio
// sockets per host are the tests' (every host shares this machine's /dev and fio).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/child_process.hpp"

namespace diskvet::testing {

// Why this machine cannot run the lab (not root, no sshd/ssh/ssh-keygen/fio), or empty.
std::string ssh_lab_unavailable();

#define SKIP_UNLESS_SSH_LAB()                                                                      \
  do {                                                                                             \
    if (auto why = ::diskvet::testing::ssh_lab_unavailable(); !why.empty()) GTEST_SKIP() << why; \
  } while (0)

// Every process on this machine (all lab hosts share it) whose command line holds `needle`.
std::vector<pid_t> processes_with(const std::string& needle);

// A process and every process under it, and resident memory (KiB) of one process (0 when gone).
std::vector<pid_t> process_tree(pid_t root);
uint64_t rss_kib(pid_t pid);

class SshLab {
 public:
  explicit SshLab(int hosts);
  ~SshLab();
  SshLab(const SshLab&) = delete;
  SshLab& operator=(const SshLab&) = delete;

  bool valid() const { return why_.empty(); }
  const std::string& why() const { return why_; }
  const std::string& dir() const { return dir_; }
  std::string name(int i) const;  // h1, h2, ... (i from 0)
  // Writes FILE in the lab folder; returns its path.
  std::string write(const std::string& file, const std::string& text) const;
  // The host dies: its sshd and every process under it (sessions, fio server, fio jobs), SIGKILL.
  void kill_host(int i);

 private:
  std::string dir_, why_;
  std::vector<std::optional<ChildProcess>> sshd_;
};

}  // namespace diskvet::testing
