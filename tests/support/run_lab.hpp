// The fixture of tests that run the real diskvet binary as a user would, on loop devices this test
// creates (and only those): a scratch directory per test, the loop devices, the run's log and report.
#pragma once

#include <unistd.h>

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/loop_lab.hpp"
#include "tests/support/run_command.hpp"

namespace diskvet::testing {

class RunLab : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    tag_ = std::to_string(getpid()) + "-" + info->test_suite_name() + "-" + info->name();
    dir_ = std::filesystem::temp_directory_path() / ("diskvet-it-" + tag_);
    log_ = dir_ / "diskvet.log";
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    loops_.clear();  // detaches what this test attached, removes the backing files
    std::filesystem::remove_all(dir_);
  }

  // A fresh (all-zero) loop device over /dev/shm, detached at the end of the test.
  std::string make_loop(uint64_t size_bytes, uint32_t logical_block_bytes = 512) {
    auto loop = std::make_unique<LoopDevice>("it", size_bytes, devices::LoopOptions{.logical_block_bytes = logical_block_bytes});
    if (!loop->valid()) {
      ADD_FAILURE() << loop->why();
      return {};
    }
    loops_.push_back(std::move(loop));
    return loops_.back()->path();
  }
  const std::string& backing(size_t i) const { return loops_.at(i)->backing(); }

  std::filesystem::path file(const std::string& name) const { return dir_ / name; }
  void write_file(const std::string& name, const std::string& text) const { std::ofstream(dir_ / name) << text; }

  // Runs diskvet with the arguments; returns its exit code, output in the log file (log_).
  int diskvet(const std::string& args) {
    return run_command(words(std::string(DISKVET_BIN) + " " + args), {.output_file = log_.string()}).exit_code;
  }
  std::string log() const { return read_text(log_); }
  boost::json::object report(const std::string& name) const { return boost::json::parse(read_text(dir_ / name)).as_object(); }

  static std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }

  std::string tag_;
  std::filesystem::path dir_, log_;
  std::vector<std::unique_ptr<LoopDevice>> loops_;
};

}  // namespace diskvet::testing
