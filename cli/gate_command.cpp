// `diskvet gate --device ID... [--destroy-data ID...]`: the host side of a multi-host run. Decides
// for each device on this host (protection and consent, the one write gate), prints the decision as
// one JSON line, and holds every granted device open O_EXCL until stdin closes: the controller keeps
// the SSH session open for the run, so the hold ends when the run ends or the controller goes away.
#include <unistd.h>

#include <boost/json.hpp>
#include <cstdio>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "common/units.hpp"
#include "runner/hosts/host_gate.hpp"

namespace diskvet::cli {

namespace {

struct GateOptions {
  std::vector<std::string> devices;
  std::vector<std::string> destroy;
  bool no_wait = false;
  uint32_t probe = 0;
  double max_zero_pct = 50;
  std::string region;
};

int run_gate(const GateOptions& o) {
  runner::GateRequest request{o.devices, devices::Consent{o.destroy}};
  request.probe_samples = o.probe;
  request.probe_max_zero_pct = o.max_zero_pct;
  if (!o.region.empty()) {
    auto r = parse_size(o.region);
    if (!r) return fail(usage_error("--region", fmt::format("'{}' is not a size", o.region), "e.g. 1g"));
    request.probe_region_bytes = *r;
  }
  runner::HostGate gate = runner::HostGate::decide(request);
  std::printf("%s\n", boost::json::serialize(gate.to_json()).c_str());
  std::fflush(stdout);
  if (!o.no_wait) {
    // Held until the controller closes our stdin (its SSH session ends, whichever way).
    char buf[256];
    while (true) {
      const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
      if (n == 0 || (n < 0 && errno != EINTR)) break;
    }
  }
  return gate.all_granted() ? 0 : 2;
}

}  // namespace

Action register_gate(CLI::App& app) {
  auto o = std::make_shared<GateOptions>();
  CLI::App* gate = app.add_subcommand("gate", "Host side of 'diskvet run --hosts': check devices here and hold the writable ones until stdin closes");
  gate->footer(
      "Prints one JSON object: each device's /dev path, whether it was asked for writing, whether it is held\n"
      "(open O_EXCL, so nothing can mount or claim it) and why not. The hold lasts until stdin is closed.\n"
      "Exit 0 when every device was found and every device asked for writing is held; 2 otherwise.");
  gate->add_option("--device,-d", o->devices, "Device identity: serial, SERIAL/NSID, WWN, /dev or /dev/disk/by-id path")->required();
  gate->add_option("--destroy-data", o->destroy, "Consent to overwrite: serial, WWN, SERIAL/NSID, /dev path or all-unprotected");
  gate->add_flag("--no-wait", o->no_wait, "Decide, print and release at once (a dry check)");
  gate->add_option("--probe", o->probe, "Also read this many sampled blocks of each device (read only): all-zero blocks were never written");
  gate->add_option("--max-zero-pct", o->max_zero_pct, "With --probe: more zero samples than this and the device counts as unwritten")->capture_default_str();
  gate->add_option("--region", o->region, "With --probe: probe the first SIZE of each device (default: all of it)");
  return [o] { return run_gate(*o); };
}

}  // namespace diskvet::cli
