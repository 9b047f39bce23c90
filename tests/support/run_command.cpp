// run_command with Boost.Process (v1, header-only; std::filesystem through BOOST_PROCESS_USE_STD_FS).
// Boost.Process starts the child, wires its streams and waits; the interrupt is a timer thread. No
// SIGCHLD handler is installed (Boost.Process's async waiting would), so the other children a test
// forks and waits for itself are left alone.
#include "tests/support/run_command.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/io.hpp>
#include <boost/process/pipe.hpp>
#include <boost/process/search_path.hpp>
#include <boost/process/start_dir.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <stop_token>
#include <thread>

namespace diskvet::testing {

namespace bp = boost::process;
using Clock = std::chrono::steady_clock;

namespace {

std::string read_all(bp::ipstream& in) { return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()}; }

}  // namespace

CommandResult run_command(const std::vector<std::string>& argv, const CommandOptions& options) {
  CommandResult r;
  if (argv.empty()) return r;
  const std::filesystem::path exe = argv[0].find('/') == std::string::npos ? bp::search_path(argv[0]) : std::filesystem::path(argv[0]);
  if (exe.empty()) {
    r.exit_code = 127;
    r.err = argv[0] + ": not found in PATH\n";
    return r;
  }
  const std::vector<std::string> args(argv.begin() + 1, argv.end());
  const std::string dir = options.working_dir.empty() ? std::filesystem::current_path().string() : options.working_dir;
  std::error_code ec;
  auto start = [&](auto&&... streams) {
    return bp::child(bp::exe = exe.string(), bp::args = args, bp::start_dir = dir, bp::std_in < bp::null, streams..., ec);
  };
  bp::ipstream out, err;
  const bool to_file = !options.output_file.empty();
  if (to_file) std::ofstream(options.output_file, std::ios::trunc).close();  // Boost.Process opens it without O_TRUNC
  bp::child child = to_file                ? start((bp::std_out & bp::std_err) > std::filesystem::path(options.output_file))
                    : options.merge_output ? start((bp::std_out & bp::std_err) > out)
                                           : start(bp::std_out > out, bp::std_err > err);
  if (ec) {
    r.exit_code = 127;
    r.err = argv[0] + ": " + ec.message() + "\n";
    return r;
  }

  // SIGINT after the delay unless stopped first; it is stopped only once waitid(WNOWAIT) saw the
  // child exit, and until the child is reaped its pid cannot name another process.
  std::optional<Clock::time_point> interrupted_at;
  std::jthread interrupter;
  if (options.interrupt_after_ms > 0 || options.interrupt_when)
    interrupter = std::jthread([&, pid = child.id()](std::stop_token stop) {
      std::mutex mutex;
      std::condition_variable_any cv;
      std::unique_lock lock(mutex);
      if (options.interrupt_when) {
        while (!stop.stop_requested() && !options.interrupt_when())
          cv.wait_for(lock, stop, std::chrono::milliseconds(20), [] { return false; });
      } else {
        cv.wait_for(lock, stop, std::chrono::milliseconds(options.interrupt_after_ms), [] { return false; });
      }
      if (stop.stop_requested()) return;
      // Stamped before the signal: stamped after, this thread could lose the CPU between the two
      // while the child died and the waiting thread took its exit time, which came out earlier.
      interrupted_at = Clock::now();
      ::kill(pid, SIGINT);
    });
  if (!to_file) {
    // stderr on its own thread while this one reads stdout: a child filling one pipe while the
    // reader waits on the other would wait forever.
    std::thread err_reader;
    if (!options.merge_output) err_reader = std::thread([&] { r.err = read_all(err); });
    r.out = read_all(out);
    if (err_reader.joinable()) err_reader.join();
  }
  siginfo_t info{};
  while (::waitid(P_PID, static_cast<id_t>(child.id()), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
  }
  const auto exited_at = Clock::now();
  if (interrupter.joinable()) {
    interrupter.request_stop();
    interrupter.join();
  }
  if (interrupted_at) r.exit_after_interrupt_ms = std::chrono::duration<double, std::milli>(exited_at - *interrupted_at).count();
  child.wait(ec);
  const int status = child.native_exit_code();
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
  return r;
}

std::function<bool()> file_holds(std::string path, std::vector<std::string> texts) {
  return [path = std::move(path), texts = std::move(texts)] {
    std::ifstream in(path);
    const std::string have{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return std::all_of(texts.begin(), texts.end(), [&](const std::string& t) { return have.find(t) != std::string::npos; });
  };
}

std::vector<std::string> words(std::string_view command_line) {
  std::vector<std::string> out;
  for (size_t at = command_line.find_first_not_of(' '); at != std::string_view::npos;) {
    size_t end = command_line.find(' ', at);
    out.emplace_back(command_line.substr(at, end - at));
    at = command_line.find_first_not_of(' ', end);
  }
  return out;
}

bool have_program(const std::string& name) { return !bp::search_path(name).empty(); }

}  // namespace diskvet::testing
