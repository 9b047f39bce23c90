// Child processes of the controller.
#include "common/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <thread>

extern char** environ;

namespace diskvet {

namespace {

int decode_status(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

Result<ChildProcess> ChildProcess::spawn(const std::vector<std::string>& argv, const SpawnOptions& o) {
  if (argv.empty()) return usage_error("spawn", "no program");
  ChildProcess c;
  for (const auto& a : argv) c.command_ += (c.command_.empty() ? "" : " ") + a;
  int in_pipe[2] = {-1, -1}, out_pipe[2] = {-1, -1};
  if (o.pipe_stdin && ::pipe2(in_pipe, O_CLOEXEC) != 0) return system_error(argv[0], "cannot make a pipe", errno);
  if (o.pipe_stdout && ::pipe2(out_pipe, O_CLOEXEC) != 0) {
    if (in_pipe[0] >= 0) { ::close(in_pipe[0]); ::close(in_pipe[1]); }
    return system_error(argv[0], "cannot make a pipe", errno);
  }
  UniqueFd in_r(in_pipe[0]), in_w(in_pipe[1]), out_r(out_pipe[0]), out_w(out_pipe[1]);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (in_r.valid()) posix_spawn_file_actions_adddup2(&fa, in_r.get(), STDIN_FILENO);
  else posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  if (out_w.valid()) posix_spawn_file_actions_adddup2(&fa, out_w.get(), STDOUT_FILENO);
  else if (!o.stdout_file.empty()) posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, o.stdout_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
  else posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  if (!o.stderr_file.empty()) posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, o.stderr_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
  else posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  if (!o.working_dir.empty()) posix_spawn_file_actions_addchdir_np(&fa, o.working_dir.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Its own process group, so stop() reaches whatever it starts; default signal dispositions.
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const int rc = posix_spawnp(&c.pid_, argv[0].c_str(), &fa, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) return system_error(argv[0], "could not be started", rc, fmt::format("install {}", argv[0]));
  c.stdin_ = std::move(in_w);
  c.stdout_ = std::move(out_r);
  return c;
}

ChildProcess::ChildProcess(ChildProcess&& o) noexcept
    : pid_(std::exchange(o.pid_, -1)), exit_code_(o.exit_code_), stdin_(std::move(o.stdin_)), stdout_(std::move(o.stdout_)),
      buffer_(std::move(o.buffer_)), stdout_eof_(o.stdout_eof_), command_(std::move(o.command_)) {}

ChildProcess& ChildProcess::operator=(ChildProcess&& o) noexcept {
  if (this != &o) {
    if (pid_ > 0 && !exit_code_) stop(0);
    pid_ = std::exchange(o.pid_, -1);
    exit_code_ = o.exit_code_;
    stdin_ = std::move(o.stdin_);
    stdout_ = std::move(o.stdout_);
    buffer_ = std::move(o.buffer_);
    stdout_eof_ = o.stdout_eof_;
    command_ = std::move(o.command_);
  }
  return *this;
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !exit_code_) stop(1000);
}

bool ChildProcess::write_stdin(std::string_view text) {
  while (stdin_.valid() && !text.empty()) {
    const ssize_t n = ::write(stdin_.get(), text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    text.remove_prefix(static_cast<size_t>(n));
  }
  return stdin_.valid();
}

std::optional<std::string> ChildProcess::read_line(int timeout_ms) {
  const int64_t until = now_ms() + timeout_ms;
  while (true) {
    if (size_t nl = buffer_.find('\n'); nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return line;
    }
    if (stdout_eof_ || !stdout_.valid()) return std::nullopt;
    const int64_t left = until - now_ms();
    if (left <= 0) return std::nullopt;
    pollfd p{stdout_.get(), POLLIN, 0};
    const int r = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left, 200)));
    if (r < 0 && errno != EINTR) return std::nullopt;
    if (r <= 0) continue;
    char buf[4096];
    const ssize_t n = ::read(stdout_.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      stdout_eof_ = true;
      continue;
    }
    buffer_.append(buf, static_cast<size_t>(n));
  }
}

std::string ChildProcess::read_rest(int timeout_ms) {
  const int64_t until = now_ms() + timeout_ms;
  while (!stdout_eof_ && stdout_.valid() && now_ms() < until) {
    pollfd p{stdout_.get(), POLLIN, 0};
    const int r = ::poll(&p, 1, 200);
    if (r <= 0) continue;
    char buf[65536];
    const ssize_t n = ::read(stdout_.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) stdout_eof_ = true;
    else buffer_.append(buf, static_cast<size_t>(n));
  }
  return std::exchange(buffer_, {});
}

std::optional<int> ChildProcess::poll() {
  if (exit_code_ || pid_ <= 0) return exit_code_;
  int status = 0;
  const pid_t r = ::waitpid(pid_, &status, WNOHANG);
  if (r == pid_) exit_code_ = decode_status(status);
  else if (r < 0 && errno == ECHILD) exit_code_ = -1;
  return exit_code_;
}

std::optional<int> ChildProcess::wait_for(int timeout_ms) {
  const int64_t until = now_ms() + timeout_ms;
  while (!poll()) {
    if (now_ms() >= until) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return exit_code_;
}

int ChildProcess::stop(int grace_ms) {
  if (pid_ <= 0) return -1;
  if (!poll()) {
    // The group is signalled only while its leader is unreaped, so its id cannot have been reused.
    ::kill(-pid_, SIGTERM);
    if (!wait_for(grace_ms)) {
      ::kill(-pid_, SIGKILL);
      if (!wait_for(grace_ms)) exit_code_ = 128 + SIGKILL;  // stuck in the kernel: left to init, never waited on
    }
  }
  stdin_.reset();
  return *exit_code_;
}

}  // namespace diskvet
