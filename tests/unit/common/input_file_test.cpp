// Input files (suites, profiles, reports, inventories): regular files only, opened without
// blocking, read with a cap; every refusal one line, exit 2.
#include "common/input_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace diskvet;
namespace fs = std::filesystem;

namespace {

class InputFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("diskvet-input-file-test-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

void expect_refused(const Result<std::string>& r, const std::string& mentions) {
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().exit_code(), 2) << r.error().message();
  EXPECT_EQ(r.error().message().find('\n'), std::string::npos);
  EXPECT_NE(r.error().message().find(mentions), std::string::npos) << r.error().message();
}

}  // namespace

TEST_F(InputFile, ReadsARegularFileWhole) {
  std::ofstream(dir_ / "a.json") << "{\"a\": 1}";
  auto r = read_input_file((dir_ / "a.json").string());
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(*r, "{\"a\": 1}");
}

TEST_F(InputFile, RefusesAFifoWithoutWaitingForAWriter) {
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_refused(read_input_file(fifo.string()), "is a FIFO");
}

TEST_F(InputFile, RefusesDevZeroAndADirectory) {
  expect_refused(read_input_file("/dev/zero"), "character device");
  expect_refused(read_input_file(dir_.string()), "directory");
}

TEST_F(InputFile, RefusesAFileOverTheCap) {
  std::ofstream(dir_ / "big.json") << std::string(2000, 'x');
  expect_refused(read_input_file((dir_ / "big.json").string(), 1000), "larger than");
  // A file whose stat says 0 bytes (as /proc's do) is still capped while it is read.
  auto self = read_input_file("/proc/self/status", 16);
  expect_refused(self, "larger than");
}

TEST_F(InputFile, AMissingFileSaysSo) { expect_refused(read_input_file((dir_ / "none.json").string()), "does not exist"); }
