// The run screen fed by queued runner events, and the results screen from a RunResult.
#include <gtest/gtest.h>

#include "tests/unit/tui/tui_fixture.hpp"
#include "tui/event_queue.hpp"
#include "tui/run_model.hpp"
#include "tui/run_session.hpp"
#include "tui/suite_catalog.hpp"

using namespace diskvet;
using namespace diskvet::tui;
using namespace tui_fixture;

namespace {

runner::SampleEvent sample(const std::string& dev, uint64_t ios) {
  runner::SampleEvent e;
  e.device = dev;
  e.sample.dur_s = 1;
  e.sample.ios = {ios, 0};
  e.sample.bytes = {ios * 4096, 0};
  e.sample.lat_sum_ns = {ios * 80000, 0};
  e.sample.lat_samples = {ios, 0};
  e.sample.lat_p99_ns = {250000, 0};
  e.sample.total_lat_p99_ns = 250000;
  return e;
}

}  // namespace

TEST(TuiEvents, RunnerCallsOnlyQueueAndTheUiThreadDrainsInOrder) {
  TuiEvents q;
  runner::RunEvents& sink = q;
  sink.on_phase(runner::PhaseEvent{"/dev/loop7", runner::Phase::measure, "latency-qd1", 0, "randread"});
  sink.on_log(runner::LogLevel::warning, "/dev/loop7", "probe: unwritten");
  auto events = q.drain();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<runner::PhaseEvent>(events[0]));
  EXPECT_TRUE(std::holds_alternative<LogMsg>(events[1]));
  EXPECT_TRUE(q.drain().empty());
}

TEST(TuiEvents, AFullQueueDropsLiveNumbersButNeverPhasesOrVerdicts) {
  TuiEvents q;
  for (size_t i = 0; i < TuiEvents::kMaxQueued + 10; ++i) q.on_progress(runner::ProgressEvent{});
  EXPECT_EQ(q.dropped(), 10u);
  q.on_device_verdict(runner::DeviceVerdictEvent{"/dev/loop7", {}});
  auto events = q.drain();
  EXPECT_EQ(events.size(), TuiEvents::kMaxQueued + 1);
  EXPECT_TRUE(std::holds_alternative<runner::DeviceVerdictEvent>(events.back()));
}

TEST(TuiRunView, ShowsPhaseProgressEtaLiveRatesSparklineAndLog) {
  Model m = model_with_devices();
  begin_run(m, "quick", {"/dev/loop7"});
  apply_event(m, runner::PhaseEvent{"/dev/loop7", runner::Phase::measure, "latency-qd1", 0, "randread 4KiB QD1 x1"});
  for (uint64_t ios : {1000u, 2000u, 4000u, 8000u}) apply_event(m, sample("/dev/loop7", ios));
  apply_event(m, runner::ProgressEvent{"/dev/loop7", runner::Phase::measure, "latency-qd1", 0.5, 1.0, 2.0, ""});
  std::string out = render_text(m);
  EXPECT_NE(out.find("measure latency-qd1"), std::string::npos) << out;
  EXPECT_NE(out.find("randread 4KiB QD1 x1"), std::string::npos) << out;
  EXPECT_NE(out.find("50%"), std::string::npos) << out;
  EXPECT_NE(out.find("ETA 2s"), std::string::npos) << out;
  EXPECT_NE(out.find("IOPS     8.0k"), std::string::npos) << out;
  EXPECT_NE(out.find("32.8 MB/s"), std::string::npos) << out;
  EXPECT_NE(out.find("p99  250.0us"), std::string::npos) << out;
  EXPECT_NE(out.find("mean   80.0us"), std::string::npos) << out;
  EXPECT_NE(out.find(".:=#"), std::string::npos) << "the sparkline doubles each interval:\n" << out;
  EXPECT_NE(out.find("/dev/loop7: measure latency-qd1: randread 4KiB QD1 x1"), std::string::npos) << "log pane:\n" << out;
}

TEST(TuiRunView, P99IsTheLastIntervalsOfBothDirectionsAndDashesBeforeAnyIo) {
  Model m = model_with_devices();
  begin_run(m, "quick", {"/dev/loop7"});
  EXPECT_NE(render_text(m).find("p99       --"), std::string::npos) << render_text(m);
  runner::SampleEvent e = sample("/dev/loop7", 1000);
  e.sample.ios = {700, 300};
  e.sample.lat_p99_ns = {90000, 1500000};
  e.sample.total_lat_p99_ns = 1200000;
  apply_event(m, e);
  EXPECT_DOUBLE_EQ(m.run[0].lat_p99_us, 1200.0);
  EXPECT_NE(render_text(m).find("p99   1.20ms"), std::string::npos) << render_text(m);
}

