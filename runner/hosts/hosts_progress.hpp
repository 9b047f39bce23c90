// The live progress of a multi-host run, as plain values and pure renderings (the CLI draws them).
// fio 3.33's client reports nothing while a json+ run is in progress (its ETA line is printed only
// with normal output, and summed over hosts; --status-interval results arrive in the final JSON), so
// the time comes from the controller's own clock (fio's start delay, ramp and runtime are known) and
// the IOPS are those of each host's last finished fio run, said so on the line.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace diskvet::runner {

enum class HostState { preparing, running, done, lost };
std::string_view to_string(HostState s);

struct HostProgress {
  std::string name;
  HostState state = HostState::preparing;
  std::optional<double> iops;  // the host's IOPS in the last finished fio run
};

struct HostsProgress {
  std::string what;               // the test and workload running ("read: randread 4k QD1 x1, round 2 of at most 25")
  double elapsed_s = 0;           // since this fio run started
  std::optional<double> planned_s;  // start delay + ramp + runtime; none for a sized run (preconditioning)
  bool finished = false;          // the run ended: the IOPS are this run's
  std::vector<HostProgress> hosts;
  std::optional<double> merged_iops;  // the last finished run's merged IOPS
};

// One compact line (logs, or many hosts): "read: ... 12s/31s (19s left) | 3 hosts: 2 running, 1 lost |
// last run 1.2M IOPS (h1 600k, h2 600k)"; cut to width characters (0: no limit).
std::string render_progress_line(const HostsProgress& p, size_t width = 0);

// A block for a terminal: the compact header, then a line per host (state, last run's IOPS); more
// than max_hosts hosts: the first max_hosts - 1 and a line counting the rest by state.
std::vector<std::string> render_progress_block(const HostsProgress& p, size_t max_hosts = 12, size_t width = 0);

// When a plain (non-terminal) progress line is due: the first report, then every interval_s, and
// always when a run finished.
class ProgressPacer {
 public:
  explicit ProgressPacer(double interval_s) : interval_s_(interval_s) {}
  bool due(double now_s, bool finished);

 private:
  double interval_s_;
  std::optional<double> last_s_;
};

}  // namespace diskvet::runner
