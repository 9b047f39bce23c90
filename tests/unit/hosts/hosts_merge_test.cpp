// Merging hosts' fio results, checked on fio's own output (tests/unit/data/hosts/capture.sh): the
// merged percentiles are the union of every host's raw latencies within fio's bin error, never an
// average of the hosts' percentiles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
#include <sstream>

#include "runner/hosts/hosts_merge.hpp"

namespace diskvet::runner {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(DISKVET_UNIT_DATA) + "/hosts/" + name, std::ios::binary);
  EXPECT_TRUE(in) << name;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<uint64_t> raw_latencies(const std::string& name) {
  std::istringstream in(fixture(name));
  std::vector<uint64_t> v;
  for (uint64_t x; in >> x;) v.push_back(x);
  return v;
}

// The exact percentile of a sorted sample by fio's rule: the ceil(pct% of N)-th smallest.
uint64_t exact_percentile(const std::vector<uint64_t>& sorted, double pct) {
  const auto rank = static_cast<size_t>(std::ceil(pct / 100.0 * static_cast<double>(sorted.size())));
  return sorted[std::max<size_t>(rank, 1) - 1];
}

const FioHostResult& host(const FioClientOutput& out, const std::string& client) {
  auto it = std::find_if(out.hosts.begin(), out.hosts.end(), [&](const FioHostResult& h) { return h.client == client; });
  EXPECT_NE(it, out.hosts.end()) << client;
  return *it;
}

TEST(HostsOutput, ReadsEachHostOfFiosClientOutputAndLeavesAllClientsOut) {
  auto out = parse_fio_client_output(fixture("client_3hosts.txt"));
  ASSERT_TRUE(out.ok()) << out.error().message();
  EXPECT_EQ(out->fio_version.rfind("fio-", 0), 0u);
  ASSERT_EQ(out->hosts.size(), 3u);
  EXPECT_TRUE(out->disconnected.empty());
  for (const char* c : {"h1.sock", "h2.sock", "h3.sock"}) {
    const FioHostResult& h = host(*out, c);
    EXPECT_GT(h.dir[0].total_ios, 0u);
    EXPECT_EQ(h.dir[1].total_ios, 0u);
    uint64_t in_bins = 0;
    for (const auto& [at, n] : h.dir[0].lat.bins) in_bins += n;
    EXPECT_EQ(in_bins, h.dir[0].lat.count) << c;
    EXPECT_FALSE(h.raw.empty());
  }
  EXPECT_NE(out->messages.find("Starting"), std::string::npos);
}

TEST(HostsMerge, OneHostsBinsGiveFiosOwnPercentiles) {
  auto out = parse_fio_client_output(fixture("client_3hosts.txt"));
  ASSERT_TRUE(out.ok());
  for (const FioHostResult& h : out->hosts) {
    ASSERT_FALSE(h.dir[0].lat.percentiles_ns.empty());
    for (const auto& [pct, fio_value] : h.dir[0].lat.percentiles_ns)
      EXPECT_EQ(bins_percentile_ns(h.dir[0].lat.bins, pct), fio_value) << h.client << " p" << pct;
  }
}

TEST(HostsMerge, MergedPercentilesMatchTheUnionOfRawLatenciesWithinTheBinError) {
  auto out = parse_fio_client_output(fixture("client_3hosts.txt"));
  ASSERT_TRUE(out.ok());
  std::vector<uint64_t> all;
  for (const char* h : {"h1", "h2", "h3"}) {
    auto v = raw_latencies(std::string("lat_") + h + ".txt");
    EXPECT_EQ(v.size(), host(*out, std::string(h) + ".sock").dir[0].lat.count) << h;
    all.insert(all.end(), v.begin(), v.end());
  }
  std::sort(all.begin(), all.end());
  std::vector<const FioHostResult*> hosts;
  for (const auto& h : out->hosts) hosts.push_back(&h);
  const std::vector<double> pcts{1, 10, 50, 75, 90, 95, 99, 99.5, 99.9};
  HostsMerge m = merge_hosts(hosts, {}, {}, pcts, 1000);
  const MergedDirection& r = m.dir[0];
  ASSERT_EQ(r.lat_count, all.size());
  bool averaging_would_differ = false;
  for (double p : pcts) {
    const uint64_t exact = exact_percentile(all, p);
    const uint64_t merged = r.percentiles_ns.at(p);
    const uint64_t tolerance = fio_bin_half_width_ns(exact) + 1;
    EXPECT_LE(merged > exact ? merged - exact : exact - merged, tolerance) << "p" << p << ": exact " << exact << ", merged " << merged;
    double avg = 0;
    for (const auto* h : hosts) avg += static_cast<double>(bins_percentile_ns(h->dir[0].lat.bins, p)) / static_cast<double>(hosts.size());
    if (std::fabs(avg - static_cast<double>(exact)) > static_cast<double>(tolerance)) averaging_would_differ = true;
  }
  // The fixture's hosts differ enough that averaging their percentiles would be wrong.
  EXPECT_TRUE(averaging_would_differ);
  const long double sum = std::accumulate(all.begin(), all.end(), 0.0L);
  EXPECT_NEAR(r.lat_mean_ns, static_cast<double>(sum / all.size()), 1e-4 * r.lat_mean_ns);
  EXPECT_EQ(r.lat_max_ns, all.back());
  EXPECT_EQ(r.lat_min_ns, all.front());
}

