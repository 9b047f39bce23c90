// smartctl as the self-test backend of SATA drives.
#include "devices/smartctl_self_test.hpp"

#include <fmt/format.h>

#include "devices/smartctl.hpp"

namespace diskvet::devices {

namespace {

// smartctl(8) exit status bits 0 and 1: the command line was bad or the device could not be opened;
// bit 2: a SMART command to the drive failed.
Result<SmartctlSelfTestState> read_state(const std::string& node) {
  auto out = smartctl_output({"--json=c", "-c", "-l", "selftest", node});
  if (!out) return runtime_error(node, "smartctl is not installed or did not answer in time");
  if (out->failed(0x3)) return runtime_error(node, fmt::format("smartctl could not read the drive's SMART data (exit status {})", out->exit_status));
  auto s = parse_smartctl_self_test(out->text);
  if (!s) return runtime_error(node, "smartctl reports neither ATA SMART data nor a SCSI device");
  return *s;
}

Status run(const std::string& node, const std::vector<std::string>& args, const char* what) {
  auto out = smartctl_output(args);
  if (!out) return runtime_error(node, fmt::format("smartctl {}: not installed or no answer in time", what));
  if (out->failed(0x7)) return runtime_error(node, fmt::format("smartctl {} failed (exit status {})", what, out->exit_status));
  return ok_status();
}

}  // namespace

SelfTestSupport SmartctlSelfTest::support(SelfTestType type) {
  SelfTestSupport s;
  auto state = read_state(node_);
  if (!state) {
    s.why = "not supported: " + state.error().message();
    return s;
  }
  if (!state->supported) {
    s.why = "not supported: " + state->unsupported_why;
    return s;
  }
  s.supported = true;
  const bool short_test = type == SelfTestType::short_test;
  s.estimate_min = short_test ? state->short_min : state->extended_min;
  if (s.estimate_min) s.estimate_source = short_test ? state->short_source : state->extended_source;
  return s;
}

Status SmartctlSelfTest::start(SelfTestType type) {
  auto before = read_state(node_);
  log_before_ = before ? std::optional<std::string>(before->log_text) : std::nullopt;
  seen_running_ = false;
  return run(node_, {"-t", type == SelfTestType::short_test ? "short" : "long", node_}, type == SelfTestType::short_test ? "-t short" : "-t long");
}

Result<SelfTestPoll> SmartctlSelfTest::poll() {
  auto state = read_state(node_);
  if (!state) return state.error();
  SelfTestPoll p;
  p.running = state->running;
  p.percent_done = state->percent_done;
  seen_running_ = seen_running_ || p.running;
  if (!p.running && !seen_running_ && log_before_ == state->log_text) {
    p.running = true;  // not started yet: the log still ends with an older test
    p.percent_done = 0;
  } else if (!p.running) {
    p.newest = state->newest;
  }
  return p;
}

Status SmartctlSelfTest::abort() { return run(node_, {"-X", node_}, "-X"); }

}  // namespace diskvet::devices
