// The run thread: plan through the gate, run_suite, seal and write the report.
#include "tui/run_session.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "devices/discovery.hpp"
#include "devices/health.hpp"
#include "devices/identity.hpp"
#include "devices/write_gate.hpp"
#include "runner/report/report_file.hpp"
#include "runner/report/report_json.hpp"
#include "runner/run/plan_check.hpp"
#include "runner/run/purge.hpp"
#include "runner/run/suite_run.hpp"
#include "suites/cloud_profile.hpp"
#include "suites/profile.hpp"
#include "suites/profile_match.hpp"
#include "tui/run_model.hpp"
#include "tui/suite_catalog.hpp"

namespace diskvet::tui {

using namespace diskvet::runner;

std::string report_path_in(const std::string& dir, const std::string& suite) {
  std::string stamp = utc_now_iso8601();
  for (auto& ch : stamp)
    if (ch == ':') ch = '-';
  return (std::filesystem::path(dir) / fmt::format("diskvet-report-{}-{}.json", suite, stamp)).string();
}

Status check_still_confirmed(const devices::Device& now, const ConfirmedDevice& c) {
  const char* again = "go back to the device list (r refreshes it) and confirm again; nothing was written";
  if (now.serial != c.serial) {
    std::string what = now.serial.empty()  ? fmt::format("no longer reports a serial; '{}' was confirmed", c.serial)
                       : c.serial.empty() ? fmt::format("now reports serial '{}'; it was confirmed as a device without one", now.serial)
                                          : fmt::format("now reports serial '{}', not the '{}' that was confirmed", now.serial, c.serial);
    return safety_error(c.path, what, again);
  }
  if (now.nvme_nsid != c.nsid)
    return safety_error(c.path, fmt::format("is now namespace {}, not the namespace {} that was confirmed", now.nvme_nsid, c.nsid), again);
  if (devices::normalize_wwn(now.wwn) != devices::normalize_wwn(c.wwn))
    return safety_error(c.path, fmt::format("now reports WWN '{}', not the '{}' that was confirmed", now.wwn, c.wwn), again);
  return ok_status();
}

Result<std::unique_ptr<RunSession>> RunSession::start(const suites::Suite& suite, const std::vector<ConfirmedDevice>& confirmed,
                                                      const std::string& profile, const TuiOptions& options) {
  if (suite.placeholder) return usage_error("suite " + suite.name, "is a placeholder: " + suite.placeholder_note, "choose quick or acceptance");
  if (confirmed.empty()) return usage_error("run", "no device was confirmed", "select a free device first");
  std::optional<suites::Profile> named;
  std::vector<suites::Profile> shipped;
  const bool measurement_only = profile == "none";
  if (profile == "auto") {
    auto all = suites::builtin_profiles();
    if (!all) return all.error();
    shipped = std::move(*all);
  } else if (!measurement_only) {
    // A cloud family (with its parameters) is sized per device below, as `diskvet run --profile` does.
    auto args = suites::parse_profile_args(profile);
    if (!args) return args.error();
    if (!suites::is_cloud_family(args->name)) {
      auto p = suites::resolve_profile(profile);
      if (!p) return p.error();
      named = std::move(*p);
    }
  }
  // The report is claimed before any device is opened: a report directory that cannot take it refuses now.
  std::string out = report_path_in(options.report_dir, suite.name);
  auto claim = claim_output(out, "--report-dir");
  if (!claim) return claim.error();
  std::unique_ptr<RunSession> s(new RunSession());
  RunPlan plan;
  plan.suite = suite;
  plan.options.duration_s = options.duration_s;
  plan.options.precondition_limit_s = options.precondition_limit_s;
  plan.options.stop = &s->stop_;
  plan.options.measurement_only = measurement_only;
  const bool writable = suite_writes(suite);
  for (const auto& c : confirmed) {
    Result<Target> target = Error{};
    devices::Device device;
    if (writable) {
      // The one gate. Consent names this device's path only: a device that became protected since
      // the list was read is refused, and a serial consent never overrides anything from here.
      auto grant = devices::open_for_write(c.path, devices::Consent{{c.path}});
      if (!grant) return grant.error();
      if (grant->block_device) {
        // Held O_EXCL now: what sits at the path is read as the list read it, and must be what was shown.
        auto now = devices::find_device(c.path);
        if (!now)
          return safety_error(c.path, "is no longer found by discovery", "go back to the device list and confirm again; nothing was written");
        if (auto same = check_still_confirmed(*now, c); !same) return same.error();
      }
      device = grant->device;
      target = Target::adopt(std::move(grant->fd), c.path, true);
    } else {
      target = Target::open(c.path, false);
      device.path = c.path;
    }
    if (!target) return target.error();
    // Identity for the report as the CLI gets it (udev model and serial, health); the gate's
    // assessment of protection, made under O_EXCL, is the one recorded.
    if (auto found = devices::find_device(c.path); found) {
      const bool is_protected = device.is_protected;
      const auto reasons = device.protection_reasons;
      const bool assessed = !device.path.empty();
      device = std::move(*found);
      if (assessed) device.is_protected = is_protected, device.protection_reasons = reasons;
    }
    if (device.path.empty()) device.path = c.path;
    DevicePlan dp{device, std::move(*target), std::nullopt, {}, 0};
    if (measurement_only) {
      dp.profile_reason = "measurement only (profile none chosen in the TUI): no limits judged";
    } else if (named) {
      dp.profile = named;
      dp.profile_reason = "chosen in the TUI (" + named->file + ")";
    } else if (profile != "auto") {
      std::string reason;
      auto p = suites::resolve_profile_for(profile, dp.device, reason);
      if (!p) return p.error();
      dp.profile = std::move(*p);
      // "named on the command line: Azure Premium SSD P10 (128 GiB) (azure-premium-ssd:tier=P10)", said of the TUI.
      const std::string said = "named on the command line";
      dp.profile_reason = reason.starts_with(said) ? "chosen in the TUI" + reason.substr(said.size()) : reason;
    } else {
      dp.profile = suites::match_profile(dp.device, shipped, dp.profile_reason);
    }
    plan.devices.push_back(std::move(dp));
  }
  if (auto fits = plan_verify_memory(plan); !fits) return fits.error();
  if (auto fits = check_plan_workloads(plan); !fits) return fits.error();
  RunSession* self = s.get();
  self->thread_ = std::thread([self, plan = std::move(plan), out, report_out = std::move(*claim)]() mutable {
    RunHooks hooks;  // as the CLI's: health and the NVMe purge from the devices library
    hooks.read_health = [](const devices::Device& d) -> std::optional<devices::Health> {
      if (d.kind == devices::DeviceKind::other && d.model == "regular file") return std::nullopt;
      return devices::read_health(d);
    };
    hooks.nvme_purge = purge_nvme;
    RunResult result = run_suite(plan, hooks, self->events_);
    plan.devices.clear();  // release O_EXCL before the UI says the run is over
    result.notes.push_back("started from the terminal UI; consent given by typing each device's serial (or YES)");
    boost::json::object doc = report_json(result, probe_host());
    auto written = report_out.commit(seal_report(doc) + "\n");
    Results r = results_of(result, out, written ? "" : written.error().message());
    {
      std::lock_guard l(self->m_);
      self->results_ = std::move(r);
    }
    self->finished_.store(true);
  });
  return s;
}

RunSession::~RunSession() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
}

Results RunSession::take_results() {
  if (thread_.joinable()) thread_.join();
  std::lock_guard l(m_);
  return std::move(results_);
}

}  // namespace diskvet::tui
