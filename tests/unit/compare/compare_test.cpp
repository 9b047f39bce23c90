// `diskvet compare` on reports made by the real run path (null engine): drives matched by serial or
// by position among the same model, a slower run found beyond the noise of the interval series, a
// verdict that stopped passing, health that got worse, and a report of the first schema.
#include "runner/compare/compare.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <tuple>

#include "runner/report/report_file.hpp"
#include "runner/report/report_plots.hpp"
#include "tests/support/null_run_report.hpp"

using namespace diskvet;
using namespace diskvet::runner;
namespace dvt = diskvet::testing;

namespace {

// max-iops passes at 5000 IOPS: an uncapped null target does, one capped at 2000 does not.
const char* kPassableProfile = R"({
  "name": "null-5k", "source": "test",
  "limits": {"max-iops": {"read.iops": {"min": 5000}}}
})";

const MetricComparison* find(const DevicePair& p, const std::string& key, const std::string& metric) {
  for (const auto& m : p.metrics)
    if (m.key == key && m.kind->name == metric) return &m;
  return nullptr;
}

ReportIndex run(const std::vector<dvt::NullDrive>& drives, const std::string& name) {
  return index_report(dvt::null_run_report(drives, dvt::kNullSuite, kPassableProfile), name);
}

}  // namespace

TEST(Compare, TheSameDrivesMatchBySerialWhateverTheirOrderAndASlowerRunRegresses) {
  // Both drives run capped at 20000 IOPS: an uncapped null target does what the CPU gives it, which
  // halved between two runs when other work took the cores, and made SN-A look regressed.
  const auto before = run({{.path = "null-a", .serial = "SN-A", .rate_cap_iops = 20000}, {.path = "null-b", .serial = "SN-B", .rate_cap_iops = 20000}},
                          "before.json");
  // After maintenance the drives come back in the other order, and SN-B is capped at 2000 IOPS.
  const auto after = run({{.path = "null-x", .serial = "SN-B", .rate_cap_iops = 2000}, {.path = "null-y", .serial = "SN-A", .rate_cap_iops = 20000}},
                         "after.json");
  CompareOptions o;
  o.max_regression_pct = 10;
  const Comparison c = compare_reports(before, after, o);
  ASSERT_EQ(c.pairs.size(), 2u);
  EXPECT_TRUE(c.unmatched.empty());
  for (const auto& p : c.pairs) {
    EXPECT_EQ(p.matched_by, "serial");
    EXPECT_EQ(p.a->serial, p.b->serial);
  }
  const DevicePair& slow = c.pairs[0].a->serial == "SN-B" ? c.pairs[0] : c.pairs[1];
  const DevicePair& same = c.pairs[0].a->serial == "SN-B" ? c.pairs[1] : c.pairs[0];
  const MetricComparison* iops = find(slow, "latency-qd1/randread#0/read", "iops");
  ASSERT_NE(iops, nullptr);
  EXPECT_LT(iops->ratio, 0.5);
  EXPECT_GT(iops->worse_pct, 50);
  ASSERT_TRUE(iops->beyond_noise.has_value()) << "the interval series give the noise";
  EXPECT_TRUE(*iops->beyond_noise);
  EXPECT_TRUE(iops->regression);
  // The capped drive failed max-iops (PASS -> FAIL); the other one did not regress at all.
  EXPECT_NE(std::find(slow.verdict_changes.begin(), slow.verdict_changes.end(), "max-iops: PASS -> FAIL"), slow.verdict_changes.end());
  for (const auto& m : same.metrics) EXPECT_FALSE(m.regression && m.kind->better == Better::higher && m.worse_pct > 50) << m.key;
  ASSERT_FALSE(c.regressions.empty());
  bool named = false;
  for (const auto& r : c.regressions) named = named || (r.find("SN-B") != std::string::npos && r.find("IOPS") != std::string::npos);
  EXPECT_TRUE(named) << c.regressions.front();
  const std::string text = compare_text({c}, o);
  EXPECT_NE(text.find("REGRESSION"), std::string::npos);
  EXPECT_NE(text.find("beyond noise"), std::string::npos);
  const std::string html = compare_html({c}, o);
  EXPECT_NE(html.find("<tr class=\"FAIL\">"), std::string::npos);
  EXPECT_NE(html.find("<b>beyond</b>"), std::string::npos);
}

