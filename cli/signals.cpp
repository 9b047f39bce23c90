// SIGINT/SIGTERM handling: the only process-wide state, because a signal handler can reach no other.
#include <signal.h>

#include <cstdio>

#include "cli/commands.hpp"
#include "common/error.hpp"

namespace diskvet::cli {

namespace {
std::atomic<bool> g_interrupted{false};
extern "C" void on_signal(int) { g_interrupted.store(true); }
}  // namespace

const std::atomic<bool>& interrupt_flag() { return g_interrupted; }

void install_signal_handlers() {
  struct sigaction sa{};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int fail(const Error& e) {
  std::fprintf(stderr, "diskvet: %s\n", e.message().c_str());
  return e.exit_code();
}

}  // namespace diskvet::cli
