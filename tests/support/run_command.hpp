// Running a program from a test and waiting for it: argv, never a shell string, so no word needs
// quoting; the one place the tests start a command (Boost.Process underneath, in run_command.cpp).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace diskvet::testing {

struct CommandResult {
  int exit_code = -1;  // 128+N when killed by signal N; 127 when the program could not be started
  std::string out;     // stdout; stdout and stderr together with merge_output
  std::string err;
  double exit_after_interrupt_ms = -1;  // from the SIGINT to the child's exit; -1: not interrupted
};

struct CommandOptions {
  int interrupt_after_ms = 0;  // SIGINT to the child this long after its start, if still running
  // SIGINT to the child the first time this returns true (asked every 20 ms while the child runs):
  // a test interrupts on what the run reached (a line in its log, a device's counters), never on
  // a guess of how long it takes to get there.
  std::function<bool()> interrupt_when{};
  bool merge_output = false;   // stderr into out, in the order written (as 2>&1)
  std::string output_file{};   // stdout and stderr to this file, truncated first (as > FILE 2>&1); out and err stay empty
  std::string working_dir{};   // empty: this process's
};

// Runs argv[0] (looked up in PATH when it has no slash) with the other words as its arguments,
// its standard input /dev/null, and waits for it.
CommandResult run_command(const std::vector<std::string>& argv, const CommandOptions& options = {});

// A condition for interrupt_when: the file holds every one of the texts (a run's log has reached
// the phase lines named).
std::function<bool()> file_holds(std::string path, std::vector<std::string> texts);

// The words of a command line written in a test, split at spaces: no quoting, so no word may hold
// a space ("run --suite quick --device /dev/loop3" -> 5 words).
std::vector<std::string> words(std::string_view command_line);

// Whether `name` is a program in PATH.
bool have_program(const std::string& name);

}  // namespace diskvet::testing
