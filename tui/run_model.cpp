// Run events into per-device views: phase, progress, live rates, the IOPS history, verdicts, log.
#include "tui/run_model.hpp"

#include <fmt/format.h>

#include "common/units.hpp"

namespace diskvet::tui {

using namespace diskvet::runner;

namespace {

RunDeviceView* view_of(Model& m, const std::string& path) {
  for (auto& v : m.run)
    if (v.path == path) return &v;
  return nullptr;
}

std::string who(const std::string& device) { return device.empty() ? "" : device + ": "; }

struct Apply {
  Model& m;
  void operator()(const PhaseEvent& e) {
    if (RunDeviceView* v = view_of(m, e.device)) {
      if (v->phase != e.phase || v->test_id != e.test_id) v->fraction = 0, v->eta_s.reset();
      v->phase = e.phase;
      v->test_id = e.test_id;
      v->detail = e.detail;
    }
    if (e.phase == Phase::done || e.phase == Phase::verdict) return;
    std::string what = std::string(to_string(e.phase)) + (e.test_id.empty() ? "" : " " + e.test_id);
    add_log(m, LogLevel::info, who(e.device) + what + (e.detail.empty() ? "" : ": " + e.detail));
  }
  void operator()(const ProgressEvent& e) {
    RunDeviceView* v = view_of(m, e.device);
    if (!v) return;
    v->fraction = e.fraction;
    v->elapsed_s = e.elapsed_s;
    v->eta_s = e.eta_s;
    if (!e.detail.empty()) v->detail = e.detail;
  }
  void operator()(const SampleEvent& e) {
    RunDeviceView* v = view_of(m, e.device);
    if (!v) return;
    const IntervalSample& s = e.sample;
    v->iops = s.total_iops();
    v->mb_per_s = (s.bw_bytes_per_s(Direction::read) + s.bw_bytes_per_s(Direction::write)) / 1e6;
    uint64_t ios = s.ios[0] + s.ios[1];
    v->lat_mean_us = ios ? static_cast<double>(s.lat_sum_ns[0] + s.lat_sum_ns[1]) / static_cast<double>(ios) / 1e3 : 0;
    v->lat_p99_us = static_cast<double>(s.total_lat_p99_ns) / 1e3;
    v->iops_history.push_back(v->iops);
    if (v->iops_history.size() > kHistory) v->iops_history.erase(v->iops_history.begin());
  }
  void operator()(const VerdictMsg& e) {
    if (e.verdict.status == VerdictStatus::not_evaluated) return;
    add_log(m, e.verdict.status == VerdictStatus::pass ? LogLevel::info : LogLevel::warning,
            fmt::format("{}{} {}: {}", who(e.device), e.verdict.test_id, e.verdict.metric, to_string(e.verdict.status)));
  }
  void operator()(const DeviceVerdictEvent& e) {
    if (RunDeviceView* v = view_of(m, e.device)) v->verdict = e.verdict.status;
    add_log(m, LogLevel::info, fmt::format("{}device verdict {}", who(e.device), to_string(e.verdict.status)));
  }
  void operator()(const LogMsg& e) { add_log(m, e.level, who(e.device) + e.text); }
};

ResultWorkload workload_of(const WorkloadRecord& w) {
  const Workload& wl = w.workload;
  ResultWorkload out;
  out.label = fmt::format("{} {} QD{} x{}", to_string(wl.rw), format_bytes(wl.bs_bytes), wl.iodepth, wl.numjobs);
  out.ran = w.ran;
  out.error = w.error;
  const Measurement& m = w.result;
  for (Direction d : {Direction::read, Direction::write}) {
    if (m.of(d).ios == 0) continue;
    ResultDirection rd{std::string(to_string(d)), m.of(d).ios, m.iops(d), m.bw_bytes_per_s(d) / 1e6, {}};
    for (double p : kDetailPercentiles) rd.percentiles_us.push_back(static_cast<double>(m.of(d).lat.percentile_ns(p)) / 1e3);
    out.directions.push_back(std::move(rd));
  }
  for (const auto& s : m.intervals.samples()) out.interval_iops.push_back(s.total_iops());
  return out;
}

}  // namespace

void begin_run(Model& m, const std::string& suite, const std::vector<std::string>& paths) {
  m.run.clear();
  m.log.clear();
  for (const auto& p : paths) {
    RunDeviceView v;
    v.path = p;
    m.run.push_back(std::move(v));
  }
  m.run_suite = suite;
  m.running = true;
  m.abort_requested = false;
  m.results.reset();
  m.screen = ScreenId::run;
  m.status.clear();
}

void apply_event(Model& m, const RunEvent& e) { std::visit(Apply{m}, e); }

Results results_of(const RunResult& r, std::string report_path, std::string report_error) {
  Results out;
  out.overall = r.verdict;
  out.aborted = r.aborted;
  out.abort_reason = r.abort_reason;
  out.exit_code = report_error.empty() ? r.exit_code() : 3;
  out.report_path = std::move(report_path);
  out.report_error = std::move(report_error);
  for (const auto& d : r.devices) {
    ResultDevice rd{d.device.path, d.verdict.status, d.verdict.reasons, {}};
    for (const auto& t : d.tests) {
      ResultTest rt{t.id, t.verdict.status, t.verdicts, t.verdict.reasons.empty() ? "" : t.verdict.reasons.front(), {}};
      for (const auto& w : t.workloads) rt.workloads.push_back(workload_of(w));
      rd.tests.push_back(std::move(rt));
    }
    out.devices.push_back(std::move(rd));
  }
  return out;
}

void finish_run(Model& m, Results results) {
  m.running = false;
  m.results = std::move(results);
  m.result_cursor = 0;
  m.screen = ScreenId::results;
  if (m.dialog == Dialog::abort || m.dialog == Dialog::quit) m.dialog = Dialog::none;
  if (m.quit_after_run) m.quit = true;
}

}  // namespace diskvet::tui
