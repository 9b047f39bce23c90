// Test lab helpers (fork/exec); used only by tests.
#include "tests/support/lab.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>

namespace diskvet::testing {

CommandResult run_command(const std::vector<std::string>& argv, int interrupt_after_ms) {
  int out_pipe[2], err_pipe[2];
  if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0) return {};
  pid_t pid = fork();
  if (pid == 0) {
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    close(out_pipe[0]), close(err_pipe[0]), close(out_pipe[1]), close(err_pipe[1]);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(out_pipe[1]), close(err_pipe[1]);
  CommandResult r;
  auto start = std::chrono::steady_clock::now();
  bool interrupted = false;
  std::chrono::steady_clock::time_point interrupted_at;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  while (open_fds > 0) {
    int rc = poll(fds, 2, 50);
    if (rc < 0 && errno != EINTR) break;
    for (auto& f : fds) {
      if (f.fd < 0 || !(f.revents & (POLLIN | POLLHUP))) continue;
      char buf[4096];
      ssize_t n = read(f.fd, buf, sizeof buf);
      if (n <= 0) {
        close(f.fd);
        f.fd = -1;
        --open_fds;
      } else {
        (f.fd == out_pipe[0] ? r.out : r.err).append(buf, static_cast<size_t>(n));
      }
    }
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    if (interrupt_after_ms > 0 && !interrupted && ms >= interrupt_after_ms) {
      kill(pid, SIGINT);
      interrupted = true;
      interrupted_at = std::chrono::steady_clock::now();
    }
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (interrupted)
    r.exit_after_interrupt_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - interrupted_at).count();
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

bool is_root() { return geteuid() == 0; }

bool have_program(const std::string& name) {
  return run_command({"sh", "-c", "command -v " + name + " >/dev/null"}).exit_code == 0;
}

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

std::string sha256_of(const std::string& path) {
  auto r = run_command({"sha256sum", path});
  return r.out.substr(0, r.out.find(' '));
}

}  // namespace diskvet::testing