TEST(HostsMerge, IopsAndBandwidthAreSummed) {
  auto out = parse_fio_client_output(fixture("client_3hosts.txt"));
  ASSERT_TRUE(out.ok());
  std::vector<const FioHostResult*> hosts;
  double iops = 0, bw = 0;
  uint64_t ios = 0;
  for (const auto& h : out->hosts) {
    hosts.push_back(&h);
    iops += h.dir[0].iops;
    bw += h.dir[0].bw_bytes_per_s;
    ios += h.dir[0].total_ios;
  }
  HostsMerge m = merge_hosts(hosts, {}, {}, {50}, 1000);
  EXPECT_DOUBLE_EQ(m.dir[0].iops, iops);
  EXPECT_DOUBLE_EQ(m.dir[0].bw_bytes_per_s, bw);
  EXPECT_EQ(m.dir[0].total_ios, ios);
  EXPECT_EQ(m.dir[1].total_ios, 0u);
  EXPECT_TRUE(m.dir[1].percentiles_ns.empty());
}

TEST(HostsMerge, IntervalLogsAreSummedPerHostAndAcrossHostsWithTheStartSpread) {
  auto out = parse_fio_client_output(fixture("client_timed.txt"));
  ASSERT_TRUE(out.ok()) << out.error().message();
  ASSERT_EQ(out->hosts.size(), 2u);
  std::vector<std::vector<FioIntervalSample>> per_host;
  std::vector<const FioHostResult*> hosts;
  for (const char* h : {"h1", "h2"}) {
    std::vector<std::vector<FioIntervalSample>> jobs;
    for (int j = 1; j <= 2; ++j) {
      const std::string name = "iops_iops." + std::to_string(j) + ".log." + h + ".sock";
      auto log = parse_fio_interval_log(fixture(name), name);
      ASSERT_TRUE(log.ok()) << log.error().message();
      ASSERT_FALSE(log->empty());
      jobs.push_back(*log);
    }
    per_host.push_back(sum_interval_logs(jobs));
    hosts.push_back(&host(*out, std::string(h) + ".sock"));
  }
  HostsMerge m = merge_hosts(hosts, per_host, {"h1", "h2"}, {50, 99}, 1000);
  const size_t n = std::min(per_host[0].size(), per_host[1].size());
  ASSERT_EQ(m.intervals.size(), n);
  for (size_t i = 0; i < n; ++i) EXPECT_DOUBLE_EQ(m.intervals[i].value[0], per_host[0][i].value[0] + per_host[1][i].value[0]);
  ASSERT_TRUE(m.start_spread_ms.has_value());
  const uint64_t a = per_host[0].front().t_ms, b = per_host[1].front().t_ms;
  EXPECT_EQ(*m.start_spread_ms, a > b ? a - b : b - a);
  ASSERT_TRUE(m.overlap_ms.has_value());
  EXPECT_GE(*m.overlap_ms, 1000u);  // the 3 s runs overlapped for at least their logged seconds
}

TEST(HostsMerge, AHostWithoutALogLeavesTheSpreadUnknown) {
  auto out = parse_fio_client_output(fixture("client_timed.txt"));
  ASSERT_TRUE(out.ok());
  std::vector<const FioHostResult*> hosts{&out->hosts[0], &out->hosts[1]};
  HostsMerge m = merge_hosts(hosts, {{FioIntervalSample{1000, {5, 0}}}, {}}, {"h1", "h2"}, {50}, 1000);
  EXPECT_FALSE(m.start_spread_ms.has_value());
  EXPECT_FALSE(m.overlap_ms.has_value());
}

TEST(HostsOutput, NamesTheHostsFioLostAndKeepsTheOthers) {
  const std::string text = "<vm> job: (g=0): rw=randread\nclient: host=h2.sock disconnected\n" +
                           fixture("client_timed.txt").substr(fixture("client_timed.txt").find("\n{\n") + 1);
  auto out = parse_fio_client_output(text);
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->disconnected.size(), 1u);
  EXPECT_EQ(out->disconnected[0], "h2.sock");
  EXPECT_EQ(out->hosts.size(), 2u);
}

