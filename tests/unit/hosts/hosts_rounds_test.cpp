// Steady-state rounds across hosts, decided on merged numbers: rounds end when the merged series is
// steady or at the round limit; a required steady state not attained leaves the result unjudged
// (never PASS); the report carries the local runner's fields and renders rounds and steadiness.
#include <gtest/gtest.h>

#include "runner/hosts/hosts_report_render.hpp"
#include "runner/hosts/hosts_rounds.hpp"
#include "runner/hosts/hosts_verdicts.hpp"
#include "suites/profile.hpp"

namespace diskvet::runner {
namespace {

namespace json = boost::json;

// A workload as run_workload gives it: merged total IOPS and mean latency (ns), all reads; its JSON
// written from the typed numbers, as the controller writes it.
HostsWorkloadResult round_of(double iops, double lat_mean_ns = 1000) {
  HostsMerge m;
  m.dir[0].iops = iops;
  m.dir[0].total_ios = 100;
  m.dir[0].lat_count = 100;
  m.dir[0].lat_mean_ns = lat_mean_ns;
  HostsWorkloadResult w;
  w.doc = json::object{{"rw", "randread"}, {"bs_bytes", 4096}, {"iodepth", 32}, {"numjobs", 1}, {"merged", merged_json(m)}};
  w.merged = m;
  return w;
}

// A round that did not run: an error and no merged numbers.
HostsWorkloadResult failed_round(const std::string& why) {
  HostsWorkloadResult w;
  w.fail(why);
  return w;
}

SteadyCriteria criteria(size_t window, size_t max_rounds, double pct = 20) {
  SteadyCriteria c;
  c.window_rounds = window;
  c.max_rounds = max_rounds;
  c.max_excursion_pct = pct;
  c.max_slope_pct = pct;
  return c;
}

TEST(HostsRounds, RoundsEndOnceTheMergedSeriesIsSteady) {
  HostsRounds r(criteria(2, 5), true, false);
  EXPECT_TRUE(r.add_round(round_of(50000))) << "one round is no window";
  EXPECT_TRUE(r.add_round(round_of(100000))) << "50k then 100k: not steady";
  EXPECT_FALSE(r.add_round(round_of(101000))) << "100k, 101k: steady, no more rounds";
  EXPECT_TRUE(r.attained());
  EXPECT_EQ(r.rounds(), 3u);
  EXPECT_EQ(r.not_judged_reason(), "");
  const json::object j = r.json();
  EXPECT_TRUE(j.at("attained").as_bool());
  EXPECT_TRUE(j.at("required").as_bool());
  EXPECT_EQ(j.at("rounds_used").to_number<size_t>(), 3u);
  ASSERT_EQ(j.at("rounds").as_array().size(), 3u);
  EXPECT_DOUBLE_EQ(j.at("rounds").as_array()[2].at("iops").to_number<double>(), 101000);
  EXPECT_DOUBLE_EQ(j.at("rounds").as_array()[2].at("tracked").to_number<double>(), 101000);
  EXPECT_EQ(j.at("criteria").at("max_rounds").to_number<size_t>(), 5u);
  EXPECT_EQ(j.at("window").at("first_round").to_number<size_t>(), 1u);
  EXPECT_EQ(j.at("tracks").as_string(), "merged IOPS");
}

TEST(HostsRounds, TheRoundLimitEndsAnUnsteadySeriesNotSteadyAndNotJudged) {
  HostsRounds r(criteria(2, 3), true, false);
  EXPECT_TRUE(r.add_round(round_of(100000)));
  EXPECT_TRUE(r.add_round(round_of(200000)));
  EXPECT_FALSE(r.add_round(round_of(400000))) << "the third round is the limit";
  EXPECT_FALSE(r.attained());
  EXPECT_EQ(r.not_judged_reason(), "steady state was not attained in 3 rounds");
  const json::object j = r.json("randread 4 KiB QD32 x1");
  EXPECT_FALSE(j.at("attained").as_bool());
  EXPECT_EQ(j.at("workload").as_string(), "randread 4 KiB QD32 x1");
  EXPECT_NE(json::serialize(j.at("note")).find("no verdict"), std::string::npos);
}

TEST(HostsRounds, NotRequiredLeavesTheResultJudgedButSaysNotSteady) {
  HostsRounds r(criteria(2, 2), false, false);
  r.add_round(round_of(1000));
  EXPECT_FALSE(r.add_round(round_of(9000)));
  EXPECT_FALSE(r.attained());
  EXPECT_EQ(r.not_judged_reason(), "");
  EXPECT_FALSE(r.json().at("attained").as_bool());
}

TEST(HostsRounds, ARoundWithoutMergedNumbersEndsTheRoundsNotSteady) {
  HostsRounds r(criteria(2, 10), true, false);
  EXPECT_TRUE(r.add_round(round_of(1000)));
  EXPECT_FALSE(r.add_round(failed_round("fio's client ran past 60 s")));
  EXPECT_FALSE(r.attained());
  EXPECT_NE(r.not_judged_reason().find("round 2 gave no merged numbers"), std::string::npos);
  // Even with numbers beside the error: the round does not count as measured.
  HostsRounds e(criteria(2, 10), true, false);
  e.add_round(round_of(1000));
  HostsWorkloadResult both = round_of(1000);
  both.fail("no result from fio");
  EXPECT_FALSE(e.add_round(both));
  EXPECT_FALSE(e.attained());
}

TEST(HostsRounds, LatencyTestsTrackTheMergedMeanLatency) {
  HostsRounds r(criteria(2, 3), true, true);
  // Steady IOPS, latency doubling every round: not steady.
  EXPECT_TRUE(r.add_round(round_of(1000, 10000)));
  EXPECT_TRUE(r.add_round(round_of(1000, 20000)));
  EXPECT_FALSE(r.add_round(round_of(1000, 40000)));
  EXPECT_FALSE(r.attained());
  const json::object j = r.json();
  EXPECT_DOUBLE_EQ(j.at("rounds").as_array()[1].at("tracked").to_number<double>(), 20) << "µs";
  EXPECT_DOUBLE_EQ(j.at("rounds").as_array()[1].at("lat_mean_us").to_number<double>(), 20);
  EXPECT_EQ(j.at("tracks").as_string(), "merged mean latency (us)");
}

TEST(HostsRounds, AnUnsteadyRequiredWorkloadIsNeverPass) {
  HostsRounds r(criteria(2, 2), true, false);
  r.add_round(round_of(1000));
  r.add_round(round_of(5000));
  HostsWorkloadResult w = round_of(5000);
  w.doc["steady_state"] = r.json();
  w.mark_not_judged(r.not_judged_reason());
  auto profile = suites::parse_profile(R"({"name": "floor", "description": "any", "source": "test", "limits": {"t": {"total.iops": {"min": 1}}}})", "floor.json");
  ASSERT_TRUE(profile.ok()) << profile.error().message();
  json::object test{{"id", "t"}};
  judge_hosts_test(test, "t", *profile, {w}, true);
  EXPECT_EQ(test.at("status").as_string(), "NOT-JUDGED") << json::serialize(test);
  EXPECT_EQ(test.at("verdicts").as_array()[0].at("status").as_string(), "NOT-EVALUATED");
  // The same numbers, steady: PASS.
  HostsRounds s(criteria(2, 2), true, false);
  s.add_round(round_of(5000));
  s.add_round(round_of(5000));
  HostsWorkloadResult ok = round_of(5000);
  ok.doc["steady_state"] = s.json();
  json::object passed{{"id", "t"}};
  judge_hosts_test(passed, "t", *profile, {ok}, true);
  EXPECT_EQ(passed.at("status").as_string(), "PASS") << json::serialize(passed);
}

TEST(HostsRounds, MatrixSummaryHasEveryCellsRoundsAndTheTrackedSeries) {
  suites::MatrixSpec spec;
  spec.rwmixread_pcts = {100, 0};
  spec.bs_bytes = {4096};
  spec.tracked = 1;
  HostsRounds tracked(criteria(2, 3), true, false);
  tracked.add_round(round_of(100));
  tracked.add_round(round_of(300));
  std::vector<HostsWorkloadResult> cells{round_of(1000), round_of(300)};
  const json::object m = hosts_matrix_json(spec, {100, 0}, cells, {2, 2}, tracked, 2, 1.0);
  EXPECT_EQ(m.at("rounds_run").to_number<size_t>(), 2u);
  EXPECT_FALSE(m.at("steady_state").at("attained").as_bool());
  EXPECT_TRUE(m.at("steady_state").at("required").as_bool());
  ASSERT_EQ(m.at("steady_state").at("tracked_iops").as_array().size(), 2u);
  ASSERT_EQ(m.at("cells").as_array().size(), 2u);
  EXPECT_EQ(m.at("cells").as_array()[0].at("rounds").to_number<size_t>(), 2u);
  EXPECT_DOUBLE_EQ(m.at("cells").as_array()[0].at("iops").to_number<double>(), 1000);
  EXPECT_EQ(m.at("tracked").at("rwmixread").to_number<uint32_t>(), 0u);
}

TEST(HostsRounds, TheReportRendersRoundsAndSteadinessPerWorkload) {
  HostsRounds r(criteria(2, 3), true, false);
  for (double v : {100.0, 300.0, 900.0}) r.add_round(round_of(v));
  json::object w = round_of(900).doc;
  w["steady_state"] = r.json("randread 4 KiB QD32 x1");
  w["not_judged"] = r.not_judged_reason();
  json::array steps;
  for (int qd : {1, 32}) {
    json::object s = round_of(qd * 10.0).doc;
    s["iodepth"] = qd;
    steps.push_back(s);
  }
  w["sweep"] = steps;
  json::object doc{{"kind", kHostsReportKind}, {"suite", "s"}, {"status", "COMPLETE"}, {"verdict", "NOT-EVALUATED"}, {"exit_code", 4},
                   {"hosts", json::array{}}, {"tests", json::array{json::object{{"id", "max-iops"}, {"status", "NOT-EVALUATED"}, {"workloads", json::array{w}}}}}};
  const std::string text = render_hosts_text(decode_report(doc));
  EXPECT_NE(text.find("NOT steady after 3 rounds of at most 3 (merged IOPS of randread 4 KiB QD32 x1): required, so not judged"), std::string::npos) << text;
  EXPECT_NE(text.find("sweep: QD1 x1 10, QD32 x1 320"), std::string::npos) << text;
  const std::string html = render_hosts_html(decode_report(doc), true);
  EXPECT_NE(html.find("NOT steady after 3 rounds"), std::string::npos);
  EXPECT_NE(html.find("not judged: steady state was not attained in 3 rounds"), std::string::npos);
  // Attained: said so.
  HostsRounds s(criteria(2, 3), true, false);
  s.add_round(round_of(100));
  s.add_round(round_of(100));
  json::object& sw = doc.at("tests").as_array()[0].as_object().at("workloads").as_array()[0].as_object();
  sw["steady_state"] = s.json();
  sw.erase("not_judged");
  EXPECT_NE(render_hosts_text(decode_report(doc)).find("steady state attained in 2 rounds (merged IOPS)"), std::string::npos) << render_hosts_text(decode_report(doc));
}

}  // namespace
}  // namespace diskvet::runner