TEST(Compare, WithoutAThresholdOnlyAVerdictThatStoppedPassingIsARegression) {
  const auto before = run({{.serial = "SN-A"}}, "before.json");
  const auto slower = run({{.serial = "SN-A", .rate_cap_iops = 2000}}, "after.json");
  const Comparison c = compare_reports(before, slower, CompareOptions{});
  ASSERT_EQ(c.pairs.size(), 1u);
  for (const auto& m : c.pairs[0].metrics) EXPECT_FALSE(m.regression) << "no metric gates without --max-regression-pct";
  ASSERT_EQ(c.regressions.size(), 1u);
  EXPECT_NE(c.regressions[0].find("max-iops verdict PASS -> FAIL"), std::string::npos) << c.regressions[0];
  // The other way round the IOPS did not regress: the new run is faster and passes. (Latency on the
  // null engine is the CPU's, which a busy test machine makes vary: it is not judged here.)
  EXPECT_TRUE(compare_reports(slower, before, CompareOptions{.metrics = {"iops"}, .max_regression_pct = 10}).regressions.empty());
}

TEST(Compare, TheMaxIopsSweepIsComparedStepByStepAndASlowerStepRegresses) {
  const auto before = run({{.serial = "SN-A"}}, "before.json");
  const auto slower = run({{.serial = "SN-A", .rate_cap_iops = 2000}}, "after.json");
  CompareOptions o;
  o.metrics = {"iops"};
  o.max_regression_pct = 20;
  const Comparison c = compare_reports(before, slower, o);
  ASSERT_EQ(c.pairs.size(), 1u);
  ASSERT_EQ(c.pairs[0].sweeps.size(), 1u);
  const SweepComparison& sw = c.pairs[0].sweeps[0];
  EXPECT_EQ(sw.test, "max-iops");
  ASSERT_FALSE(sw.steps.empty());
  for (const auto& st : sw.steps) {
    EXPECT_GT(st.outstanding, 0);
    EXPECT_LT(st.iops_b, st.iops_a) << "capped at 2000 IOPS, at " << st.outstanding << " outstanding";
    EXPECT_TRUE(st.regression) << st.outstanding;
  }
  // Every step both runs made is compared; a step only one made is named.
  EXPECT_EQ(sw.steps.size() + sw.only_in_a.size(), before.devices[0].find("max-iops/randread#0/read")->sweep.size());
  bool named = false;
  for (const auto& r : c.regressions) named = named || r.find("sweep at 1 outstanding: IOPS") != std::string::npos;
  EXPECT_TRUE(named) << (c.regressions.empty() ? "no regression" : c.regressions.front());
  EXPECT_NE(compare_text({c}, o).find("sweep, step by step"), std::string::npos);
  EXPECT_NE(compare_html({c}, o).find("the sweep step by step"), std::string::npos);
  // The same run against itself: every step matches and nothing regresses.
  const Comparison same = compare_reports(before, before, o);
  ASSERT_EQ(same.pairs[0].sweeps.size(), 1u);
  EXPECT_EQ(same.pairs[0].sweeps[0].steps.size(), before.devices[0].find("max-iops/randread#0/read")->sweep.size());
  EXPECT_TRUE(same.regressions.empty());
}

TEST(Compare, AGateThatComparedNothingSaysSoInsteadOfPassing) {
  const auto before = run({{.serial = "SN-A"}}, "before.json");
  CompareOptions gate;
  gate.max_regression_pct = 5;
  // A report without drives (a run that tested nothing, or not a per-drive report): nothing matches.
  ReportIndex empty;
  empty.name = "empty.json";
  const Comparison none = compare_reports(before, empty, gate);
  EXPECT_TRUE(none.pairs.empty());
  EXPECT_TRUE(none.regressions.empty());
  EXPECT_NE(none.not_compared.find("no drive of empty.json matches a drive of before.json"), std::string::npos) << none.not_compared;
  const std::string text = compare_text({none}, gate);
  EXPECT_NE(text.find("NOTHING COMPARED"), std::string::npos) << text;
  EXPECT_EQ(text.find("no regression"), std::string::npos) << text;
  EXPECT_NE(compare_html({none}, gate).find("nothing compared"), std::string::npos);
  // The drive matches, but the new run has none of the baseline's workloads: the gate judged nothing.
  ReportIndex other = before;
  other.name = "other.json";
  for (auto& d : other.devices) d.workloads.clear();
  const Comparison unmeasured = compare_reports(before, other, gate);
  ASSERT_EQ(unmeasured.pairs.size(), 1u);
  EXPECT_NE(unmeasured.not_compared.find("no workload in common"), std::string::npos) << unmeasured.not_compared;
  // Without a gate the matched drive's verdicts and health were still compared.
  EXPECT_TRUE(compare_reports(before, other, CompareOptions{}).not_compared.empty());
  EXPECT_TRUE(compare_reports(before, before, gate).not_compared.empty());
}

