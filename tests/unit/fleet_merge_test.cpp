// Merging hosts' fio results, checked on fio's own output (tests/unit/data/fleet/capture.sh): the
// merged percentiles are the union of every host's raw latencies within fio's bin error, never an
// average of the hosts' percentiles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
#include <sstream>

#include "runner/fleet/fleet_merge.hpp"

namespace diskvet::runner {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(DISKVET_UNIT_DATA) + "/fleet/" + name, std::ios::binary);
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

TEST(FleetOutput, ReadsEachHostOfFiosClientOutputAndLeavesAllClientsOut) {
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

TEST(FleetMerge, OneHostsBinsGiveFiosOwnPercentiles) {
  auto out = parse_fio_client_output(fixture("client_3hosts.txt"));
  ASSERT_TRUE(out.ok());
  for (const FioHostResult& h : out->hosts) {
    ASSERT_FALSE(h.dir[0].lat.percentiles_ns.empty());
    for (const auto& [pct, fio_value] : h.dir[0].lat.percentiles_ns)
      EXPECT_EQ(bins_percentile_ns(h.dir[0].lat.bins, pct), fio_value) << h.client << " p" << pct;
  }
}

TEST(FleetMerge, MergedPercentilesMatchTheUnionOfRawLatenciesWithinTheBinError) {
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
  FleetMerge m = merge_hosts(hosts, {}, {}, pcts, 1000);
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

TEST(FleetMerge, IopsAndBandwidthAreSummed) {
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
  FleetMerge m = merge_hosts(hosts, {}, {}, {50}, 1000);
  EXPECT_DOUBLE_EQ(m.dir[0].iops, iops);
  EXPECT_DOUBLE_EQ(m.dir[0].bw_bytes_per_s, bw);
  EXPECT_EQ(m.dir[0].total_ios, ios);
  EXPECT_EQ(m.dir[1].total_ios, 0u);
  EXPECT_TRUE(m.dir[1].percentiles_ns.empty());
}

TEST(FleetMerge, IntervalLogsAreSummedPerHostAndAcrossHostsWithTheStartSpread) {
  auto out = parse_fio_client_output(fixture("client_timed.txt"));
  ASSERT_TRUE(out.ok()) << out.error().message();
  ASSERT_EQ(out->hosts.size(), 2u);
  std::vector<std::vector<IntervalSample>> per_host;
  std::vector<const FioHostResult*> hosts;
  for (const char* h : {"h1", "h2"}) {
    std::vector<std::vector<IntervalSample>> jobs;
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
  FleetMerge m = merge_hosts(hosts, per_host, {"h1", "h2"}, {50, 99}, 1000);
  const size_t n = std::min(per_host[0].size(), per_host[1].size());
  ASSERT_EQ(m.intervals.size(), n);
  for (size_t i = 0; i < n; ++i) EXPECT_DOUBLE_EQ(m.intervals[i].value[0], per_host[0][i].value[0] + per_host[1][i].value[0]);
  ASSERT_TRUE(m.start_spread_ms.has_value());
  const uint64_t a = per_host[0].front().t_ms, b = per_host[1].front().t_ms;
  EXPECT_EQ(*m.start_spread_ms, a > b ? a - b : b - a);
  ASSERT_TRUE(m.overlap_ms.has_value());
  EXPECT_GE(*m.overlap_ms, 1000u);  // the 3 s runs overlapped for at least their logged seconds
}

TEST(FleetMerge, AHostWithoutALogLeavesTheSpreadUnknown) {
  auto out = parse_fio_client_output(fixture("client_timed.txt"));
  ASSERT_TRUE(out.ok());
  std::vector<const FioHostResult*> hosts{&out->hosts[0], &out->hosts[1]};
  FleetMerge m = merge_hosts(hosts, {{IntervalSample{1000, {5, 0}}}, {}}, {"h1", "h2"}, {50}, 1000);
  EXPECT_FALSE(m.start_spread_ms.has_value());
  EXPECT_FALSE(m.overlap_ms.has_value());
}

TEST(FleetOutput, NamesTheHostsFioLostAndKeepsTheOthers) {
  const std::string text = "<vm> job: (g=0): rw=randread\nclient: host=h2.sock disconnected\n" +
                           fixture("client_timed.txt").substr(fixture("client_timed.txt").find("\n{\n") + 1);
  auto out = parse_fio_client_output(text);
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->disconnected.size(), 1u);
  EXPECT_EQ(out->disconnected[0], "h2.sock");
  EXPECT_EQ(out->hosts.size(), 2u);
}

TEST(FleetOutput, RefusesOutputWithoutJsonOrWithoutBins) {
  EXPECT_FALSE(parse_fio_client_output("fio: connect: Connection refused\n").ok());
  EXPECT_FALSE(parse_fio_client_output("{\n\"fio version\": \"fio-3.33\"}\n").ok());
  const std::string no_bins = R"({
"client_stats": [{"jobname": "j", "hostname": "h", "read": {"iops": 1, "lat_ns": {"min": 1, "max": 2, "mean": 1.5, "N": 2}}, "write": {"lat_ns": {"N": 0}}}]})";
  EXPECT_FALSE(parse_fio_client_output(no_bins).ok());
}

TEST(FleetMerge, BinHalfWidthFollowsFiosBuckets) {
  EXPECT_EQ(fio_bin_half_width_ns(127), 0u);
  EXPECT_EQ(fio_bin_half_width_ns(128), 1u);      // [128, 256): width 2
  EXPECT_EQ(fio_bin_half_width_ns(4096), 32u);    // [4096, 8192): width 64
  EXPECT_EQ(fio_bin_half_width_ns(1u << 20), 8192u);
}

}  // namespace
}  // namespace diskvet::runner
