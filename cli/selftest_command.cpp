// `diskvet selftest`: the drive's own self-test on its own, through the same plan and report as
// `diskvet run` (a suite whose only step is the self-test). A self-test changes no user data (NVMe
// Base Specification: the Device Self-test operation does not modify user data; ATA's self-tests only
// read), so, as for every run that does not write, no --destroy-data consent is asked and a
// protected device is not refused: the drive tests itself while its data stays in use.
#include <fmt/format.h>

#include <memory>

#include "cli/commands.hpp"
#include "cli/run_planned.hpp"
#include "runner/plan/build_plan.hpp"

namespace diskvet::cli {

namespace {

using namespace diskvet::runner;

struct SelfTestCliOptions {
  std::vector<std::string> devices;
  std::string type = "short";
  std::string out;
  bool quiet = false;
};

Result<PlanRequest> self_test_request(const SelfTestCliOptions& o) {
  auto type = devices::parse_self_test_type(o.type);
  if (!type || *type == devices::SelfTestType::none) return usage_error("--type", fmt::format("'{}' is not a self-test", o.type), "use short or extended");
  PlanRequest r;
  r.suite.name = "selftest";
  r.suite.file = "builtin:selftest";
  r.suite.description = fmt::format("The drive's own {} self-test (NVMe Device Self-test; SATA through smartctl), in the drive's words.", o.type);
  r.suite.probe.enabled = false;
  r.suite.self_test.before = *type;
  r.devices = o.devices;
  r.profile = "none";
  r.out = o.out.empty() ? default_report_name("report", r.suite.name) : o.out;
  return r;
}

int self_test_command(const SelfTestCliOptions& o) {
  auto request = self_test_request(o);
  if (!request) return fail(request.error());
  // An interrupt aborts the running self-tests (runner/run/self_test_step.hpp).
  return run_self_judging_step(std::move(*request), "none needed: the drive's self-test judges itself", o.quiet);
}

}  // namespace

Action register_selftest(CLI::App& app) {
  auto o = std::make_shared<SelfTestCliOptions>();
  CLI::App* cmd = app.add_subcommand("selftest", "Run the drive's own self-test (short or extended) and report its result in the drive's words");
  cmd->footer(
      "NVMe: the Device Self-test command and its log page (06h); SATA: smartctl -t short|long, polled with smartctl -c -l selftest.\n"
      "Every device named is tested at once. The test is given the drive's own estimate (NVMe EDSTT, ATA's polling time;\n"
      "the short test is 2 minutes by specification) plus half of it, at least 5 minutes; past that, or on Ctrl-C, it is aborted.\n"
      "A self-test changes no user data: no --destroy-data is needed, and protected devices are tested too.\n"
      "A drive without self-tests is reported as not supported, never as passed.\n"
      "Exit codes: 0 passed, 1 failed, aborted or timed out, 2 usage, 3 error or interrupted, 4 not supported.\n"
      "Example:\n"
      "  diskvet selftest --device /dev/nvme0n1 --device /dev/sda --type extended");
  cmd->add_option("--device,-d", o->devices, "Device to test; repeat for several")->required();
  cmd->add_option("--type,-t", o->type, "short (default) or extended");
  cmd->add_option("--out,-o", o->out, "Report file (default: diskvet-report-selftest-TIME.json here)");
  cmd->add_flag("--quiet,-q", o->quiet, "No progress on stderr");
  return [o] { return self_test_command(*o); };
}

}  // namespace diskvet::cli