TEST(Compare, TwoHostsMatchByPositionAmongDrivesOfTheSameModel) {
  const auto host_a = run({{.path = "a1", .model = "M-1", .serial = "A1"}, {.path = "a2", .model = "M-2", .serial = "A2"}}, "host-a.json");
  const auto host_b = run({{.path = "b2", .model = "M-2", .serial = "B2"}, {.path = "b1", .model = "M-1", .serial = "B1"}, {.path = "b3", .model = "M-3", .serial = "B3"}},
                          "host-b.json");
  const Comparison c = compare_reports(host_a, host_b, CompareOptions{});
  ASSERT_EQ(c.pairs.size(), 2u);
  for (const auto& p : c.pairs) {
    EXPECT_EQ(p.a->model, p.b->model);
    EXPECT_EQ(p.matched_by, "position among " + p.a->model + " drives");
  }
  ASSERT_EQ(c.unmatched.size(), 1u);
  EXPECT_NE(c.unmatched[0].find("B3 only in host-b.json"), std::string::npos) << c.unmatched[0];
}

TEST(Compare, HealthThatGotWorseIsFlagged) {
  devices::Health h;
  h.known = true;
  h.media_errors = 0;
  h.percentage_used = 3;
  devices::Health worn = h;
  worn.media_errors = 12;
  const auto before = run({{.serial = "SN-A", .health_before = h, .health_after = h}}, "before.json");
  const auto after = run({{.serial = "SN-A", .health_before = worn, .health_after = worn}}, "after.json");
  const Comparison c = compare_reports(before, after, CompareOptions{});
  ASSERT_EQ(c.pairs.size(), 1u);
  bool media = false, used = false;
  for (const auto& hc : c.pairs[0].health) {
    if (hc.counter == "media_errors") media = hc.worse && hc.a == 0 && hc.b == 12;
    if (hc.counter == "percentage_used") used = !hc.worse;
  }
  EXPECT_TRUE(media);
  EXPECT_TRUE(used);
  EXPECT_NE(compare_text({c}, CompareOptions{}).find("health media_errors: 0 -> 12  WORSE"), std::string::npos);
}

TEST(Compare, AReportOfTheFirstSchemaComparesWithANewOne) {
  auto old = load_report(DISKVET_TEST_DATA "/report-schema1-quick.json");
  ASSERT_TRUE(old.ok()) << old.error().message();
  const ReportIndex a = index_report(old->doc, "old.json");
  EXPECT_EQ(a.schema, 1);
  ASSERT_EQ(a.devices.size(), 2u);
  const auto* w = a.devices[0].find("max-iops/randread#0/read");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->sweep.size(), 4u);
  EXPECT_TRUE(w->metrics.at("iops").noise_pct.has_value());
  // Against itself: every metric pairs, nothing changes, nothing regresses.
  const Comparison c = compare_reports(a, a, CompareOptions{.max_regression_pct = 0});
  ASSERT_EQ(c.pairs.size(), 2u);
  EXPECT_GT(c.pairs[0].metrics.size(), 20u);
  for (const auto& m : c.pairs[0].metrics) EXPECT_DOUBLE_EQ(m.ratio, 1.0) << m.key;
  EXPECT_TRUE(c.regressions.empty());
}

