// Test lab for burn-in runs: loop devices this test creates (backing files named "burnin" under
// /dev/shm, detached at the end), the real diskvet binary run in the background, and access to
// the backing file to damage blocks behind the runner's back.
#pragma once

#include <unistd.h>

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/scratch_target.hpp"
#include "tests/support/run_command.hpp"

namespace burnin_lab {

namespace fs = std::filesystem;

#define SKIP_UNLESS_LOOP_DEVICES()                                                                        \
  do {                                                                                                    \
    if (geteuid() != 0) GTEST_SKIP() << "needs root to create loop devices";                              \
    if (!diskvet::cli::can_create_loop_devices()) GTEST_SKIP() << "no /dev/loop-control on this machine"; \
  } while (0)

constexpr uint64_t kMagic = 0x3174657676736964;  // "diskvet1": the verification block's first 8 bytes

class Lab : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    tag_ = std::to_string(getpid()) + "-" + info->name();
    dir_ = fs::temp_directory_path() / ("diskvet-burnin-it-" + tag_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (runner_.joinable()) runner_.join();
    loops_.clear();
    fs::remove_all(dir_);
  }

  std::string make_loop(uint64_t size_bytes) {
    std::string backing = "/dev/shm/diskvet-burnin-it-" + tag_ + "-" + std::to_string(loops_.size()) + ".img";
    auto loop = diskvet::cli::ScratchLoop::create(backing, size_bytes);
    if (!loop) {
      ADD_FAILURE() << loop.error().message();
      return {};
    }
    loops_.push_back(std::move(*loop));
    return loops_.back().path();
  }
  const std::string& backing(size_t i) const { return loops_.at(i).backing(); }

  fs::path file(const std::string& name) const { return dir_ / name; }
  void write_file(const std::string& name, const std::string& text) const { std::ofstream(dir_ / name) << text; }

  // Runs diskvet with the arguments (words separated by spaces); returns its exit code, output in the log file.
  int diskvet(const std::string& args) {
    return diskvet::testing::run_command(diskvet::testing::words(std::string(DISKVET_BINARY) + " " + args),
                                         {.output_file = (dir_ / "diskvet.log").string()})
        .exit_code;
  }
  // Runs diskvet on a thread; wait() returns its exit code.
  void start(const std::string& args) {
    runner_ = std::thread([this, args] { rc_ = diskvet(args); });
  }
  int wait() {
    runner_.join();
    return rc_;
  }
  std::string log() const {
    std::ifstream in(dir_ / "diskvet.log");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  boost::json::object report(const std::string& name) const {
    std::ifstream in(dir_ / name);
    std::ostringstream s;
    s << in.rdbuf();
    return boost::json::parse(s.str()).as_object();
  }

  // The backing file's bytes at [offset, offset + len).
  std::vector<char> read_backing(size_t i, uint64_t offset, size_t len) const {
    std::vector<char> buf(len);
    std::ifstream in(backing(i), std::ios::binary);
    in.seekg(static_cast<std::streamoff>(offset));
    in.read(buf.data(), static_cast<std::streamsize>(len));
    return buf;
  }
  void write_backing(size_t i, uint64_t offset, const std::vector<char>& data) const {
    std::fstream out(backing(i), std::ios::binary | std::ios::in | std::ios::out);
    out.seekp(static_cast<std::streamoff>(offset));
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
  }
  // The header fields of the verification block at `offset` (0 when none was written there).
  uint64_t header_word(size_t i, uint64_t offset, size_t word) const {
    auto b = read_backing(i, offset + word * 8, 8);
    uint64_t v;
    std::memcpy(&v, b.data(), 8);
    return v;
  }
  uint64_t generation_at(size_t i, uint64_t offset) const {
    return header_word(i, offset, 0) == kMagic ? header_word(i, offset, 3) : 0;
  }
  // Polls every 5 ms until `ready` or the timeout; false on timeout.
  static bool wait_until(const std::function<bool()>& ready, double timeout_s = 60) {
    auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    while (std::chrono::steady_clock::now() < end) {
      if (ready()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }

  std::string tag_;
  fs::path dir_;
  std::vector<diskvet::cli::ScratchLoop> loops_;
  std::thread runner_;
  int rc_ = -1;
};

}  // namespace burnin_lab
