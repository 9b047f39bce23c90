// The controller of a multi-host run (`diskvet run --suite S --hosts FILE`): SSH is the only door.
// Per host, one SSH session starts `fio --server` on a unix socket there (never a network port) and
// forwards it to a socket of ours, and one runs diskvet's gate, which holds the writable devices
// O_EXCL until the session closes. Every host must run the controller's fio build. Each workload of
// the suite is then one `fio --client` invocation across the hosts; the results are kept per host
// and merged. A host lost at any point makes the run INCOMPLETE; nothing is left running: closing a
// session (or the controller dying, which closes its pipes) ends what it started on the host.
#pragma once

#include <boost/json.hpp>

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runner/hosts/hosts_merge.hpp"
#include "runner/hosts/hosts_progress.hpp"
#include "runner/hosts/inventory.hpp"
#include "suites/profile.hpp"
#include "suites/suite.hpp"

namespace diskvet::runner {

struct HostsOptions {
  Inventory inventory;
  suites::Suite suite;
  std::optional<suites::Profile> profile;       // limits on the merged numbers; none: measurement only
  std::optional<suites::Profile> host_profile;  // limits on each host's own numbers
  std::vector<std::string> destroy;        // --destroy-data given to the controller, passed to every gate
  std::optional<double> duration_s;       // --duration: every timed workload's runtime
  std::optional<BackendKind> engine;      // lab: every workload on this engine (null: no device I/O)
  std::string local_fio = "fio";
  double startdelay_s = 1;
  double max_start_spread_s = 0.5;         // hosts starting further apart than this (or 2% of the runtime): not judged
  int connect_timeout_s = 20;
  std::vector<double> percentiles{50, 90, 99, 99.9, 99.99};
};

struct HostsEvents {
  std::function<void(const std::string& host, const std::string& what)> on_host;  // host "" for the run
  // While a fio run is in progress (about every 100 ms), and once when it ended (finished).
  std::function<void(const HostsProgress&)> on_progress;
};

struct HostsRunResult {
  boost::json::object report;  // the whole report (per host fio JSON kept)
  int exit_code = 3;
};

// Runs the suite across the inventory's hosts. A usage, input or safety refusal (version mismatch,
// a device the gate refused) ends before any I/O with exit 2; a host unreachable or lost: exit 3.
HostsRunResult run_hosts(const HostsOptions& options, const HostsEvents& events, const std::atomic<bool>& interrupted);

}  // namespace diskvet::runner
