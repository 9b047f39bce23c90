// The tests' loop devices: a backing file made (and prepared) here, attached by devices::LoopDevice.
#include "tests/support/loop_lab.hpp"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "tests/support/lab.hpp"

namespace diskvet::testing {

namespace fs = std::filesystem;

std::string loop_devices_unavailable() {
  if (!is_root()) return "needs root to create loop devices";
  if (!devices::can_create_loop_devices()) return "needs /dev/loop-control (the loop module)";
  if (!fs::is_directory("/dev/shm")) return "needs /dev/shm for backing files";
  return {};
}

LoopDevice::LoopDevice(const std::string& tag, uint64_t size_bytes, const devices::LoopOptions& options, const std::string& prepare) {
  if (why_ = loop_devices_unavailable(); !why_.empty()) return;
  static std::atomic<unsigned> serial{0};
  backing_ = "/dev/shm/diskvet-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(serial++) + ".img";
  std::ofstream(backing_).close();  // empty, whatever an earlier run left there
  std::error_code ec;
  fs::resize_file(backing_, size_bytes, ec);
  if (ec) {
    why_ = "cannot size " + backing_ + ": " + ec.message();
    return;
  }
  if (!prepare.empty()) {
    auto r = run_command({"sh", "-c", prepare + " " + backing_});
    if (r.exit_code != 0) {
      why_ = "'" + prepare + "' failed: " + r.out + r.err;
      return;
    }
  }
  auto loop = devices::LoopDevice::attach(backing_, options);
  if (!loop) {
    why_ = loop.error().message();
    return;
  }
  loop_.emplace(std::move(*loop));
}

LoopDevice::~LoopDevice() {
  loop_.reset();  // detached before its file goes
  if (!backing_.empty()) {
    std::error_code ec;
    fs::remove(backing_, ec);
  }
}

const std::string& LoopDevice::path() const {
  static const std::string none;
  return loop_ ? loop_->path() : none;
}

std::string LoopDevice::name() const { return fs::path(path()).filename().string(); }

std::string LoopDevice::first_partition() const {
  std::string part = path() + "p1";
  for (int i = 0; i < 25 && !fs::exists(part); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  if (!fs::exists(part)) run_command({"partx", "-a", path()});
  for (int i = 0; i < 50 && !fs::exists(part); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  return fs::exists(part) ? part : std::string();
}

}  // namespace diskvet::testing
