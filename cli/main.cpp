// diskvet: storage acceptance and burn-in. Parses the command line and runs one subcommand.
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <new>
#include <system_error>
#include <string>
#include <utility>

#include "cli/commands.hpp"
#include "diskvet/version.hpp"

int main(int argc, char** argv) {
  CLI::App app{"diskvet: storage acceptance and burn-in.\n"
               "Measures block and NVMe devices with O_DIRECT and judges them against the vendor's promises.\n"
               "Start with 'diskvet run --suite quick' (a scratch target) or 'diskvet io --help' for one fio-style workload."};
  app.set_version_flag("--version", std::string("diskvet ") + diskvet::kVersion);
  app.require_subcommand(1);
  const std::pair<const char*, diskvet::cli::Action> commands[] = {
      {"io", diskvet::cli::register_io(app)},
      {"list", diskvet::cli::register_list(app)},
      {"run", diskvet::cli::register_run(app)},
      {"suites", diskvet::cli::register_suites(app)},
      {"report", diskvet::cli::register_report(app)},
      {"compare", diskvet::cli::register_compare(app)},
      {"fleet", diskvet::cli::register_fleet(app)},
      {"tui", diskvet::cli::register_tui(app)},
      {"gate", diskvet::cli::register_gate(app)},
      {"probe-capacity", diskvet::cli::register_probe_capacity(app)},
      {"selftest", diskvet::cli::register_selftest(app)},
  };
  // A bare `diskvet` on a terminal is the appliance's face: the TUI.
  const bool bare_on_terminal = argc == 1 && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
  try {
    if (bare_on_terminal) {
      const char* tui_argv[] = {argv[0], "tui"};
      app.parse(2, const_cast<char**>(tui_argv));
    } else {
      app.parse(argc, argv);
    }
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "diskvet: %s (see 'diskvet --help')\n", e.what());
    return 2;
  }
  // What escapes a command (no memory, no thread to be had) still ends with one line and a code:
  // exit 3, a runtime error, never an abort (134) with a core dump.
  try {
    for (const auto& [name, action] : commands)
      if (app.got_subcommand(name)) return action();
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "diskvet: out of memory (free memory, or run fewer devices or jobs at once)\n");
    return 3;
  } catch (const std::system_error& e) {
    std::fprintf(stderr, "diskvet: the system refused a resource: %s (raise the limit concerned, e.g. ulimit -u for threads)\n", e.what());
    return 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "diskvet: internal error: %s (please report it)\n", e.what());
    return 3;
  }
  return 2;
}