TEST(Compare, TwoSweepsAreComparedAtTheDeepestQueueBothRanNotKneeAgainstKnee) {
  // The baseline's knee was at 32 outstanding, the new run's at 8: its headline numbers differ by the
  // queue depth (p99 -98%), not by the drive, which is just as fast at every depth both ran.
  auto report = [](const std::string& name, std::vector<SweepStep> sweep, double knee_iops, double knee_p99_ns) {
    WorkloadDirection w;
    w.key = "max-iops/randread#0/read";
    w.test = "max-iops";
    // The knee's label, as a real report has it.
    w.label = fmt::format("randread 4KiB QD{}x1", sweep.back().outstanding);
    w.direction = "read";
    w.metrics["iops"] = {knee_iops, {}};
    w.metrics["lat_p99"] = {knee_p99_ns, {}};
    w.sweep = std::move(sweep);
    DeviceIndex d;
    d.serial = "SN-A";
    d.verdict = "PASS";
    d.workloads.push_back(w);
    ReportIndex r;
    r.name = name;
    r.devices.push_back(d);
    return r;
  };
  const ReportIndex a = report("a.json", {{1, 10000, 90, 100}, {8, 60000, 120, 200}, {32, 90000, 330, 5000}}, 90000, 5000e3);
  const ReportIndex b = report("b.json", {{1, 10000, 90, 100}, {8, 60000, 120, 200}}, 60000, 200e3);
  CompareOptions o;
  o.max_regression_pct = 10;
  const Comparison c = compare_reports(a, b, o);
  ASSERT_EQ(c.pairs.size(), 1u);
  const MetricComparison* iops = find(c.pairs[0], "max-iops/randread#0/read", "iops");
  const MetricComparison* p99 = find(c.pairs[0], "max-iops/randread#0/read", "lat_p99");
  ASSERT_NE(iops, nullptr);
  ASSERT_NE(p99, nullptr);
  EXPECT_EQ(iops->a, 60000);
  EXPECT_EQ(iops->b, 60000);
  EXPECT_EQ(p99->a, 200e3);
  EXPECT_EQ(p99->b, 200e3);
  EXPECT_EQ(iops->label_a, "randread 4KiB at 8 outstanding") << "the step's count, not the knee's QD32x1";
  EXPECT_EQ(iops->label_b, iops->label_a);
  EXPECT_TRUE(iops->sweep_step);
  EXPECT_EQ(noise_words(*iops), "noise: one sample");
  EXPECT_TRUE(c.regressions.empty()) << c.regressions.front();
  EXPECT_NE(compare_text({c}, o).find("max-iops randread 4KiB at 8 outstanding read"), std::string::npos) << compare_text({c}, o);
  // The step only the baseline made is named in the step-by-step table.
  ASSERT_EQ(c.pairs[0].sweeps.size(), 1u);
  EXPECT_EQ(c.pairs[0].sweeps[0].only_in_a, std::vector<double>{32});
  // No step in common: no headline row compares the two knees.
  const ReportIndex deep = report("deep.json", {{16, 80000, 200, 3000}}, 80000, 3000e3);
  const Comparison none = compare_reports(a, deep, o);
  EXPECT_EQ(find(none.pairs[0], "max-iops/randread#0/read", "iops"), nullptr);
}