TEST(TuiRunView, TheSparklineKeepsABoundedHistory) {
  Model m = model_with_devices();
  begin_run(m, "quick", {"/dev/loop7"});
  for (size_t i = 0; i < kHistory * 3; ++i) apply_event(m, sample("/dev/loop7", i));
  EXPECT_EQ(m.run[0].iops_history.size(), kHistory);
  EXPECT_EQ(m.run[0].iops_history.back(), static_cast<double>(kHistory * 3 - 1));
}

TEST(TuiRunView, TheLogPaneKeepsTheNewestLines) {
  Model m = model_with_devices();
  begin_run(m, "quick", {"/dev/loop7"});
  for (size_t i = 0; i < kLogLines + 50; ++i) apply_event(m, LogMsg{runner::LogLevel::info, "/dev/loop7", "line " + std::to_string(i)});
  EXPECT_EQ(m.log.size(), kLogLines);
  std::string out = render_text(m);
  EXPECT_NE(out.find("line " + std::to_string(kLogLines + 49)), std::string::npos) << out;
}

TEST(TuiResultsView, ShowsTheRunVerdictWhereTheReportIsAndEachMetricAgainstItsLimit) {
  runner::RunResult r;
  r.verdict = runner::VerdictStatus::fail;
  runner::DeviceResult d;
  d.device.path = "/dev/loop7";
  d.verdict.status = runner::VerdictStatus::fail;
  d.verdict.reasons = {"max-iops read.iops below the limit"};
  runner::TestRecord t;
  t.id = "max-iops";
  t.verdict.status = runner::VerdictStatus::fail;
  runner::MetricVerdict v;
  v.test_id = "max-iops";
  v.metric = "read.iops";
  v.limit = runner::Limit{runner::Limit::Bound::min, 1e6, 0};
  v.measured = 52000;
  v.margin_pct = -94.8;
  v.status = runner::VerdictStatus::fail;
  t.verdicts.push_back(v);
  d.tests.push_back(t);
  r.devices.push_back(d);
  Model m = model_with_devices();
  begin_run(m, "quick", {"/dev/loop7"});
  finish_run(m, results_of(r, "/tmp/report.json", ""));
  EXPECT_EQ(m.screen, ScreenId::results);
  EXPECT_FALSE(m.running);
  std::string out = render_text(m);
  EXPECT_NE(out.find("VERDICT: FAIL  exit code 1"), std::string::npos) << out;
  EXPECT_NE(out.find("Report saved: /tmp/report.json"), std::string::npos) << out;
  // Numbers as the report prints them: units, no exponent, the margin in words.
  EXPECT_NE(line_with(out, " vs ").find("read.iops           52.0k IOPS vs >= 1.00M IOPS  FAIL 95% short"), std::string::npos) << out;
}

TEST(TuiResultsView, AReportThatCouldNotBeSavedSaysSoAndExitsThree) {
  runner::RunResult r;
  r.verdict = runner::VerdictStatus::pass;
  Results res = results_of(r, "/nonexistent/r.json", "/nonexistent/r.json: cannot create");
  EXPECT_EQ(res.exit_code, 3);
  Model m = model_with_devices();
  finish_run(m, res);
  EXPECT_NE(render_text(m).find("Report NOT saved: /nonexistent/r.json: cannot create"), std::string::npos);
}

TEST(TuiResultsView, QuittingDuringARunQuitsOnceTheRunHasFinished) {
  Model m = model_with_devices();
  begin_run(m, "quick", {"/dev/loop7"});
  handle_key(m, Key::of('q'));
  handle_key(m, Key::of('y'));
  EXPECT_FALSE(m.quit) << "not before the partial report is written";
  finish_run(m, results_of(runner::RunResult{}, "r.json", ""));
  EXPECT_TRUE(m.quit);
}

TEST(TuiSuiteCatalog, ShippedSuitesWriteAndTheirEstimateFollowsTheDurationOverride) {
  auto quick = suites::builtin_suite("quick");
  ASSERT_TRUE(quick.ok());
  EXPECT_TRUE(suites::suite_writes(*quick));
  double normal = estimate_s(*quick, std::nullopt);
  double short_windows = estimate_s(*quick, 0.5);
  EXPECT_GT(normal, short_windows);
  EXPECT_GT(short_windows, 0);
  auto all = shipped_suites(std::nullopt);
  ASSERT_TRUE(all.ok());
  // burn-in is a real suite now: offered, runnable, and a write test that needs consent.
  bool has_burnin = false;
  for (const auto& s : *all)
    if (s.name == "burnin") has_burnin = !s.placeholder && s.writes;
  EXPECT_TRUE(has_burnin);
}

