// Each subcommand registers its options on the CLI11 app and returns the action to run when chosen.
#pragma once

#include <CLI/CLI.hpp>

#include <atomic>
#include <functional>

#include "common/error.hpp"

namespace diskvet::cli {

// Set by SIGINT/SIGTERM; long-running commands poll it and stop cleanly.
const std::atomic<bool>& interrupt_flag();
void install_signal_handlers();

using Action = std::function<int()>;  // returns the process exit code

Action register_io(CLI::App& app);
Action register_list(CLI::App& app);
Action register_run(CLI::App& app);
Action register_suites(CLI::App& app);
Action register_report(CLI::App& app);
Action register_compare(CLI::App& app);
Action register_fleet(CLI::App& app);
Action register_tui(CLI::App& app);
Action register_gate(CLI::App& app);
Action register_probe_capacity(CLI::App& app);
Action register_selftest(CLI::App& app);

// Prints "diskvet: <message>" on stderr and returns the exit code for it.
int fail(const Error& e);

}  // namespace diskvet::cli