TEST(Compare, TheTwoRunsAreDrawnOverEachOtherPercentilesAndIopsSeriesAndTheSweepAsOneCurveEach) {
  const auto before = run({{.serial = "SN-A"}}, "before.json");
  const auto slower = run({{.serial = "SN-A", .rate_cap_iops = 2000}}, "after.json");
  const Comparison c = compare_reports(before, slower, CompareOptions{});
  ASSERT_EQ(c.pairs.size(), 1u);
  const std::vector<Plot> plots = compare_plots(c.pairs[0]);
  auto find_plot = [&](const std::string& kind, const std::string& title_part) -> const Plot* {
    for (const auto& p : plots)
      if (p.kind == kind && p.title.find(title_part) != std::string::npos) return &p;
    return nullptr;
  };
  const WorkloadDirection& qd1_a = *before.devices[0].find("latency-qd1/randread#0/read");
  const WorkloadDirection& qd1_b = *slower.devices[0].find("latency-qd1/randread#0/read");
  ASSERT_FALSE(qd1_a.percentiles_ns.empty());
  ASSERT_FALSE(qd1_a.iops_series.empty()) << "the report's interval series";
  // Latency by percentile: each run's percentiles as the report lists them, on the nines axis.
  const Plot* pct = find_plot("compare-percentiles", "latency-qd1");
  ASSERT_NE(pct, nullptr);
  ASSERT_EQ(pct->series.size(), 2u);
  EXPECT_EQ(pct->series[0].label, "baseline");
  EXPECT_TRUE(pct->series[0].dashed);
  EXPECT_EQ(pct->series[1].label, "new");
  ASSERT_EQ(pct->series[0].points.size(), qd1_a.percentiles_ns.size());
  ASSERT_EQ(pct->series[1].points.size(), qd1_b.percentiles_ns.size());
  for (size_t i = 0; i < qd1_a.percentiles_ns.size(); ++i) {
    EXPECT_DOUBLE_EQ(pct->series[0].points[i].first, nines(qd1_a.percentiles_ns[i].first));
    EXPECT_DOUBLE_EQ(pct->series[0].points[i].second, qd1_a.percentiles_ns[i].second);
  }
  // IOPS over time: each run's interval series as its report holds it. (How close each interval of
  // the capped run sits to its cap is the machine's business: a job starved for a while catches up
  // on its tokens, as fio's rate does; the rate itself is tested on a fake clock, rate_limit_test.)
  const Plot* iops = find_plot("compare-iops", "latency-qd1");
  ASSERT_NE(iops, nullptr);
  ASSERT_EQ(iops->series.size(), 2u);
  EXPECT_EQ(iops->series[0].points, qd1_a.iops_series);
  EXPECT_EQ(iops->series[1].points, qd1_b.iops_series);
  EXPECT_NE(iops->series[0].points, iops->series[1].points) << "the baseline's series and the new run's, not one twice";
  // The sweep: p99 against IOPS, one curve per run with each step's outstanding count, no knee pair.
  const Plot* sweep = find_plot("compare-sweep", "max-iops");
  ASSERT_NE(sweep, nullptr);
  EXPECT_EQ(find_plot("compare-percentiles", "max-iops"), nullptr) << "two knees' percentiles compare queue depths";
  const WorkloadDirection& sw_a = *before.devices[0].find("max-iops/randread#0/read");
  ASSERT_EQ(sweep->series.size(), 2u);
  ASSERT_EQ(sweep->series[0].points.size(), sw_a.sweep.size());
  for (size_t i = 0; i < sw_a.sweep.size(); ++i) {
    EXPECT_EQ(sweep->series[0].points[i], std::make_pair(sw_a.sweep[i].iops, sw_a.sweep[i].lat_p99_us * 1e3));
    EXPECT_EQ(sweep->series[0].point_labels[i], fmt::format("{}", sw_a.sweep[i].outstanding));
  }
  // On the page, inside the device's section.
  const std::string html = compare_html({c}, CompareOptions{});
  EXPECT_NE(html.find("data-plot=\"compare-percentiles\""), std::string::npos);
  EXPECT_NE(html.find("data-plot=\"compare-iops\""), std::string::npos);
  EXPECT_NE(html.find("data-plot=\"compare-sweep\""), std::string::npos);
}

TEST(Compare, ARunWithoutSeriesDrawsOnlyTheOtherAndNothingWhenNeitherHasAny) {
  auto report = [](std::vector<std::pair<double, double>> pct) {
    WorkloadDirection w;
    w.key = "latency-qd1/randread#0/read";
    w.test = "latency-qd1";
    w.label = "randread 4KiB";
    w.direction = "read";
    w.percentiles_ns = std::move(pct);
    DeviceIndex d;
    d.serial = "SN-A";
    d.workloads.push_back(w);
    ReportIndex r;
    r.devices.push_back(d);
    return r;
  };
  const ReportIndex with = report({{50, 80e3}, {99, 120e3}}), without = report({});
  const Comparison c = compare_reports(without, with, CompareOptions{});
  const auto plots = compare_plots(c.pairs.at(0));
  ASSERT_EQ(plots.size(), 1u) << "no IOPS series in either: no empty IOPS plot";
  ASSERT_EQ(plots[0].series.size(), 1u);
  EXPECT_EQ(plots[0].series[0].label, "new");
  EXPECT_TRUE(compare_plots(compare_reports(without, without, CompareOptions{}).pairs.at(0)).empty());
}

