// `diskvet probe-capacity`: the address-integrity probe on its own, through the same plan, gate and
// consent as `diskvet run` (it is a suite whose only step is the probe), with the same report.
#include <fmt/format.h>

#include <memory>

#include "cli/commands.hpp"
#include "cli/run_planned.hpp"
#include "common/units.hpp"
#include "devices/consent.hpp"
#include "runner/io/seed.hpp"
#include "runner/plan/build_plan.hpp"

namespace diskvet::cli {

namespace {

using namespace diskvet::runner;

struct ProbeCliOptions {
  std::vector<std::string> devices;
  std::vector<std::string> destroy;
  std::string budget;  // empty: min(1 GiB, 0.1%)
  std::string flush;   // empty: min(256 MiB, capacity / 16)
  std::string out;
  std::string randseed;
  bool quiet = false;
};

Result<uint64_t> size_option(const std::string& text, const char* option) {
  auto size = parse_size(text);
  if (!size || *size < (64u << 10)) return usage_error(option, fmt::format("'{}' is not a size of at least 64 KiB", text), "e.g. 64m, 1g");
  return *size;
}

// The probe as a suite of its own: no tests, the address probe its only step.
Result<PlanRequest> probe_request(const ProbeCliOptions& o) {
  PlanRequest r;
  r.suite.name = "probe-capacity";
  r.suite.file = "builtin:probe-capacity";
  r.suite.description = "Address integrity: blocks over the whole claimed capacity written, flushed and read back (fake capacity, wrapped addresses, lost writes).";
  r.suite.probe.enabled = false;
  r.suite.address_probe.enabled = true;
  if (!o.budget.empty()) {
    auto b = size_option(o.budget, "--budget");
    if (!b) return b.error();
    r.suite.address_probe.budget_bytes = *b;
  }
  if (!o.flush.empty()) {
    auto f = size_option(o.flush, "--flush");
    if (!f) return f.error();
    r.suite.address_probe.flush_bytes = *f;
  }
  if (!o.randseed.empty()) {
    r.options.randseed = parse_seed(o.randseed);
    if (!r.options.randseed) return usage_error("--randseed", fmt::format("'{}' is not a whole number", o.randseed), "e.g. 12345");
  }
  r.devices = o.devices;
  r.consent = devices::Consent{o.destroy};
  r.profile = "none";
  r.out = o.out.empty() ? default_report_name("report", r.suite.name) : o.out;
  return r;
}

int probe_capacity_command(const ProbeCliOptions& o) {
  auto request = probe_request(o);
  if (!request) return fail(request.error());
  return run_self_judging_step(std::move(*request), "none needed: the capacity probe judges addresses, not performance", o.quiet);
}

}  // namespace

Action register_probe_capacity(CLI::App& app) {
  auto o = std::make_shared<ProbeCliOptions>();
  CLI::App* cmd = app.add_subcommand("probe-capacity", "Check that every address of a device is real storage (fake capacity, wrapped addresses, lost writes)");
  cmd->footer(
      "Writes verification blocks at the first and last blocks, every power of two and its neighbours and a random sample\n"
      "of the whole claimed capacity, writes --flush bytes so a cache of that size no longer holds them, reads them all back,\n"
      "then narrows the real capacity down by bisection. It overwrites those blocks: the device must be named by\n"
      "--destroy-data, and protected devices are refused, as for 'diskvet run'. A drive whose cache is larger than the\n"
      "flush can still hide its lies; only a power cycle is a sure flush.\n"
      "Exit codes: 0 every address held its block, 1 fake capacity found, 2 usage or safety refusal, 3 error or interrupted.\n"
      "Example:\n"
      "  diskvet probe-capacity --device /dev/sdb --destroy-data /dev/sdb");
  cmd->add_option("--device,-d", o->devices, "Device to probe; repeat for several")->required();
  cmd->add_option("--destroy-data", o->destroy, "Consent to overwrite: serial, WWN, SERIAL/NSID, /dev path or all-unprotected");
  cmd->add_option("--budget", o->budget, "Bytes of probe blocks (default: the smaller of 1 GiB and 0.1% of the capacity, but at least the smaller of 4 MiB and 1/16 of it)");
  cmd->add_option("--flush", o->flush, "Bytes written between writing and reading back (default: the smaller of 256 MiB and 1/16 of the capacity, at least the budget, at most 1/4)");
  cmd->add_option("--out,-o", o->out, "Report file (default: diskvet-report-probe-capacity-TIME.json here)");
  cmd->add_option("--randseed", o->randseed, "Repeat the blocks of the probe whose report shows this randseed");
  cmd->add_flag("--quiet,-q", o->quiet, "No progress on stderr");
  return [o] { return probe_capacity_command(*o); };
}

}  // namespace diskvet::cli