TEST(TuiResultDetailView, ShowsEachWorkloadsPercentileTableAndItsIntervalPlot) {
  runner::RunResult r;
  r.verdict = runner::VerdictStatus::pass;
  runner::DeviceResult d;
  d.device.path = "/dev/loop7";
  d.verdict.status = runner::VerdictStatus::pass;
  runner::TestRecord t;
  t.id = "latency-qd1";
  t.verdict.status = runner::VerdictStatus::pass;
  runner::WorkloadRecord w;
  w.workload.rw = runner::Pattern::randread;
  w.workload.bs_bytes = 4096;
  w.ran = true;
  w.result.elapsed_s = 2;
  auto& rd = w.result.dir[0];
  for (uint64_t i = 1; i <= 1000; ++i) rd.lat.record(i * 1000);  // 1 us .. 1 ms
  rd.ios = 1000;
  rd.bytes = 1000 * 4096;
  for (uint64_t ios : {100u, 400u, 500u}) {
    runner::IntervalSample s;
    s.dur_s = 1;
    s.ios = {ios, 0};
    w.result.intervals.push(s);
  }
  t.workloads.push_back(w);
  d.tests.push_back(t);
  r.devices.push_back(d);

  Model m = model_with_devices();
  finish_run(m, results_of(r, "r.json", ""));
  handle_key(m, Key{Key::enter});
  ASSERT_EQ(m.screen, ScreenId::result_detail);
  std::string out = render_text(m);
  EXPECT_NE(out.find("/dev/loop7  test latency-qd1 (1 of 1)  PASS"), std::string::npos) << out;
  EXPECT_NE(out.find("randread 4KiB QD1 x1"), std::string::npos) << out;
  EXPECT_NE(out.find("p50       p90       p99     p99.9    p99.99"), std::string::npos) << out;
  std::string row = line_with(out, "  read ");
  EXPECT_NE(row.find("500"), std::string::npos) << "IOPS over the window:\n" << out;
  EXPECT_NE(row.find("  2.0 "), std::string::npos) << "4 MB in 2 s:\n" << out;
  EXPECT_NE(row.find(" 50"), std::string::npos) << "p50 of 1..1000 us is about 500 us:\n" << row;
  EXPECT_NE(out.find("IOPS per interval, top 500"), std::string::npos) << out;
  auto rows = lines(out);
  size_t plot_row = 0;
  for (size_t i = 0; i < rows.size(); ++i)
    if (rows[i].find("IOPS per interval") != std::string::npos) plot_row = i;
  ASSERT_GT(plot_row, 0u);
  // Three rows of bars: the first interval (100 of 500) reaches only the bottom row.
  EXPECT_EQ(rows[plot_row + 1].find('#'), rows[plot_row + 1].find_first_not_of(' '));
  EXPECT_GT(rows[plot_row + 1].find_first_of('#'), 2u) << "the first column is too low for the top row";
  EXPECT_EQ(rows[plot_row + 3].find_first_of('#'), 2u) << "the bottom row has every interval";
  handle_key(m, Key{Key::escape});
  EXPECT_EQ(m.screen, ScreenId::results);
}

namespace {
ConfirmedDevice confirmed_as(const devices::Device& d) { return ConfirmedDevice{d.path, d.serial, d.wwn, d.nvme_nsid}; }
}  // namespace

TEST(TuiRunSession, ARunAcceptsTheDeviceThatWasConfirmed) {
  EXPECT_TRUE(check_still_confirmed(nvme_disk(), confirmed_as(nvme_disk())));
  EXPECT_TRUE(check_still_confirmed(loop_disk(), confirmed_as(loop_disk()))) << "serial-less, confirmed with YES";
  EXPECT_TRUE(check_still_confirmed(nvme_namespace(2), confirmed_as(nvme_namespace(2))));
}

TEST(TuiRunSession, ARunRefusesADeviceWhoseSerialDisappeared) {
  devices::Device now = nvme_disk();
  now.serial.clear();
  auto s = check_still_confirmed(now, confirmed_as(nvme_disk()));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::safety);
  EXPECT_NE(s.error().what.find("no longer reports a serial"), std::string::npos) << s.error().what;
}

TEST(TuiRunSession, ARunRefusesADeviceWhoseSerialChangedEvenToASuffixOrPrefix) {
  for (const char* serial : {"S4EWNX0R999999", "123456", "6", "Samsung_SSD_980_PRO_1TB_S4EWNX0R123456", "S4EWNX0R12345"}) {
    devices::Device now = nvme_disk();
    now.serial = serial;
    EXPECT_FALSE(check_still_confirmed(now, confirmed_as(nvme_disk()))) << serial;
  }
  EXPECT_FALSE(check_still_confirmed(nvme_disk(), confirmed_as(loop_disk()))) << "confirmed with YES as serial-less, it now has a serial";
}

TEST(TuiRunSession, ARunRefusesAnotherNamespaceOfTheConfirmedController) {
  EXPECT_FALSE(check_still_confirmed(nvme_namespace(1), confirmed_as(nvme_namespace(2)))) << "same serial, namespace 1 now at that path";
  devices::Device other_wwn = nvme_namespace(2);
  other_wwn.wwn = "eui.00000000000000ff";
  EXPECT_FALSE(check_still_confirmed(other_wwn, confirmed_as(nvme_namespace(2)))) << "namespace 2 deleted and created again";
}
