// Test lab helpers (losetup, truncate through run_command); used only by tests.
#include "tests/support/lab.hpp"

#include <unistd.h>

#include <filesystem>
#include <random>

namespace diskvet::testing {

bool is_root() { return geteuid() == 0; }

namespace {
std::string unique_suffix() {
  std::random_device rd;
  return std::to_string(getpid()) + "-" + std::to_string(rd() % 1000000);
}
}  // namespace

ScratchFile::ScratchFile(const std::string& tag, uint64_t size_bytes) {
  path_ = (std::filesystem::current_path() / ("scratch-" + tag + "-" + unique_suffix() + ".img")).string();
  if (size_bytes) run_command({"truncate", "-s", std::to_string(size_bytes), path_});
}

ScratchFile::~ScratchFile() { std::filesystem::remove(path_); }

LoopDevice::LoopDevice(const std::string& tag, uint64_t size_bytes, bool read_only) {
  if (!is_root()) {
    why_ = "needs root to create loop devices";
    return;
  }
  if (!have_program("losetup")) {
    why_ = "losetup is not installed (package util-linux)";
    return;
  }
  backing_ = "/dev/shm/diskvet-test-" + tag + "-" + unique_suffix() + ".img";
  run_command({"truncate", "-s", std::to_string(size_bytes), backing_});
  std::vector<std::string> cmd{"losetup", "-f", "--show", "--direct-io=on"};
  if (read_only) cmd.push_back("-r");
  cmd.push_back(backing_);
  auto r = run_command(cmd);
  if (r.exit_code != 0) {
    why_ = "losetup failed: " + r.err;
    std::filesystem::remove(backing_);
    return;
  }
  dev_ = r.out.substr(0, r.out.find('\n'));
}

LoopDevice::~LoopDevice() {
  if (!dev_.empty()) run_command({"losetup", "-d", dev_});
  if (!backing_.empty()) std::filesystem::remove(backing_);
}

std::string sha256_of(const std::string& path) {
  auto r = run_command({"sha256sum", path});
  return r.out.substr(0, r.out.find(' '));
}

}  // namespace diskvet::testing
