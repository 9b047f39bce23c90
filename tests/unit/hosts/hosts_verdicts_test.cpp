// Verdicts across hosts are made from the typed merged numbers a workload keeps beside its report
// JSON, never read back from that JSON: the typed metric is what the report says (the total, the
// bandwidth, the p99's bin upper edge), a report JSON that says otherwise changes nothing, and the
// rules stay the same (a direction without I/O is not measured; the total comes from the workload
// that measured both directions).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "runner/hosts/hosts_verdicts.hpp"

namespace diskvet::runner {
namespace {

namespace json = boost::json;

// The 3-host capture of tests/unit/data/hosts, merged (random reads only).
HostsMerge fixture_merge() {
  std::ifstream in(std::string(DISKVET_UNIT_DATA) + "/hosts/client_3hosts.txt", std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  auto out = parse_fio_client_output(text.str());
  EXPECT_TRUE(out.ok());
  std::vector<const FioHostResult*> hosts;
  for (const auto& h : out->hosts) hosts.push_back(&h);
  return merge_hosts(hosts, {}, {}, {50, 99, 99.99}, 1000);
}

HostsWorkloadResult typed(const HostsMerge& m, json::object doc) {
  HostsWorkloadResult w;
  w.merged = m;
  w.doc = std::move(doc);
  return w;
}

suites::Profile one_limit(MetricScope scope, MetricKind kind, Limit::Bound bound, double value) {
  suites::Profile p;
  p.name = "one";
  suites::TestLimits tl;
  tl.test_id = "t";
  tl.limits.push_back({metric_name(scope, kind), Metric{scope, kind}, Limit{bound, value, 0}, {}});
  p.tests.push_back(tl);
  return p;
}

std::string status_of(const suites::Profile& p, const std::vector<HostsWorkloadResult>& workloads) {
  json::object t;
  const VerdictStatus returned = judge_hosts_test(t, "t", p, workloads, true);
  EXPECT_EQ(to_string(returned), t.at("status").as_string()) << "the status returned is the one written";
  return std::string(t.at("status").as_string());
}

// A direction of n I/Os, all at one latency (ns), as merge_direction leaves it.
MergedDirection direction(double iops, uint64_t n, uint64_t lat_ns) {
  MergedDirection d;
  d.iops = iops;
  d.bw_bytes_per_s = iops * 4096;
  d.io_bytes = n * 4096;
  d.total_ios = n;
  d.lat_min_ns = d.lat_max_ns = lat_ns;
  d.lat_count = n;
  d.lat_mean_ns = static_cast<double>(lat_ns);
  d.bins[lat_ns] = n;
  for (double p : {50.0, 99.0, 99.99}) d.percentiles_ns[p] = lat_ns;
  return d;
}

TEST(HostsVerdicts, EveryTypedMetricIsWhatTheReportSays) {
  const HostsMerge m = fixture_merge();
  const json::object doc = merged_json(m);
  for (auto [scope, key] : {std::pair{MetricScope::read, "read"}, std::pair{MetricScope::write, "write"}, std::pair{MetricScope::total, "total"}}) {
    const json::object& d = doc.at(key).as_object();
    if (d.at("total_ios").to_number<uint64_t>() == 0) {
      EXPECT_FALSE(measure_merged(m, scope, MetricKind::iops)) << key << ": no I/O, nothing measured";
      continue;
    }
    const json::object& upper = d.at("lat_ns").at("percentile_upper").as_object();
    EXPECT_EQ(*measure_merged(m, scope, MetricKind::iops), d.at("iops").to_number<double>()) << key;
    EXPECT_EQ(*measure_merged(m, scope, MetricKind::bw_mbps), d.at("bw_bytes").to_number<double>() / 1e6) << key;
    EXPECT_EQ(*measure_merged(m, scope, MetricKind::lat_mean_us), d.at("lat_ns").at("mean").to_number<double>() / 1e3) << key;
    EXPECT_EQ(*measure_merged(m, scope, MetricKind::lat_p99_us), upper.at("99.000000").to_number<double>() / 1e3) << key;
    EXPECT_EQ(*measure_merged(m, scope, MetricKind::lat_p9999_us), upper.at("99.990000").to_number<double>() / 1e3) << key;
  }
  EXPECT_EQ(merged_total(m).iops, doc.at("total").at("iops").to_number<double>());
  EXPECT_GT(merged_total(m).iops, 0);
}

TEST(HostsVerdicts, AreJudgedOnTheTypedNumbersNotOnTheReportsJson) {
  const HostsMerge m = fixture_merge();
  const double iops = merged_total(m).iops;
  // The report's JSON says nothing (as a misspelled key would read): the typed numbers still judge.
  const HostsWorkloadResult silent = typed(m, json::object{{"merged", json::object{{"totl", json::object{}}}}});
  EXPECT_EQ(status_of(one_limit(MetricScope::total, MetricKind::iops, Limit::Bound::min, iops * 0.99), {silent}), "PASS");
  EXPECT_EQ(status_of(one_limit(MetricScope::total, MetricKind::iops, Limit::Bound::min, iops * 1.01), {silent}), "FAIL");
  // The report's JSON claiming ten times the IOPS passes nothing the typed numbers fail.
  json::object boasting = merged_json(m);
  boasting["total"].as_object()["iops"] = iops * 10;
  EXPECT_EQ(status_of(one_limit(MetricScope::total, MetricKind::iops, Limit::Bound::min, iops * 2), {typed(m, {{"merged", boasting}})}), "FAIL");
  // JSON with numbers but no typed merge: nothing was measured, never PASS.
  HostsWorkloadResult json_only;
  json_only.doc = json::object{{"merged", merged_json(m)}};
  EXPECT_NE(status_of(one_limit(MetricScope::total, MetricKind::iops, Limit::Bound::min, 1), {json_only}), "PASS");
}

TEST(HostsVerdicts, ALatencyPercentileIsJudgedAtItsBinsUpperEdge) {
  HostsMerge m;
  m.dir[0] = direction(1000, 100, 4096);  // fio's bin at 4096 ns is 64 ns wide: upper edge 4128 ns
  const HostsWorkloadResult w = typed(m, {});
  EXPECT_DOUBLE_EQ(*measure_merged(m, MetricScope::read, MetricKind::lat_p99_us), 4.128);
  EXPECT_DOUBLE_EQ(*measure_merged(m, MetricScope::read, MetricKind::lat_p9999_us), 4.128);
  EXPECT_EQ(status_of(one_limit(MetricScope::read, MetricKind::lat_p99_us, Limit::Bound::max, 4.128), {w}), "PASS");
  EXPECT_EQ(status_of(one_limit(MetricScope::read, MetricKind::lat_p99_us, Limit::Bound::max, 4.127), {w}), "FAIL")
      << "the bin's middle (4.096 us) would pass: the edge does not";
  // A percentile the run did not ask for is not measured.
  m.dir[0].percentiles_ns.erase(99.99);
  EXPECT_FALSE(measure_merged(m, MetricScope::read, MetricKind::lat_p9999_us));
  // Writes did no I/O: not measured, and an unprefixed limit skips that direction.
  EXPECT_FALSE(measure_merged(m, MetricScope::write, MetricKind::iops));
  json::object t;
  judge_hosts_test(t, "t", one_limit(MetricScope::each, MetricKind::iops, Limit::Bound::min, 999), {w}, true);
  ASSERT_EQ(t.at("verdicts").as_array().size(), 1u) << json::serialize(t);
  EXPECT_EQ(t.at("verdicts").as_array()[0].at("metric").as_string(), "read.iops");
  EXPECT_EQ(t.at("status").as_string(), "PASS");
}

TEST(HostsVerdicts, TheTotalComesFromTheWorkloadThatMeasuredBothDirections) {
  HostsMerge reads, mixed;
  reads.dir[0] = direction(1000, 100, 4096);
  mixed.dir[0] = direction(300, 30, 4096);
  mixed.dir[1] = direction(200, 20, 8192);
  const auto total_min = [](double v) { return one_limit(MetricScope::total, MetricKind::iops, Limit::Bound::min, v); };
  for (const auto& order : {std::vector{typed(reads, {}), typed(mixed, {})}, std::vector{typed(mixed, {}), typed(reads, {})}}) {
    EXPECT_EQ(status_of(total_min(500), order), "PASS") << "300 read + 200 written";
    EXPECT_EQ(status_of(total_min(501), order), "FAIL") << "not the read-only workload's 1000";
  }
  // The total's mean latency weighs each direction by its count: (30 x 4096 + 20 x 8192) / 50 ns.
  EXPECT_DOUBLE_EQ(*measure_merged(mixed, MetricScope::total, MetricKind::lat_mean_us), (30 * 4096 + 20 * 8192) / 50.0 / 1e3);
}

TEST(HostsVerdicts, AWorkloadsErrorOrReasonLeavesTheTestUnjudged) {
  const HostsMerge m = fixture_merge();
  const suites::Profile p = one_limit(MetricScope::total, MetricKind::iops, Limit::Bound::min, 1);
  HostsWorkloadResult failed = typed(m, {});
  failed.fail("fio's client ran past 60 s");
  EXPECT_TRUE(failed.error);
  EXPECT_EQ(failed.doc.at("error").as_string(), "fio's client ran past 60 s");
  EXPECT_EQ(status_of(p, {failed}), "NOT-JUDGED");
  HostsWorkloadResult apart = typed(m, {});
  apart.mark_not_judged("the hosts started 2000 ms apart");
  apart.mark_not_judged("steady state was not attained in 3 rounds");
  EXPECT_EQ(apart.not_judged, "the hosts started 2000 ms apart") << "the first reason stands";
  EXPECT_EQ(apart.doc.at("not_judged").as_string(), apart.not_judged);
  json::object t;
  judge_hosts_test(t, "t", p, {apart}, true);
  EXPECT_EQ(t.at("status").as_string(), "NOT-JUDGED");
  EXPECT_NE(json::serialize(t).find("2000 ms apart"), std::string::npos);
}

}  // namespace
}  // namespace diskvet::runner
