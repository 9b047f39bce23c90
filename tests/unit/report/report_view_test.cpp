// The report decoded once into typed values: every report the run path writes and every kept report
// decodes without a problem; a missing key, a value of the wrong type and an unknown key are each
// listed by path; a schema 1 report reads profile.source as not recorded; "not recorded" stays
// distinguishable from zero.
#include "runner/report/report_view.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <type_traits>

#include "runner/report/report_file.hpp"
#include "runner/report/report_schema.hpp"
#include "tests/support/hosts_report.hpp"
#include "tests/support/null_run_report.hpp"

using namespace diskvet;
using namespace diskvet::runner;
namespace dvt = diskvet::testing;
namespace json = boost::json;

namespace {

std::string problems_of(const std::vector<ReportProblem>& ps) {
  std::string s;
  for (const auto& p : ps) s += describe(p) + "\n";
  return s;
}

bool has_problem(const ReportView& v, ReportProblem::Kind kind, const std::string& path) {
  return std::ranges::any_of(v.problems, [&](const ReportProblem& p) { return p.kind == kind && p.path == path; });
}

json::object minimal_report() {
  return json::parse(R"({"schema": "diskvet-report/2", "verdict": "PASS", "exit_code": 0, "complete": true, "devices": [
    {"path": "/dev/x", "verdict": "PASS", "profile": {"name": "p", "source": "lab"}, "tests": [
      {"id": "t", "workloads": [{"rw": "randread", "bs": 4096, "iodepth": 1, "numjobs": 1, "ran": true,
        "result": {"read": {"total_ios": 10, "iops": 5, "bw_bytes": 20480, "lat_ns": {"mean": 100, "percentile": {"99.000000": 300, "50.000000": 90}}}}}],
       "verdicts": [{"test": "t", "metric": "read.iops", "bound": "min", "expected": 1, "measured": 5, "status": "PASS"}]}]}]})")
      .as_object();
}

// A member that exists compiles; the renderers read these, so a misspelled one does not build.
template <typename T>
concept HasIops = requires(T d) { d.iops; };
template <typename T>
concept HasIopz = requires(T d) { d.iopz; };

}  // namespace

TEST(ReportView, AReportOfTheRunPathDecodesWithoutAProblem) {
  const json::object doc = dvt::null_run_report({dvt::NullDrive{.serial = "SN-1"}});
  const ReportView v = decode_report(doc);
  EXPECT_TRUE(v.problems.empty()) << problems_of(v.problems);
  EXPECT_EQ(v.schema, kReportSchemaVersion);
  ASSERT_EQ(v.devices.size(), 1u);
  const DeviceView& d = v.devices[0];
  EXPECT_EQ(d.serial, "SN-1");
  ASSERT_EQ(d.tests.size(), 2u);
  EXPECT_EQ(d.tests[0].id, "latency-qd1");
  ASSERT_TRUE(d.tests[0].workloads[0].result);
  EXPECT_GT(d.tests[0].workloads[0].result->read.iops.value_or(0), 0);
  EXPECT_FALSE(d.tests[0].workloads[0].result->write.measured());
  ASSERT_TRUE(d.tests[1].workloads[0].sweep);
  // The sweep stops at the first step that gains too little, so how many of its three steps ran is
  // the machine's (two under ASan on a loaded host): the view holds every point the report does.
  const json::value& written = doc.at("devices").at(0).at("tests").at(1).at("workloads").at(0).at("sweep").at("points");
  EXPECT_EQ(d.tests[1].workloads[0].sweep->points.size(), written.as_array().size());
  EXPECT_GE(written.as_array().size(), 2u);
  EXPECT_EQ(d.profile.source, "lab limits for the null engine");
  EXPECT_TRUE(v.not_recorded.empty());
}

TEST(ReportView, EveryKeptReportDecodesWithoutAnUnknownKey) {
  for (const char* name : {"quick-loop", "schema1-two-drives", "null-two-drives-pass", "null-fail", "null-cloud-burst", "null-burnin-stall-mismatch",
                           "burnin-stall-mismatch", "sata-logs-write-amplification", "snia-iops-matrix", "capacity-probe"}) {
    auto r = load_report(std::string(DISKVET_TEST_DATA "/report_golden/") + name + ".json");
    ASSERT_TRUE(r.ok()) << name;
    const ReportView v = decode_report(r->doc);
    EXPECT_TRUE(v.problems.empty()) << name << ":\n" << problems_of(v.problems);
  }
}

TEST(ReportView, AMissingRequiredKeyIsListedAndReadsAsNotRecorded) {
  json::object doc = minimal_report();
  doc["devices"].as_array()[0].as_object()["tests"].as_array()[0].as_object()["workloads"].as_array()[0].as_object().erase("iodepth");
  doc.erase("exit_code");
  const ReportView v = decode_report(doc);
  EXPECT_TRUE(has_problem(v, ReportProblem::Kind::missing, "exit_code")) << problems_of(v.problems);
  EXPECT_TRUE(has_problem(v, ReportProblem::Kind::missing, "devices[0].tests[0].workloads[0].iodepth")) << problems_of(v.problems);
  EXPECT_FALSE(v.exit_code.has_value());
  EXPECT_FALSE(v.devices[0].tests[0].workloads[0].iodepth.has_value());
  EXPECT_EQ(v.problems.size(), 2u) << problems_of(v.problems);
}

