// Test lab for suite runs: loop devices this test creates (and only those), a scratch directory,
// and the real diskvet binary run as a user would run it.
#pragma once

#include <unistd.h>

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/scratch_target.hpp"
#include "tests/support/run_command.hpp"

namespace suites_lab {

namespace fs = std::filesystem;

#define SKIP_UNLESS_LOOP_DEVICES()                                                                  \
  do {                                                                                              \
    if (geteuid() != 0) GTEST_SKIP() << "needs root to create loop devices";                        \
    if (!diskvet::cli::can_create_loop_devices()) GTEST_SKIP() << "no /dev/loop-control on this machine"; \
  } while (0)

class Lab : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("diskvet-suites-it-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    loops_.clear();  // detaches what this test attached, removes the backing files
    fs::remove_all(dir_);
  }

  // A fresh (all-zero) loop device over /dev/shm, detached at the end of the test.
  std::string make_loop(uint64_t size_bytes, uint32_t logical_block_bytes = 512) {
    std::string backing = "/dev/shm/diskvet-suites-it-" + std::to_string(getpid()) + "-" + std::to_string(loops_.size()) + ".img";
    auto loop = diskvet::cli::ScratchLoop::create(backing, size_bytes, logical_block_bytes);
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
    log_ = dir_ / "diskvet.log";
    return diskvet::testing::run_command(diskvet::testing::words(std::string(DISKVET_BINARY) + " " + args), {.output_file = log_.string()}).exit_code;
  }
  std::string log() const {
    std::ifstream in(log_);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  boost::json::object report(const std::string& name) const {
    std::ifstream in(dir_ / name);
    std::ostringstream s;
    s << in.rdbuf();
    boost::json::value v = boost::json::parse(s.str());
    return v.as_object();
  }

  fs::path dir_, log_;
  std::vector<diskvet::cli::ScratchLoop> loops_;
};

}  // namespace suites_lab