TEST(Compare, ANoiseCellSaysWhyThereIsNoNoiseAndALabelLosesOnlyItsQueueDepth) {
  MetricComparison m;
  EXPECT_EQ(noise_words(m), "noise: no series") << "p50 and p99.99 have no interval series";
  m.sweep_step = true;
  EXPECT_EQ(noise_words(m), "noise: one sample");
  m.noise_pct = 3.4;
  m.beyond_noise = false;
  EXPECT_EQ(noise_words(m), "within noise ±3.4%");
  EXPECT_EQ(without_queue_depth("randread 4KiB QD32x2"), "randread 4KiB");
  EXPECT_EQ(without_queue_depth("randrw 8KiB QD16x1 70% read"), "randrw 8KiB 70% read");
  EXPECT_EQ(without_queue_depth("read 64KiB"), "read 64KiB");
}

namespace {

// A null-engine report of drive SN-A carrying the health evidence a real drive's run records: the
// write accounting's result and the error log's new entries, `failing` of them failing.
ReportIndex with_evidence(const std::string& name, const char* writes, size_t failing) {
  boost::json::object doc = dvt::null_run_report({{.serial = "SN-A"}}, dvt::kNullSuite, kPassableProfile);
  auto& health = doc["devices"].as_array().at(0).as_object()["health"].as_object();
  const bool writes_fail = std::string(writes) != "agrees";
  health["write_accounting"] = {{"result", writes}, {"fails", writes_fail}, {"words", writes_fail ? "counted 1GiB written for 4GiB sent" : "agrees"}};
  boost::json::array entries, problems;
  for (size_t i = 0; i < 3; ++i) entries.push_back(boost::json::object{{"fails", i < failing}});
  if (failing) problems.push_back("Unrecovered Read Error at LBA 4096");
  health["error_log"] = {{"new_entries", 3}, {"entries", entries}, {"problems", problems}};
  return index_report(doc, name);
}

}  // namespace

TEST(Compare, HealthEvidenceOfBothRunsIsShownAndAFreshFailureIsWorse) {
  const ReportIndex clean = with_evidence("before.json", "agrees", 0), bad = with_evidence("after.json", "counted_less", 2);
  EXPECT_EQ(clean.devices[0].evidence.writes, "agrees");
  EXPECT_EQ(bad.devices[0].evidence.error_log_failing, 2u);
  ASSERT_EQ(bad.devices[0].evidence.problems.size(), 2u);
  EXPECT_EQ(bad.devices[0].evidence.problems[0], "writes: counted 1GiB written for 4GiB sent");
  const Comparison c = compare_reports(clean, bad, CompareOptions{});
  ASSERT_EQ(c.pairs.size(), 1u);
  const auto& ev = c.pairs[0].evidence;
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].check, "writes counted");
  EXPECT_EQ(ev[0].a, "agrees");
  EXPECT_EQ(ev[0].b, "counted_less");
  EXPECT_TRUE(ev[0].worse);
  EXPECT_EQ(ev[1].a, "0 of 3 new entries fail");
  EXPECT_EQ(ev[1].b, "2 of 3 new entries fail");
  EXPECT_TRUE(ev[1].worse);
  EXPECT_NE(compare_text({c}, CompareOptions{}).find("health evidence, writes counted: agrees -> counted_less  WORSE"), std::string::npos);
  EXPECT_NE(compare_html({c}, CompareOptions{}).find("<td>error log</td><td>0 of 3 new entries fail</td><td>2 of 3 new entries fail</td>"), std::string::npos);
  // The other way round nothing got worse; a report without the checks shows none.
  const Comparison back = compare_reports(bad, clean, CompareOptions{});
  for (const auto& e : back.pairs[0].evidence) EXPECT_FALSE(e.worse) << e.check;
  const auto plain = run({{.serial = "SN-A"}}, "plain.json");
  EXPECT_FALSE(plain.devices[0].evidence.writes.has_value());
  EXPECT_TRUE(compare_reports(plain, plain, CompareOptions{}).pairs[0].evidence.empty());
}

