// A tmux session on a private server socket running the real diskvet binary: send keys, read the
// screen, resize, and learn the exit code. Waits are bounded polls for screen content, never sleeps
// that assume a speed.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/lab.hpp"
#include "tests/support/loop_lab.hpp"

namespace tui_lab {

namespace fs = std::filesystem;
using diskvet::testing::run_command;

#define SKIP_UNLESS_TMUX()                                                                   \
  do {                                                                                       \
    if (!diskvet::testing::have_program("tmux")) GTEST_SKIP() << "tmux is not installed (scripts/packages/tui.txt)"; \
  } while (0)
#define SKIP_UNLESS_ROOT() \
  do {                     \
    if (!diskvet::testing::is_root()) GTEST_SKIP() << "needs root: discovery and loop devices"; \
  } while (0)

class TmuxSession {
 public:
  // Starts `diskvet ARGS` in a detached session of width x height; env is prepended (TERM=vt100).
  TmuxSession(const std::string& args, int width, int height, const std::string& env = "") {
    const std::string tag = std::to_string(getpid()) + "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    socket_ = "diskvet-tui-" + tag;
    dir_ = fs::temp_directory_path() / ("diskvet-tui-it-" + tag);
    fs::create_directories(dir_);
    exit_file_ = (dir_ / "exit-code").string();
    stty_file_ = (dir_ / "stty-after").string();
    // After diskvet exits, stty records the terminal modes it left behind (restored: icanon echo).
    std::string cmd = env + (env.empty() ? "" : " ") + std::string(DISKVET_BIN) + " " + args + "; echo $? > " + exit_file_ + ".tmp; stty -a > " +
                      stty_file_ + "; mv " + exit_file_ + ".tmp " + exit_file_;
    auto r = run_command({"tmux", "-L", socket_, "-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", std::to_string(width), "-y",
                          std::to_string(height), "sh", "-c", cmd});
    started_ = r.exit_code == 0;
    if (!started_) ADD_FAILURE() << "tmux new-session failed: " << r.err;
  }
  ~TmuxSession() {
    run_command({"tmux", "-L", socket_, "kill-server"});
    fs::remove_all(dir_);
  }
  TmuxSession(const TmuxSession&) = delete;
  TmuxSession& operator=(const TmuxSession&) = delete;

  const fs::path& dir() const { return dir_; }

  std::string screen() const { return run_command({"tmux", "-L", socket_, "capture-pane", "-p", "-t", "t"}).out; }
  std::vector<std::string> lines() const {
    std::vector<std::string> out;
    std::istringstream in(screen());
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
  }
  // Keys in tmux's names: "Down", "Space", "Enter", "Escape", or literal text with literal = true.
  void send(const std::string& keys, bool literal = false) const {
    std::vector<std::string> argv{"tmux", "-L", socket_, "send-keys", "-t", "t"};
    if (literal) argv.push_back("-l");
    argv.push_back(keys);
    run_command(argv);
  }
  void resize(int width, int height) const {
    run_command({"tmux", "-L", socket_, "resize-window", "-t", "t", "-x", std::to_string(width), "-y", std::to_string(height)});
  }

  // Polls the screen until it contains `text`; false after `timeout_s`.
  bool wait_for(const std::string& text, double timeout_s = 20) const {
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    while (std::chrono::steady_clock::now() < until) {
      if (screen().find(text) != std::string::npos) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }
  // Presses Down until the line holding `text` is the highlighted one (the details box title names it).
  bool move_to_device(const std::string& path, int max_steps = 300) const {
    for (int i = 0; i < max_steps; ++i) {
      if (box_title_is(path)) return true;
      std::string before = screen();
      send("Down");
      if (!wait_until_changed(before)) return false;  // the cursor is on the last device
    }
    return false;
  }
  // The exit code once diskvet has exited; -1 after timeout_s.
  int wait_exit(double timeout_s = 20) const {
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    while (std::chrono::steady_clock::now() < until) {
      std::ifstream in(exit_file_);
      int code = -1;
      if (in >> code) return code;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return -1;
  }
  bool started() const { return started_; }

  // The terminal modes after diskvet exited (valid once wait_exit returned a code).
  std::string stty_after() const {
    std::ifstream in(stty_file_);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  bool terminal_restored() const {
    std::string modes = " " + stty_after();
    for (char& ch : modes)
      if (ch == '\n' || ch == ';') ch = ' ';
    return modes.find(" icanon ") != std::string::npos && modes.find(" echo ") != std::string::npos;
  }
  // Sends a signal to the diskvet process (the child of the pane's shell).
  void signal_diskvet(int sig) const {
    std::string shell = run_command({"tmux", "-L", socket_, "display-message", "-p", "-t", "t", "#{pane_pid}"}).out;
    shell = shell.substr(0, shell.find('\n'));
    std::string child = run_command({"pgrep", "-P", shell}).out;
    child = child.substr(0, child.find('\n'));
    if (child.empty()) {
      ADD_FAILURE() << "no diskvet process under the pane's shell " << shell;
      return;
    }
    run_command({"kill", "-" + std::to_string(sig), child});
  }

 private:
  bool box_title_is(const std::string& path) const {
    for (const auto& l : lines())
      // The details box's top edge: "+- /dev/loop7 ---" in ASCII, "lq /dev/loop7 qqq" as the terminal's
      // line set reads in capture-pane, or the Unicode corner.
      if ((l.rfind("+-", 0) == 0 || l.rfind("lq", 0) == 0 || l.rfind("\u250c", 0) == 0) && l.find(" " + path + " ") != std::string::npos)
        return true;
    return false;
  }
  bool wait_until_changed(const std::string& before) const {
    for (int i = 0; i < 80; ++i) {
      if (screen() != before) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    return false;
  }

  std::string socket_;
  fs::path dir_;
  std::string exit_file_, stty_file_;
  bool started_ = false;
};

// The whole disk behind "/": lsblk's parent of the root filesystem's source, as /dev/NAME.
inline std::string root_disk() {
  auto src = run_command({"findmnt", "-n", "-o", "SOURCE", "/"}).out;
  src = src.substr(0, src.find('\n'));
  if (src.empty() || src[0] != '/') return {};
  auto parent = run_command({"lsblk", "-n", "-d", "-o", "PKNAME", src}).out;
  parent = parent.substr(0, parent.find('\n'));
  while (!parent.empty() && parent.back() == ' ') parent.pop_back();
  return parent.empty() ? src : "/dev/" + parent;
}

inline bool all_zero(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string data((std::istreambuf_iterator<char>(in)), {});
  return data.find_first_not_of('\0') == std::string::npos;
}

}  // namespace tui_lab
