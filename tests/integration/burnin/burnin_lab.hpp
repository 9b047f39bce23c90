// Test lab for burn-in runs: the run fixture (tests/support/run_lab.hpp) with the real diskvet
// binary run in the background, and access to a loop device's backing file to damage blocks behind
// the runner's back.
#pragma once

#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/run_lab.hpp"

namespace burnin_lab {

namespace fs = std::filesystem;

constexpr uint64_t kMagic = 0x3174657676736964;  // "diskvet1": the verification block's first 8 bytes

// The kernel's log (dmesg), one line each.
inline std::vector<std::string> kernel_lines() {
  std::vector<std::string> out;
  std::istringstream in(diskvet::testing::run_command({"dmesg"}).out);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

class Lab : public diskvet::testing::RunLab {
 protected:
  void TearDown() override {
    if (runner_.joinable()) runner_.join();
    RunLab::TearDown();
  }

  // Runs diskvet on a thread; wait() returns its exit code. A test waits for the run before it
  // asserts anything that returns early: the lab (a local of the test) must outlive the run.
  void start(const std::string& args) {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    kernel_since_s_ = static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
    ended_ = false;
    // A run that hangs is ended after 300 s (a deadline that only catches a hang) so the test can
    // fail with its log instead of ctest killing it with the lab still attached.
    runner_ = std::thread([this, args] {
      rc_ = diskvet::testing::run_command(diskvet::testing::words("timeout -k 10 300 " + std::string(DISKVET_BIN) + " " + args),
                                          {.output_file = log_.string()})
                .exit_code;
      ended_ = true;
    });
  }
  int wait() {
    runner_.join();
    return rc_;
  }
  bool ended() const { return ended_; }
  // Waits until the run's output (its log: phase lines unless -q) holds `text`; false when the run
  // ended without it or after `timeout_s`, a deadline that only catches a hang.
  bool wait_for_line(const std::string& text, double timeout_s = 120) const {
    auto seen = [&] { return log().find(text) != std::string::npos; };
    wait_until([&] { return ended() || seen(); }, timeout_s);
    return seen();
  }
  // What the kernel logged since start(), by the time stamps of its lines (its local clock,
  // CLOCK_MONOTONIC here): a full ring buffer keeps the number of lines the same.
  std::string kernel_log() const {
    std::string out;
    for (const auto& line : kernel_lines())
      if (line.starts_with("[") && std::atof(line.c_str() + 1) >= kernel_since_s_) out += line + "\n";
    return out;
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

  std::thread runner_;
  std::atomic<bool> ended_{false};
  int rc_ = -1;
  double kernel_since_s_ = 0;
};

}  // namespace burnin_lab