TEST(Compare, SmartCountersAndSelfTestsOfBothRunsAreShownAndANewFailureIsWorse) {
  auto report = [](const std::string& name, size_t grown, const char* after_test) {
    boost::json::object doc = dvt::null_run_report({{.serial = "SN-A"}}, dvt::kNullSuite, kPassableProfile);
    auto& dev = doc["devices"].as_array().at(0).as_object();
    boost::json::array findings, problems;
    for (size_t i = 0; i < grown; ++i) findings.push_back(boost::json::object{{"key", "ata_5"}});
    if (grown) problems.push_back("ATA attribute 5 Reallocated_Sector_Ct grew from 0 to 8 during the run");
    dev["health"].as_object()["smart_counters"] = {{"compared", 6}, {"findings", findings}, {"problems", problems}, {"inconclusive", boost::json::array{}}};
    dev["self_test"] = {{"before", {{"type", "short"}, {"result", "passed"}, {"words", "Completed without error"}}},
                        {"after", {{"type", "extended"}, {"result", after_test}, {"words", "Completed: read failure"}}}};
    return index_report(doc, name);
  };
  const ReportIndex clean = report("a.json", 0, "passed"), bad = report("b.json", 1, "failed");
  EXPECT_EQ(bad.devices[0].evidence.smart_counters_compared, 6u);
  EXPECT_EQ(bad.devices[0].evidence.self_test_after, "failed");
  ASSERT_EQ(bad.devices[0].evidence.problems.size(), 2u);
  EXPECT_EQ(bad.devices[0].evidence.problems[1], "self-test after (extended): failed: Completed: read failure");
  const auto ev = compare_reports(clean, bad, CompareOptions{}).pairs.at(0).evidence;
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev[0].check, "SMART counters");
  EXPECT_EQ(ev[0].a, "0 of 6 grew");
  EXPECT_EQ(ev[0].b, "1 of 6 grew");
  EXPECT_TRUE(ev[0].worse);
  EXPECT_EQ(ev[1].check, "self-test before");
  EXPECT_FALSE(ev[1].worse);
  EXPECT_EQ(ev[2].check, "self-test after");
  EXPECT_EQ(ev[2].b, "failed");
  EXPECT_TRUE(ev[2].worse);
  // A drive without self-tests ("not-supported") is never worse for it.
  EXPECT_FALSE(compare_reports(clean, report("c.json", 0, "not-supported"), CompareOptions{}).pairs.at(0).evidence.at(2).worse);
}

TEST(Compare, SataSasLogsAndWriteAmplificationOfBothRunsAreShownOnlyANewLogFailureIsWorse) {
  auto report = [](const std::string& name, bool failing, double factor) {
    boost::json::object doc = dvt::null_run_report({{.serial = "SN-A"}}, dvt::kNullSuite, kPassableProfile);
    auto& health = doc["devices"].as_array().at(0).as_object()["health"].as_object();
    boost::json::array problems;
    if (failing) problems.push_back("ATA self-test log: Short offline: Completed: read failure (status 7h)");
    health["sata_sas_logs"] = {{"new_errors", 0}, {"unseen", 0}, {"findings", boost::json::array{boost::json::object{{"fails", failing}}}},
                               {"problems", problems}};
    health["write_amplification"] = {{"available", true}, {"factor", factor}, {"words", "..."}};
    return index_report(doc, name);
  };
  const ReportIndex clean = report("a.json", false, 1.1), bad = report("b.json", true, 3.9);
  EXPECT_EQ(bad.devices[0].evidence.sata_sas_log_failing, 1u);
  ASSERT_EQ(bad.devices[0].evidence.problems.size(), 1u);
  EXPECT_EQ(bad.devices[0].evidence.problems[0], "SATA/SAS log: ATA self-test log: Short offline: Completed: read failure (status 7h)");
  const Comparison c = compare_reports(clean, bad, CompareOptions{});
  // Each check as (check, baseline, new run, WORSE); write amplification is evidence, never WORSE.
  auto row = [](const EvidenceChange& e) { return std::tuple{e.check, e.a, e.b, e.worse}; };
  const auto& ev = c.pairs.at(0).evidence;
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(row(ev[0]), std::tuple("SATA/SAS logs", "0 of 1 new entries fail", "1 of 1 new entries fail", true));
  EXPECT_EQ(row(ev[1]), std::tuple("write amplification", "1.10", "3.90", false));
  EXPECT_NE(compare_text({c}, CompareOptions{}).find("health evidence, write amplification: 1.10 -> 3.90\n"), std::string::npos);
}
