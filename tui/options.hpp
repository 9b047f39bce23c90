// What `diskvet tui` is started with.
#pragma once

#include <optional>
#include <string>

namespace diskvet::tui {

struct TuiOptions {
  std::string report_dir = ".";               // reports are saved here as diskvet-report-SUITE-TIME.json
  std::optional<double> duration_s;           // overrides every measurement window (as run --duration)
  std::optional<double> precondition_limit_s; // as run --precondition-limit
  bool ascii = false;                         // ASCII line drawing even where the terminal has a line set
  bool monochrome = false;                    // no colour even where the terminal has it
};

// Runs the terminal UI until the operator quits; returns the process exit code.
int run_tui(const TuiOptions& options);

}  // namespace diskvet::tui
