// The stall lab: a loop device (buffered) over a file served by stall_fs.py, a FUSE file system
// that holds every request while a flag file exists, slows each by a set delay, fails them, or
// returns a range of bytes inverted to every read (the file keeps what was written); or a
// counterfeit drive that presents more bytes than it stores (wrapping, dropping or stale writes). Faults can be
// armed on what the device sees (from its Nth request on), and the device records when it held,
// slowed or failed requests by its own clock (CLOCK_MONOTONIC): tests judge durations against that
// record, never against their own sleeps. Everything it makes (mount, daemon, loop device) is its
// own and is undone on destruction, also when the test fails.
#pragma once

#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "devices/loop_device.hpp"

#include "tests/support/run_command.hpp"

namespace burnin_lab {

class StallLoop {
 public:
  // A counterfeit drive (stall_fs.py "Fake capacity"): presents presented_bytes, stores size_bytes.
  enum class Fake { none, wrap, drop, stale };

  // valid() is false (why() says why) when this machine has no FUSE or no python3-fusepy.
  StallLoop(const std::filesystem::path& dir, uint64_t size_bytes, Fake fake = Fake::none, uint64_t presented_bytes = 0) : dir_(dir) {
    namespace fs = std::filesystem;
    if (!fs::exists("/dev/fuse")) { fail("no /dev/fuse on this machine"); return; }
    if (diskvet::testing::run_command({"/usr/bin/python3", "-c", "import fusepy"}).exit_code != 0) { fail("python3-fusepy is not installed"); return; }
    fs::create_directories(dir_ / "root");
    fs::create_directories(dir_ / "control");
    fs::create_directories(dir_ / "mnt");
    std::ofstream(dir_ / "root/disk.img").close();
    fs::resize_file(dir_ / "root/disk.img", size_bytes);
    if (fake != Fake::none) {
      const char* mode = fake == Fake::wrap ? "wrap" : fake == Fake::drop ? "drop" : "stale";
      std::ofstream(dir_ / "control/capacity") << mode << " " << presented_bytes << "\n";
    }
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
    // The loop device goes before its file system: the kernel defers a detach while another opener
    // (udev probing, slow on a loaded machine) holds the device, and a daemon stopped meanwhile left
    // the loop device attached over a dead FUSE mount, failing every probe of it for ever (and using
    // up the kernel's rate-limited I/O error lines of every later test). So the daemon keeps serving
    // until the device is really gone (30 s only catches a detach that never completes).
    std::string attached;
    if (loop_) attached = "/sys/block/" + std::filesystem::path(loop_->path()).filename().string() + "/loop/backing_file";
    loop_.reset();
    for (int i = 0; !attached.empty() && i < 3000 && std::filesystem::exists(attached); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!attached.empty() && std::filesystem::exists(attached)) std::fprintf(stderr, "stall lab: %s is still attached after 30 s\n", attached.c_str());
    if (daemon_ > 0) {
      if (::umount2((dir_ / "mnt").c_str(), 0) != 0) ::umount2((dir_ / "mnt").c_str(), MNT_DETACH);
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

  // Faults armed on the device's requests, counted from the first request after arming (1 = that one).
  // Every request from the Nth on waits: until release(), or for `seconds` of the device's clock.
  void hold_from_request(uint64_t n, double seconds = 0) const {
    std::ostringstream line;
    line << "hold " << n;
    if (seconds > 0) line << " " << seconds;
    arm(line.str());
  }
  // The `count` requests from the Nth on each wait `ms` first; with `after_s`, not before that many
  // seconds of the device's clock since arming (a baseline of some length on a machine of any speed).
  void delay_requests(uint64_t n, uint64_t count, double ms, double after_s = 0) const {
    std::ostringstream line;
    line << "delay " << n << " " << count << " " << ms << " " << after_s;
    arm(line.str());
  }
  // The `count` requests from the Nth on fail (EIO).
  void fail_requests(uint64_t n, uint64_t count) const {
    std::ostringstream line;
    line << "fail " << n << " " << count;
    arm(line.str());
  }

  // The device's record: "hold-start", "hold-end", "delay-start", ... with its CLOCK_MONOTONIC time.
  struct Event {
    std::string what;
    double mono_s = 0;
    uint64_t request = 0, offset_bytes = 0;
  };
  std::vector<Event> events() const {
    std::vector<Event> out;
    std::ifstream in(dir_ / "control/events");
    for (std::string line; std::getline(in, line);) {
      std::istringstream words(line);
      Event e;
      words >> e.what;
      for (std::string w; words >> w;) {
        auto eq = w.find('=');
        if (eq == std::string::npos) continue;
        std::string key = w.substr(0, eq), value = w.substr(eq + 1);
        if (key == "mono") e.mono_s = std::stod(value);
        if (key == "request") e.request = std::stoull(value);
        if (key == "offset") e.offset_bytes = std::stoull(value);
      }
      out.push_back(e);
    }
    return out;
  }
  // The first event `what` the device recorded, waiting for it up to `timeout_s` (a deadline that
  // only catches a hang, not a measure of anything) or until `give_up()` (the run ended: no more
  // requests will come).
  std::optional<Event> wait_for_event(const std::string& what, double timeout_s = 120, const std::function<bool()>& give_up = {}) const {
    auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    for (;;) {
      const bool last_look = (give_up && give_up()) || std::chrono::steady_clock::now() >= end;
      for (const auto& e : events())
        if (e.what == what) return e;
      if (last_look) return std::nullopt;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  void forget_events() const { std::filesystem::remove(dir_ / "control/events"); }
  std::string events_text() const {
    std::ifstream in(dir_ / "control/events");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }

 private:
  void fail(std::string why) { why_ = std::move(why); }
  void arm(const std::string& line) const {
    auto tmp = dir_ / "control/trigger.tmp";
    std::ofstream(tmp) << line << "\n";
    std::filesystem::rename(tmp, dir_ / "control/trigger");  // the daemon never reads half a line
  }
  std::filesystem::path dir_;
  pid_t daemon_ = -1;
  std::optional<diskvet::devices::LoopDevice> loop_;
  std::string why_;
};

}  // namespace burnin_lab
