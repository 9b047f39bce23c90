// The run thread: plan through the gate, run_suite, seal and write the report.
#include "tui/run_session.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "devices/consent.hpp"
#include "devices/identity.hpp"
#include "runner/plan/build_plan.hpp"
#include "runner/report/report_json.hpp"
#include "runner/run/suite_run.hpp"
#include "tui/run_model.hpp"
#include "tui/suite_catalog.hpp"

namespace diskvet::tui {

using namespace diskvet::runner;

std::string report_path_in(const std::string& dir, const std::string& suite) {
  return (std::filesystem::path(dir) / default_report_name("report", suite)).string();
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
  if (confirmed.empty()) return usage_error("run", "no device was confirmed", "select a free device first");
  std::unique_ptr<RunSession> s(new RunSession());
  PlanRequest r;
  r.suite = suite;
  r.options.duration_s = options.duration_s;
  r.options.precondition_limit_s = options.precondition_limit_s;
  r.options.stop = &s->stop_;
  r.profile = profile;
  r.chooser = ProfileChooser::tui;
  r.out = report_path_in(options.report_dir, suite.name);
  r.out_option = "--report-dir";
  // Consent names each confirmed device's path only: a device that became protected since the list
  // was read is refused, and a serial consent never overrides anything from here.
  std::vector<std::string> paths;
  paths.reserve(confirmed.size());
  for (const auto& c : confirmed) paths.push_back(c.path);
  r.devices = paths;
  r.consent = devices::Consent{paths};
  // Held O_EXCL: what sits at each path must be what the operator was shown and confirmed.
  r.confirm = [&confirmed](const std::string& path, const devices::Device& now) -> Status {
    for (const auto& c : confirmed)
      if (c.path == path) return check_still_confirmed(now, c);
    return safety_error(path, "was not confirmed", "go back to the device list and confirm it; nothing was written");
  };
  auto planned = build_plan(std::move(r));
  if (!planned) return planned.error();
  RunSession* self = s.get();
  self->thread_ = std::thread([self, run = std::move(*planned)]() mutable {
    RunResult result = run_suite(run.plan, device_run_hooks(), self->events_);
    run.release_targets();  // release O_EXCL before the UI says the run is over
    result.notes.insert(result.notes.begin(), run.notes.begin(), run.notes.end());
    result.notes.push_back("started from the terminal UI; consent given by typing each device's serial (or YES)");
    boost::json::object doc = report_json(result, probe_host());
    const std::string out = run.report.path();
    auto written = run.report.commit(seal_report(doc) + "\n");
    Results results = results_of(result, out, written ? "" : written.error().message());
    {
      std::lock_guard l(self->m_);
      self->results_ = std::move(results);
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