TEST(HostsOutput, RefusesOutputWithoutJsonOrWithoutBins) {
  EXPECT_FALSE(parse_fio_client_output("fio: connect: Connection refused\n").ok());
  EXPECT_FALSE(parse_fio_client_output("{\n\"fio version\": \"fio-3.33\"}\n").ok());
  const std::string no_bins = R"({
"client_stats": [{"jobname": "j", "hostname": "h", "read": {"iops": 1, "lat_ns": {"min": 1, "max": 2, "mean": 1.5, "N": 2}}, "write": {"lat_ns": {"N": 0}}}]})";
  EXPECT_FALSE(parse_fio_client_output(no_bins).ok());
}

TEST(HostsMerge, BinHalfWidthFollowsFiosBuckets) {
  EXPECT_EQ(fio_bin_half_width_ns(127), 0u);
  EXPECT_EQ(fio_bin_half_width_ns(128), 1u);      // [128, 256): width 2
  EXPECT_EQ(fio_bin_half_width_ns(4096), 32u);    // [4096, 8192): width 64
  EXPECT_EQ(fio_bin_half_width_ns(1u << 20), 8192u);
}

}  // namespace
}  // namespace diskvet::runner

#include "runner/hosts/hosts_verdicts.hpp"

namespace diskvet::runner {
namespace {

namespace json = boost::json;

// A merged workload of the 3-host fixture, as the controller keeps it: typed, and in the report.
HostsWorkloadResult fixture_workload() {
  auto out = parse_fio_client_output(fixture("client_3hosts.txt"));
  EXPECT_TRUE(out.ok());
  std::vector<const FioHostResult*> hosts;
  for (const auto& h : out->hosts) hosts.push_back(&h);
  HostsWorkloadResult w;
  w.merged = merge_hosts(hosts, {}, {}, {50, 99, 99.99}, 1000);
  w.doc = json::object{{"merged", merged_json(*w.merged)}};
  return w;
}

suites::Profile array_profile(double min_iops, double max_p99_us) {
  suites::Profile p;
  p.name = "array";
  suites::TestLimits tl;
  tl.test_id = "t";
  tl.limits.push_back({"total.iops", Metric{MetricScope::total, MetricKind::iops}, Limit{Limit::Bound::min, min_iops, 0}, {}});
  tl.limits.push_back({"read.lat_p99_us", Metric{MetricScope::read, MetricKind::lat_p99_us}, Limit{Limit::Bound::max, max_p99_us, 0}, {}});
  p.tests.push_back(tl);
  return p;
}

TEST(HostsVerdicts, LimitsApplyToTheMergedNumbers) {
  HostsWorkloadResult w = fixture_workload();
  const double iops = w.doc.at("merged").at("total").at("iops").to_number<double>();
  const double p99_upper_us = w.doc.at("merged").at("read").at("lat_ns").at("percentile_upper").at("99.000000").to_number<double>() / 1e3;
  // The summed IOPS pass a limit no single host reaches; the merged p99's upper edge is what is judged.
  auto out = parse_fio_client_output(fixture("client_3hosts.txt"));
  ASSERT_TRUE(out.ok());
  for (const auto& h : out->hosts) EXPECT_LT(h.dir[0].iops, iops * 0.99) << h.client;
  json::object t;
  judge_hosts_test(t, "t", array_profile(iops * 0.99, p99_upper_us * 1.01), {w}, true);
  EXPECT_EQ(t.at("status").as_string(), "PASS") << json::serialize(t);
  json::object f;
  judge_hosts_test(f, "t", array_profile(iops * 1.01, p99_upper_us * 0.99), {w}, true);
  EXPECT_EQ(f.at("status").as_string(), "FAIL") << json::serialize(f);
  EXPECT_EQ(f.at("verdicts").as_array().size(), 2u);
}

TEST(HostsVerdicts, ARunThatLostAHostOrDidNotStartTogetherIsNeverPass) {
  HostsWorkloadResult w = fixture_workload();
  json::object lost;
  judge_hosts_test(lost, "t", array_profile(1, 1e9), {w}, false);
  EXPECT_NE(lost.at("status").as_string(), "PASS");
  HostsWorkloadResult apart = w;
  apart.mark_not_judged("the hosts started 2000 ms apart");
  json::object t;
  judge_hosts_test(t, "t", array_profile(1, 1e9), {apart}, true);
  EXPECT_NE(t.at("status").as_string(), "PASS");
  EXPECT_NE(json::serialize(t).find("2000 ms apart"), std::string::npos);
  json::object required;
  judge_hosts_test(required, "t", array_profile(1, 1e9), {w}, true, "the suite requires steady state");
  EXPECT_NE(required.at("status").as_string(), "PASS");
}

}  // namespace
}  // namespace diskvet::runner