TEST(ReportView, AValueOfTheWrongTypeIsListedAndNotReadAsZero) {
  json::object doc = minimal_report();
  json::object& w = doc["devices"].as_array()[0].as_object()["tests"].as_array()[0].as_object()["workloads"].as_array()[0].as_object();
  w["result"].as_object()["read"].as_object()["iops"] = "fast";
  doc["devices"].as_array()[0].as_object()["size_bytes"] = -4;
  const ReportView v = decode_report(doc);
  EXPECT_TRUE(has_problem(v, ReportProblem::Kind::wrong_type, "devices[0].tests[0].workloads[0].result.read.iops")) << problems_of(v.problems);
  EXPECT_TRUE(has_problem(v, ReportProblem::Kind::out_of_range, "devices[0].size_bytes")) << problems_of(v.problems);
  EXPECT_FALSE(v.devices[0].tests[0].workloads[0].result->read.iops.has_value());
  EXPECT_FALSE(v.devices[0].size_bytes.has_value());
  // What was recorded still reads.
  EXPECT_EQ(v.devices[0].tests[0].workloads[0].result->read.lat_p99_ns, 300);
}

TEST(ReportView, AnUnknownKeyIsListedByItsPath) {
  json::object doc = minimal_report();
  doc["devices"].as_array()[0].as_object()["tests"].as_array()[0].as_object()["verdicts"].as_array()[0].as_object()["mesured"] = 5;
  doc["verdikt"] = "PASS";
  const ReportView v = decode_report(doc);
  EXPECT_TRUE(has_problem(v, ReportProblem::Kind::unknown_key, "devices[0].tests[0].verdicts[0].mesured")) << problems_of(v.problems);
  EXPECT_TRUE(has_problem(v, ReportProblem::Kind::unknown_key, "verdikt")) << problems_of(v.problems);
}

TEST(ReportView, ASchemaOneReportReadsTheProfileSourceAsNotRecordedWithoutAProblem) {
  json::object doc = minimal_report();
  doc["schema"] = "diskvet-report/1";
  doc["devices"].as_array()[0].as_object()["profile"].as_object().erase("source");
  const ReportView v1 = decode_report(doc);
  EXPECT_EQ(v1.schema, 1);
  EXPECT_FALSE(v1.devices[0].profile.source.has_value());
  EXPECT_EQ(v1.not_recorded, std::vector<std::string>{"profile.source"});
  EXPECT_TRUE(v1.schema_note.has_value());
  EXPECT_TRUE(v1.problems.empty()) << problems_of(v1.problems);
  // The same report saying schema 2 lacks a member its schema has.
  doc["schema"] = "diskvet-report/2";
  const ReportView v2 = decode_report(doc);
  EXPECT_TRUE(has_problem(v2, ReportProblem::Kind::missing, "devices[0].profile.source")) << problems_of(v2.problems);
  EXPECT_FALSE(v2.devices[0].profile.source.has_value());
  EXPECT_FALSE(v2.schema_note.has_value());
}

TEST(ReportView, NotRecordedIsNotZero) {
  json::object doc = minimal_report();
  const ReportView v = decode_report(doc);
  const DirectionView& read = v.devices[0].tests[0].workloads[0].result->read;
  EXPECT_EQ(read.iops, 5);
  EXPECT_FALSE(read.lat_p9999_ns.has_value());  // no "99.990000" in the report: not 0 ns
  EXPECT_EQ(read.percentiles_ns, (std::vector<std::pair<double, double>>{{50, 90}, {99, 300}}));
  EXPECT_FALSE(v.devices[0].tests[0].workloads[0].steady_state.has_value());
  EXPECT_FALSE(v.devices[0].health.before.has_value());
}

TEST(ReportView, AMisspelledMemberDoesNotCompile) {
  static_assert(HasIops<DirectionView>);
  static_assert(!HasIopz<DirectionView>);
  static_assert(std::is_same_v<decltype(DirectionView{}.iops), std::optional<double>>);
}

TEST(ReportView, AnythingButAnObjectDecodesToAnEmptyViewWithOneProblem) {
  for (const char* text : {"[]", "3", "\"report\"", "null"}) {
    const ReportView v = decode_report(json::parse(text));
    EXPECT_TRUE(v.devices.empty()) << text;
  }
  const ReportView v = decode_report(json::parse("[1]"));
  EXPECT_TRUE(has_problem(v, ReportProblem::Kind::wrong_type, "")) << problems_of(v.problems);
}

