// `diskvet compare` of two multi-host reports (`diskvet run --hosts`), made from real fio client
// output (tests/support/hosts_report.hpp): the merged array and each host matched by test and by host
// name, a slower host found in its own numbers and in the merged ones (percentiles from the summed
// bins), a host in one report only listed, a host lost or a verdict that stopped passing a
// regression, and a multi-host report against a per-drive one comparing nothing.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "runner/compare/compare.hpp"
#include "tests/support/hosts_report.hpp"
#include "tests/support/null_run_report.hpp"

using namespace diskvet;
using namespace diskvet::runner;
namespace dvt = diskvet::testing;

namespace {

const std::string kKey = "randread-qd4/randread#0/read";

ReportIndex hosts(const dvt::HostsRun& run, const std::string& name) { return index_report(dvt::hosts_report(DISKVET_UNIT_DATA, run), name); }

const DevicePair* pair_of(const Comparison& c, const std::string& path) {
  for (const auto& p : c.pairs)
    if (p.a->path == path) return &p;
  return nullptr;
}

const MetricComparison* metric(const DevicePair& p, const std::string& name) {
  for (const auto& m : p.metrics)
    if (m.key == kKey && m.kind->name == name) return &m;
  return nullptr;
}

}  // namespace

TEST(CompareHosts, TheMergedArrayAndEachHostMatchByTestAndHostNameAndASlowerHostRegresses) {
  const boost::json::object doc = dvt::hosts_report(DISKVET_UNIT_DATA);
  ASSERT_TRUE(is_multi_host_report(doc));
  const ReportIndex before = index_report(doc, "before.json");
  EXPECT_TRUE(before.hosts);
  ASSERT_EQ(before.devices.size(), 3u);  // the merged array, h1, h2
  const ReportIndex after = hosts({.slower = {{"h2", 0.5}}}, "after.json");
  CompareOptions o;
  o.max_regression_pct = 10;
  const Comparison c = compare_reports(before, after, o);
  EXPECT_TRUE(c.not_compared.empty()) << c.not_compared;
  ASSERT_EQ(c.pairs.size(), 3u);
  EXPECT_TRUE(c.unmatched.empty());

  const DevicePair* merged = pair_of(c, kMergedHosts);
  ASSERT_NE(merged, nullptr);
  EXPECT_EQ(merged->matched_by, "test, the merged array");
  const auto* iops = metric(*merged, "iops");
  ASSERT_NE(iops, nullptr);
  // The merged IOPS are the hosts' sum: h2 at half its rate takes about a quarter off.
  const auto& per_host = doc.at("tests").as_array()[0].at("workloads").as_array()[0].at("hosts").as_object();
  const double h1 = per_host.at("h1").at("read").at("iops").to_number<double>(), h2 = per_host.at("h2").at("read").at("iops").to_number<double>();
  EXPECT_NEAR(iops->a, h1 + h2, 1e-6 * (h1 + h2));
  EXPECT_NEAR(iops->b, h1 + h2 / 2, 1e-6 * (h1 + h2));
  EXPECT_TRUE(iops->regression);
  ASSERT_TRUE(iops->beyond_noise.has_value()) << "the merged interval series measures the noise";
  EXPECT_TRUE(*iops->beyond_noise);
  // Percentiles of the merged array are the summed bins' (as the report holds them), present to p99.99.
  const auto& merged_pct = doc.at("tests").as_array()[0].at("workloads").as_array()[0].at("merged").at("read").at("lat_ns").at("percentile");
  for (const char* name : {"lat_p50", "lat_p99", "lat_p9999", "lat_mean", "bw"}) ASSERT_NE(metric(*merged, name), nullptr) << name;
  EXPECT_DOUBLE_EQ(metric(*merged, "lat_p99")->a, merged_pct.at("99.000000").to_number<double>());
  EXPECT_GT(metric(*merged, "lat_p99")->b, metric(*merged, "lat_p99")->a);

  const DevicePair* host1 = pair_of(c, "host h1");
  const DevicePair* host2 = pair_of(c, "host h2");
  ASSERT_NE(host1, nullptr);
  ASSERT_NE(host2, nullptr);
  EXPECT_EQ(host2->matched_by, "host name");
  EXPECT_DOUBLE_EQ(metric(*host1, "iops")->ratio, 1.0);
  EXPECT_FALSE(metric(*host1, "iops")->regression);
  EXPECT_NEAR(metric(*host2, "iops")->ratio, 0.5, 1e-9);
  EXPECT_TRUE(metric(*host2, "iops")->regression);
  ASSERT_TRUE(metric(*host2, "iops")->beyond_noise.has_value()) << "each host's own series measures its noise";
  EXPECT_TRUE(*metric(*host2, "iops")->beyond_noise);
  EXPECT_GT(metric(*host2, "lat_mean")->worse_pct, 90);

  bool named = false;
  for (const auto& r : c.regressions) named = named || r.starts_with("host h2: randread-qd4 randread 4KiB QD4x2 read IOPS is 50% worse (2.83M IOPS -> 1.42M IOPS");
  EXPECT_TRUE(named) << fmt::format("{}", fmt::join(c.regressions, "\n"));
  const std::string text = compare_text({c}, o);
  EXPECT_NE(text.find("multi-host reports"), std::string::npos) << text;
  EXPECT_NE(text.find("host h2  vs  host h2  (matched by host name)"), std::string::npos) << text;
  EXPECT_NE(text.find("host state: ok (unchanged)"), std::string::npos) << text;
  const std::string html = compare_html({c}, o);
  EXPECT_NE(html.find("Multi-host reports"), std::string::npos);
  EXPECT_NE(html.find("host h2"), std::string::npos);

  // Against itself nothing changes and nothing regresses.
  const Comparison same = compare_reports(before, before, o);
  EXPECT_TRUE(same.regressions.empty());
  EXPECT_TRUE(same.not_compared.empty());
  EXPECT_GE(pair_of(same, kMergedHosts)->metrics.size(), 6u);
}

