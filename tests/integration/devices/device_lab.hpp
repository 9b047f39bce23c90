// The devices test lab, beside the loop devices of tests/support/loop_lab.hpp: read-only mounts, a
// child process holding a device O_EXCL, command running and whole-device snapshots. Everything
// created here is unmounted or killed on every path; nothing it did not create is touched.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/run_command.hpp"

namespace diskvet::test {

using testing::CommandResult;
using testing::have_program;

// Skips the test, naming the Debian package, where a program it needs is missing.
#define SKIP_WITHOUT(program, package)                                                                         \
  do {                                                                                                         \
    if (!::diskvet::testing::have_program(program)) GTEST_SKIP() << "needs " program " (package " package ")"; \
  } while (0)

// argv, stdout and stderr together in out (as 2>&1).
inline CommandResult run_command(const std::vector<std::string>& argv) { return testing::run_command(argv, {.merge_output = true}); }

// Unmounts `dir`. A file system stays busy for a moment after the process that used it exits (its
// io_uring's files are put by a kernel worker after the exit), and a plain umount then fails: the
// mount, and the loop device under it, outlived the test (seen: a loop device left attached over a
// deleted backing file). So umount is retried for up to 10 s, then the mount is detached lazily
// (the kernel lets it go at its last use, and the loop device's autoclear with it). False, and
// `why` says what stayed, when even that failed.
inline bool unmount(const std::string& dir, std::string* why = nullptr) {
  for (int i = 0; i < 100; ++i) {
    if (::umount2(dir.c_str(), 0) == 0 || errno == EINVAL || errno == ENOENT) return true;  // EINVAL: not a mount point (any more)
    if (errno != EBUSY) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  auto busy = run_command({"sh", "-c", "fuser -vm " + dir + " 2>&1 || true"});
  if (::umount2(dir.c_str(), MNT_DETACH) == 0) {
    if (why) *why = dir + " was still busy after 10 s; detached lazily. Users: " + busy.out;
    return true;
  }
  if (why) *why = "cannot unmount " + dir + ": " + std::strerror(errno) + ". Users: " + busy.out;
  return false;
}

// A read-only mount in a fresh directory (read-only, so the device's bytes stay comparable).
class TempMount {
 public:
  explicit TempMount(const std::string& device) {
    std::string tmpl = "/tmp/diskvet-devices-mnt-XXXXXX";
    if (!::mkdtemp(tmpl.data())) return;
    dir_ = tmpl;
    mounted_ = run_command({"mount", "-o", "ro", device, dir_}).exit_code == 0;
  }
  TempMount(const TempMount&) = delete;
  TempMount& operator=(const TempMount&) = delete;
  ~TempMount() {
    if (mounted_) unmount(dir_);
    if (!dir_.empty()) ::rmdir(dir_.c_str());
  }
  bool ok() const { return mounted_; }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  bool mounted_ = false;
};

// A child process that keeps the device open with `flags` (O_RDWR: a writer) until this goes away.
class OpenHolder {
 public:
  OpenHolder(const std::string& device, int flags) {
    int ready[2];
    if (::pipe(ready) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(ready[0]);
      int fd = ::open(device.c_str(), flags | O_CLOEXEC);
      char c = fd >= 0 ? 'y' : 'n';
      (void)!::write(ready[1], &c, 1);
      for (;;) ::pause();
    }
    ::close(ready[1]);
    char c = 0;
    held_ = pid_ > 0 && ::read(ready[0], &c, 1) == 1 && c == 'y';
    ::close(ready[0]);
  }
  OpenHolder(const OpenHolder&) = delete;
  OpenHolder& operator=(const OpenHolder&) = delete;
  ~OpenHolder() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  bool ok() const { return held_; }
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  bool held_ = false;
};

// A child process that opens the device O_EXCL and holds it until this goes away.
class ExclusiveHolder : public OpenHolder {
 public:
  explicit ExclusiveHolder(const std::string& device) : OpenHolder(device, O_RDONLY | O_EXCL) {}
};

// A child process that opens the device O_EXCL and closes it again, in a tight loop (what mkfs,
// mdadm or mount do once), counting the opens that failed with EBUSY, until stop().
class ExclusiveOpener {
 public:
  struct Counts {
    uint64_t opens = 0;
    uint64_t busy = 0;
    uint64_t other_errors = 0;
    char holders[512] = {};  // "pid 12 (diskvet); ..." seen holding the device right after an EBUSY
  };
  explicit ExclusiveOpener(const std::string& device) {
    int ready[2], out[2];
    if (::pipe(ready) != 0) return;
    if (::pipe(out) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(ready[0]);
      ::close(out[0]);
      static volatile sig_atomic_t stop = 0;
      struct sigaction sa{};
      sa.sa_handler = [](int) { stop = 1; };
      ::sigaction(SIGTERM, &sa, nullptr);
      Counts c;
      int first = ::open(device.c_str(), O_RDONLY | O_EXCL | O_CLOEXEC);
      char ok = first >= 0 ? 'y' : 'n';
      if (first >= 0) ::close(first);
      (void)!::write(ready[1], &ok, 1);
      while (!stop) {
        int fd = ::open(device.c_str(), O_RDONLY | O_EXCL | O_CLOEXEC);
        ++c.opens;
        if (fd >= 0) {
          ::close(fd);
        } else if (errno == EBUSY) {
          if (c.busy++ < 4) note_holders(device, c);
        } else {
          ++c.other_errors;
        }
      }
      (void)!::write(out[1], &c, sizeof c);
      ::_exit(0);
    }
    ::close(ready[1]);
    ::close(out[1]);
    out_ = out[0];
    char c = 0;
    ok_ = pid_ > 0 && ::read(ready[0], &c, 1) == 1 && c == 'y';
    ::close(ready[0]);
  }
  ExclusiveOpener(const ExclusiveOpener&) = delete;
  ExclusiveOpener& operator=(const ExclusiveOpener&) = delete;
  ~ExclusiveOpener() { stop(); }
  bool ok() const { return ok_; }
  // Who has the device open right after an EBUSY, when still there: evidence for a failure message
  // (on a shared machine another program, not the one under test, may be the holder).
  static void note_holders(const std::string& device, Counts& c) {
    std::error_code ec;
    for (const auto& proc : std::filesystem::directory_iterator("/proc", ec)) {
      std::error_code fd_ec;
      for (const auto& fd : std::filesystem::directory_iterator(proc.path() / "fd", fd_ec)) {
        std::error_code link_ec;
        if (std::filesystem::read_symlink(fd.path(), link_ec) != device || proc.path().filename() == std::to_string(::getpid())) continue;
        std::string comm;
        if (FILE* f = std::fopen((proc.path() / "comm").c_str(), "r")) {
          char buf[64] = {};
          if (std::fgets(buf, sizeof buf, f)) comm = buf;
          std::fclose(f);
          if (!comm.empty() && comm.back() == '\n') comm.pop_back();
        }
        std::string line = "pid " + proc.path().filename().string() + " (" + comm + "); ";
        std::strncat(c.holders, line.c_str(), sizeof c.holders - std::strlen(c.holders) - 1);
        break;
      }
    }
  }

  // Stops the loop and returns what it counted.
  Counts stop() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      size_t got = 0;
      char* p = reinterpret_cast<char*>(&counts_);
      for (ssize_t n; got < sizeof counts_ && (n = ::read(out_, p + got, sizeof counts_ - got)) > 0;) got += static_cast<size_t>(n);
      ::waitpid(pid_, nullptr, 0);
      ::close(out_);
      pid_ = -1;
    }
    return counts_;
  }

 private:
  pid_t pid_ = -1;
  int out_ = -1;
  bool ok_ = false;
  Counts counts_;
};

// Every byte of a block device, read with O_DIRECT (so nothing comes from a stale page cache).
inline std::string device_bytes(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
  if (fd < 0) return {};
  constexpr size_t kChunk = 1 << 20;
  void* mem = nullptr;
  if (::posix_memalign(&mem, 4096, kChunk) != 0) {
    ::close(fd);
    return {};
  }
  std::unique_ptr<void, decltype(&std::free)> buf(mem, &std::free);
  std::string all;
  for (ssize_t n; (n = ::read(fd, mem, kChunk)) > 0;) all.append(static_cast<char*>(mem), static_cast<size_t>(n));
  ::close(fd);
  return all;
}

}  // namespace diskvet::test