TEST(ReportView, AnEntryOfAListThatIsNoObjectKeepsItsPlace) {
  json::object doc = minimal_report();
  doc["devices"].as_array()[0].as_object()["tests"].as_array()[0].as_object()["verdicts"].as_array().insert(
      doc["devices"].as_array()[0].as_object()["tests"].as_array()[0].as_object()["verdicts"].as_array().begin(), 7);
  const ReportView v = decode_report(doc);
  ASSERT_EQ(v.devices[0].tests[0].verdicts.size(), 2u);
  EXPECT_EQ(v.devices[0].tests[0].verdicts[0].metric, "");
  EXPECT_EQ(v.devices[0].tests[0].verdicts[1].metric, "read.iops");
  EXPECT_TRUE(has_problem(v, ReportProblem::Kind::wrong_type, "devices[0].tests[0].verdicts[0]")) << problems_of(v.problems);
}

// The multi-host report is the same model with hosts: a report made the way the controller makes
// it (fio's client output of two hosts, merged) decodes without a problem, with each host's fio
// numbers and the merged ones as typed values.
TEST(ReportView, AMultiHostReportDecodesAsTheSameModelWithHosts) {
  const json::object doc = dvt::hosts_report(DISKVET_UNIT_DATA, dvt::HostsRun{.test_status = "PASS"});
  const ReportView v = decode_report(doc);
  EXPECT_TRUE(v.problems.empty()) << problems_of(v.problems);
  ASSERT_TRUE(v.multi_host);
  EXPECT_TRUE(v.devices.empty());
  EXPECT_EQ(v.suite.name, "hosts-lab");
  EXPECT_TRUE(v.complete);
  EXPECT_EQ(v.exit_code, 0);
  ASSERT_EQ(v.multi_host->hosts.size(), 2u);
  EXPECT_EQ(v.multi_host->hosts[0].state, "ok");
  ASSERT_EQ(v.multi_host->tests.size(), 1u);
  const HostsTestView& t = v.multi_host->tests[0];
  EXPECT_EQ(t.status, "PASS");
  ASSERT_EQ(t.workloads.size(), 1u);
  const HostsWorkloadView& w = t.workloads[0];
  EXPECT_EQ(w.rw, "randread");
  ASSERT_EQ(w.hosts.size(), 2u);
  ASSERT_TRUE(w.merged && w.merged->total && w.merged->read);
  // The merged IOPS are the hosts' summed; each host's latency percentiles are fio's own.
  const double summed = w.hosts[0].second.read->iops.value_or(0) + w.hosts[1].second.read->iops.value_or(0);
  EXPECT_NEAR(w.merged->read->iops.value_or(0), summed, summed * 1e-9);
  EXPECT_TRUE(w.hosts[0].second.read->percentile_ns(99.0).has_value());
  EXPECT_FALSE(w.merged->intervals.empty());
  ASSERT_EQ(w.host_merged.size(), 2u);
  EXPECT_NE(w.merged_of(w.hosts[1].first), nullptr);
}

TEST(ReportView, KeptMultiHostReportsDecodeWithoutAProblem) {
  for (const char* name : {"hosts", "hosts-slower"}) {
    auto r = load_report(std::string(DISKVET_TEST_DATA "/report_golden/") + name + ".json");
    ASSERT_TRUE(r.ok()) << name;
    const ReportView v = decode_report(r->doc);
    EXPECT_TRUE(v.multi_host) << name;
    EXPECT_TRUE(v.problems.empty()) << name << ":\n" << problems_of(v.problems);
  }
}

// What the decoder cannot read in a multi-host report is listed by path, as in a per-device one: a
// misspelled key of diskvet's own, a number written as text (read as not recorded, not as 0), a
// missing host state. fio's own objects are fio's vocabulary: a key fio adds is no problem.
TEST(ReportView, AMultiHostReportListsWhatItCouldNotRead) {
  json::object doc = dvt::hosts_report(DISKVET_UNIT_DATA);
  json::object& host = doc["hosts"].as_array()[0].as_object();
  host["fio_verison"] = host["fio_version"];
  host.erase("state");
  json::object& w = doc["tests"].as_array()[0].as_object()["workloads"].as_array()[0].as_object();
  w["iodepth"] = "4";
  w["hosts"].as_object().begin()->value().as_object()["a_key_of_a_newer_fio"] = 1;
  const ReportView v = decode_report(doc);
  EXPECT_TRUE(has_problem(v, ReportProblem::Kind::unknown_key, "hosts[0].fio_verison")) << problems_of(v.problems);
  EXPECT_TRUE(has_problem(v, ReportProblem::Kind::missing, "hosts[0].state")) << problems_of(v.problems);
  EXPECT_TRUE(has_problem(v, ReportProblem::Kind::wrong_type, "tests[0].workloads[0].iodepth")) << problems_of(v.problems);
  EXPECT_EQ(v.problems.size(), 3u) << problems_of(v.problems);
  ASSERT_TRUE(v.multi_host);
  EXPECT_FALSE(v.multi_host->tests[0].workloads[0].iodepth.has_value());
  EXPECT_EQ(v.multi_host->hosts[0].state, "");
}
