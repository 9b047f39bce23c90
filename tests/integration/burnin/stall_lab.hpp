// The stall lab: a loop device (buffered) over a file served by stall_fs.py, a FUSE file system
// that holds every request while a flag file exists, slows each by a set delay, fails them, or
// returns a range of bytes inverted to every read (the file keeps what was written). Everything it
// makes (mount, daemon, loop device) is its own and is undone on destruction.
#pragma once

#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include "devices/loop_device.hpp"

#include "tests/support/run_command.hpp"

namespace burnin_lab {

class StallLoop {
 public:
  // valid() is false (why() says why) when this machine has no FUSE or no python3-fusepy.
  StallLoop(const std::filesystem::path& dir, uint64_t size_bytes) : dir_(dir) {
    namespace fs = std::filesystem;
    if (!fs::exists("/dev/fuse")) { fail("no /dev/fuse on this machine"); return; }
    if (diskvet::testing::run_command({"/usr/bin/python3", "-c", "import fusepy"}).exit_code != 0) { fail("python3-fusepy is not installed"); return; }
    fs::create_directories(dir_ / "root");
    fs::create_directories(dir_ / "control");
    fs::create_directories(dir_ / "mnt");
    std::ofstream(dir_ / "root/disk.img").close();
    fs::resize_file(dir_ / "root/disk.img", size_bytes);
    daemon_ = fork();
    if (daemon_ == 0) {
      std::string log = (dir_ / "stall_fs.log").string();
      std::freopen(log.c_str(), "w", stdout);
      std::freopen(log.c_str(), "a", stderr);
      execl("/usr/bin/python3", "python3", STALL_FS_SCRIPT, (dir_ / "root").c_str(), (dir_ / "control").c_str(), (dir_ / "mnt").c_str(),
            static_cast<char*>(nullptr));
      _exit(127);
    }
    for (int i = 0; i < 500 && !fs::exists(dir_ / "mnt/disk.img"); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!fs::exists(dir_ / "mnt/disk.img")) { fail("stall_fs.py did not mount (see " + (dir_ / "stall_fs.log").string() + ")"); return; }
    // Buffered: every I/O of the loop device goes through the FUSE file system.
    auto loop = diskvet::devices::LoopDevice::attach((dir_ / "mnt/disk.img").string(), {.direct_io = false});
    if (!loop) { fail("no loop device over the FUSE file: " + loop.error().message()); return; }
    loop_.emplace(std::move(*loop));
  }
  ~StallLoop() {
    release();
    heal();
    stop_corrupting();
    set_delay_ms(0);
    loop_.reset();  // detached before its file system goes
    if (daemon_ > 0) {
      ::umount2((dir_ / "mnt").c_str(), MNT_DETACH);
      kill(daemon_, SIGTERM);
      waitpid(daemon_, nullptr, 0);
    }
  }
  StallLoop(const StallLoop&) = delete;
  StallLoop& operator=(const StallLoop&) = delete;

  bool valid() const { return loop_.has_value(); }
  const std::string& why() const { return why_; }
  const std::string& path() const { return loop_->path(); }
  std::filesystem::path backing() const { return dir_ / "root/disk.img"; }  // the bytes, read behind the lab's back
  // Every read and write waits from now until release().
  void hold() const { std::ofstream(dir_ / "control/hold") << "held by the test\n"; }
  void release() const { std::filesystem::remove(dir_ / "control/hold"); }
  // Every read and write fails (EIO) from now until heal().
  void fail_io() const { std::ofstream(dir_ / "control/fail") << "failed by the test\n"; }
  void heal() const { std::filesystem::remove(dir_ / "control/fail"); }
  void set_delay_ms(double ms) const { std::ofstream(dir_ / "control/delay_ms") << ms << "\n"; }
  // Every read of the bytes [offset, offset + length) of the device returns them inverted, from now
  // until stop_corrupting(); writes and the backing file are untouched.
  void corrupt_reads(uint64_t offset, uint64_t length) const { std::ofstream(dir_ / "control/corrupt") << offset << " " << length << "\n"; }
  void stop_corrupting() const { std::filesystem::remove(dir_ / "control/corrupt"); }

 private:
  void fail(std::string why) { why_ = std::move(why); }
  std::filesystem::path dir_;
  pid_t daemon_ = -1;
  std::optional<diskvet::devices::LoopDevice> loop_;
  std::string why_;
};

}  // namespace burnin_lab