TEST(CompareHosts, AHostInOneReportOnlyIsUnmatchedAndAHostThatWasLostRegresses) {
  const ReportIndex before = hosts({}, "before.json");
  const ReportIndex renamed = hosts({.name = {{"h2", "h3"}}}, "after.json");
  const Comparison other = compare_reports(before, renamed, CompareOptions{});
  ASSERT_EQ(other.pairs.size(), 2u);  // the merged array and h1
  ASSERT_EQ(other.unmatched.size(), 2u);
  EXPECT_EQ(other.unmatched[0], "host h2 only in before.json");
  EXPECT_EQ(other.unmatched[1], "host h3 only in after.json");
  // A host that was ok and is no longer is a regression, with or without a threshold.
  const ReportIndex without_h2 = hosts({.state = {{"h2", "lost"}}}, "after.json");
  const Comparison lost = compare_reports(before, without_h2, CompareOptions{});
  ASSERT_EQ(lost.regressions.size(), 1u);
  EXPECT_EQ(lost.regressions[0], "host h2: state ok -> lost");
}

TEST(CompareHosts, AVerdictOfTheRunOrOfATestThatStoppedPassingRegresses) {
  const ReportIndex pass = hosts({.verdict = "PASS", .test_status = "PASS"}, "pass.json");
  const ReportIndex fail = hosts({.verdict = "FAIL", .test_status = "FAIL"}, "fail.json");
  const Comparison c = compare_reports(pass, fail, CompareOptions{});
  std::string all = fmt::format("{}", fmt::join(c.regressions, "\n"));
  EXPECT_NE(all.find("all hosts merged: verdict PASS -> FAIL"), std::string::npos) << all;
  EXPECT_NE(all.find("all hosts merged: randread-qd4 verdict PASS -> FAIL"), std::string::npos) << all;
  EXPECT_TRUE(compare_reports(fail, pass, CompareOptions{}).regressions.empty());
}

TEST(CompareHosts, NothingInCommonOrAPerDriveReportComparesNothing) {
  const ReportIndex before = hosts({}, "before.json");
  // A run that measured nothing (refused before any I/O): the merged array alone pairs, and that judges nothing.
  boost::json::object refused = dvt::hosts_report(DISKVET_UNIT_DATA);
  refused["tests"] = boost::json::array();
  const ReportIndex measured_nothing = index_report(refused, "refused.json");
  const Comparison none = compare_reports(before, measured_nothing, CompareOptions{});
  EXPECT_NE(none.not_compared.find("no test workload of refused.json was measured in before.json"), std::string::npos) << none.not_compared;
  EXPECT_NE(compare_text({none}, CompareOptions{}).find("NOTHING COMPARED"), std::string::npos);
  // Hosts against drives: nothing pairs, and it says why.
  const ReportIndex drives = index_report(dvt::null_run_report({{.serial = "SN-A"}}), "drives.json");
  for (const Comparison& mixed : {compare_reports(before, drives, CompareOptions{}), compare_reports(drives, before, CompareOptions{})}) {
    EXPECT_TRUE(mixed.pairs.empty());
    EXPECT_NE(mixed.not_compared.find("before.json is a multi-host report and drives.json a per-drive report"), std::string::npos) << mixed.not_compared;
  }
}
