// `diskvet compare` and `diskvet fleet` as a user runs them, on sealed reports made by the real run
// path (null engine): the exit codes a maintenance window or a purchasing check gates on, and the
// HTML and CSV files written.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "runner/report/report_file.hpp"
#include "tests/support/hosts_report.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/null_run_report.hpp"

namespace fs = std::filesystem;
namespace dvt = diskvet::testing;

namespace {

const char* kPassable = R"({"name": "null-5k", "source": "test", "limits": {"max-iops": {"read.iops": {"min": 5000}}}})";

class CompareFleetCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("diskvet-cli-" + std::to_string(getpid()) + "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string save(const std::string& name, const boost::json::object& doc) {
    const fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << diskvet::runner::seal_report(doc) << "\n";
    return p.string();
  }
  dvt::CommandResult diskvet(const std::string& args) { return dvt::run_command(dvt::words(std::string(DISKVET_BIN) + " " + args)); }
  static std::string read(const fs::path& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  fs::path dir_;
};

}  // namespace

TEST_F(CompareFleetCli, CompareExitsOneOnARegressionAndZeroWithout) {
  const std::string before = save("before.json", dvt::null_run_report({{.serial = "SN-A", .rate_cap_iops = 20000}}, dvt::kNullSuite, kPassable));
  const std::string slower = save("after.json", dvt::null_run_report({{.serial = "SN-A", .rate_cap_iops = 2000}}, dvt::kNullSuite, kPassable));
  auto same = diskvet("compare " + before + " " + before + " --max-regression-pct 5 --html " + (dir_ / "same.html").string());
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("no regression beyond 5%"), std::string::npos) << same.out;
  EXPECT_NE(read(dir_ / "same.html").find("<h1>diskvet compare</h1>"), std::string::npos);
  auto worse = diskvet("compare " + before + " " + slower + " --max-regression-pct 20 --metric iops");
  EXPECT_EQ(worse.exit_code, 1) << worse.out << worse.err;
  EXPECT_NE(worse.out.find("REGRESSION: "), std::string::npos) << worse.out;
  EXPECT_NE(worse.out.find("matched by serial"), std::string::npos);
}

TEST_F(CompareFleetCli, CompareRefusesWhatIsNotAReportAndNeedsTwo) {
  const std::string ok = save("ok.json", dvt::null_run_report({{.serial = "SN-A"}}));
  std::ofstream(dir_ / "junk.json") << "{\"hello\": 1}";
  EXPECT_EQ(diskvet("compare " + ok + " " + (dir_ / "junk.json").string()).exit_code, 2);
  EXPECT_EQ(diskvet("compare " + ok).exit_code, 2);
  EXPECT_EQ(diskvet("compare " + ok + " " + ok + " --metric nonsense").exit_code, 2);
}

TEST_F(CompareFleetCli, AGateThatComparedNothingExitsFourAndAMultiHostReportIsRefused) {
  const std::string ok = save("ok.json", dvt::null_run_report({{.serial = "SN-A"}}, dvt::kNullSuite, kPassable));
  boost::json::object empty = dvt::null_run_report({{.serial = "SN-A"}}, dvt::kNullSuite, kPassable);
  empty["devices"] = boost::json::array();
  const std::string none = save("none.json", empty);
  auto r = diskvet("compare " + ok + " " + none + " --max-regression-pct 5");
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.out.find("NOTHING COMPARED"), std::string::npos) << r.out;
  // A multi-host report has no drives to match: compare (against a per-drive report) and fleet say what it is instead of judging nothing.
  boost::json::object hosts = {{"schema", "diskvet-report/2"}, {"kind", "diskvet-hosts-report"}, {"suite", "quick"}, {"verdict", "PASS"}};
  const std::string multi = save("hosts.json", hosts);
  auto c = diskvet("compare " + ok + " " + multi);
  EXPECT_EQ(c.exit_code, 2) << c.out << c.err;
  EXPECT_NE(c.err.find("multi-host report"), std::string::npos) << c.err;
  auto f = diskvet("fleet " + multi);
  EXPECT_EQ(f.exit_code, 2) << f.out << f.err;
  EXPECT_NE(f.err.find("multi-host report"), std::string::npos) << f.err;
}

TEST_F(CompareFleetCli, TwoMultiHostReportsCompareByTestAndHostNameAndGateLikeDrives) {
  const std::string before = save("before.json", dvt::hosts_report(DISKVET_UNIT_DATA));
  const std::string slower = save("after.json", dvt::hosts_report(DISKVET_UNIT_DATA, {.slower = {{"h2", 0.5}}}));
  auto same = diskvet("compare " + before + " " + before + " --max-regression-pct 5 --html " + (dir_ / "same.html").string());
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("no regression beyond 5%"), std::string::npos) << same.out;
  EXPECT_NE(same.out.find("all hosts merged  vs  all hosts merged"), std::string::npos) << same.out;
  EXPECT_NE(read(dir_ / "same.html").find("Multi-host reports"), std::string::npos);
  auto worse = diskvet("compare " + before + " " + slower + " --max-regression-pct 20 --metric iops --html " + (dir_ / "worse.html").string());
  EXPECT_EQ(worse.exit_code, 1) << worse.out << worse.err;
  EXPECT_NE(worse.out.find("REGRESSION: all hosts merged: randread-qd4"), std::string::npos) << worse.out;
  EXPECT_NE(worse.out.find("REGRESSION: host h2: randread-qd4"), std::string::npos) << worse.out;
  EXPECT_EQ(worse.out.find("REGRESSION: host h1"), std::string::npos) << worse.out;
  EXPECT_NE(read(dir_ / "worse.html").find("regressions found"), std::string::npos);
  // A host in one report only is listed; a run that measured nothing compares nothing (exit 4).
  const std::string renamed = save("renamed.json", dvt::hosts_report(DISKVET_UNIT_DATA, {.name = {{"h2", "h3"}}}));
  auto other = diskvet("compare " + before + " " + renamed);
  EXPECT_EQ(other.exit_code, 0) << other.out << other.err;
  EXPECT_NE(other.out.find("unmatched: host h3 only in " + renamed), std::string::npos) << other.out;
  boost::json::object refused = dvt::hosts_report(DISKVET_UNIT_DATA);
  refused["tests"] = boost::json::array();
  auto none = diskvet("compare " + before + " " + save("refused.json", refused) + " --max-regression-pct 5");
  EXPECT_EQ(none.exit_code, 4) << none.out << none.err;
  EXPECT_NE(none.out.find("NOTHING COMPARED"), std::string::npos) << none.out;
  // Mixed with a per-drive report, in either order: refused, saying why.
  const std::string drives = save("drives.json", dvt::null_run_report({{.serial = "SN-A"}}, dvt::kNullSuite, kPassable));
  for (const std::string& args : {drives + " " + before, before + " " + drives}) {
    auto mixed = diskvet("compare " + args);
    EXPECT_EQ(mixed.exit_code, 2) << mixed.out << mixed.err;
    EXPECT_NE(mixed.err.find(before + ": is a multi-host report ('diskvet run --hosts') and " + drives + " a per-drive report"), std::string::npos)
        << mixed.err;
  }
}

TEST_F(CompareFleetCli, FleetReadsAFolderOfReportsWritesHtmlAndCsvAndExitsOneOnAnOutlier) {
  const uint64_t cap = 20000;
  save("rack/host1/r.json", dvt::null_run_report({{.path = "a", .serial = "A", .rate_cap_iops = cap}, {.path = "b", .serial = "B", .rate_cap_iops = cap}},
                                                 dvt::kNullSuite, kPassable));
  save("rack/host2/r.json", dvt::null_run_report({{.path = "c", .serial = "C", .rate_cap_iops = cap}, {.path = "d", .serial = "D", .rate_cap_iops = 3000}},
                                                 dvt::kNullSuite, kPassable));
  std::ofstream(dir_ / "rack" / "notes.json") << "[1, 2]";  // not a report: named and skipped
  auto r = diskvet("fleet " + (dir_ / "rack").string() + " --html " + (dir_ / "fleet.html").string() + " --csv " + (dir_ / "fleet.csv").string());
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("skipped"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("fleet: 4 drive(s) in 1 group(s)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("OUTLIER"), std::string::npos) << r.out;
  // Each file is named for what it is.
  EXPECT_NE(r.out.find("html: " + (dir_ / "fleet.html").string() + "\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("csv: " + (dir_ / "fleet.csv").string() + "\n"), std::string::npos) << r.out;
  const std::string csv = read(dir_ / "fleet.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5) << csv;
  EXPECT_NE(read(dir_ / "fleet.html").find("<h1>diskvet fleet"), std::string::npos);
  EXPECT_EQ(diskvet("fleet " + (dir_ / "nothing-here").string()).exit_code, 2);
}

// `diskvet report` reads a report through its schema: a sealed report of a real run has nothing it
// cannot read, and says nothing; one whose keys are missing or unknown to it (a hand edit, a newer
// diskvet) is still printed, with a warning naming each such part, and the run's exit code.
TEST_F(CompareFleetCli, ReportNamesWhatItCouldNotReadAndStillPrints) {
  boost::json::object doc = dvt::null_run_report({{.serial = "SN-A", .rate_cap_iops = 20000}}, dvt::kNullSuite, kPassable);
  const std::string clean = save("clean.json", doc);
  const int run_exit = static_cast<int>(doc.at("exit_code").as_int64());
  auto ok = diskvet("report " + clean);
  EXPECT_EQ(ok.exit_code, run_exit) << ok.out << ok.err;
  EXPECT_EQ(ok.err, "") << "a report this diskvet wrote reads whole";
  EXPECT_NE(ok.out.find("SN-A"), std::string::npos) << ok.out;
  boost::json::object& device = doc["devices"].as_array().at(0).as_object();
  ASSERT_TRUE(device.erase("verdict"));
  device["verdcit"] = "PASS";  // a misspelling: an unknown key, never taken for the verdict
  const std::string edited = save("edited.json", doc);
  auto warned = diskvet("report " + edited);
  EXPECT_EQ(warned.exit_code, run_exit) << "the run's own exit code: " << warned.err;
  EXPECT_NE(warned.err.find("WARNING: 2 part(s) of the report could not be read"), std::string::npos) << warned.err;
  EXPECT_NE(warned.err.find("devices[0].verdict: missing"), std::string::npos) << warned.err;
  EXPECT_NE(warned.err.find("devices[0].verdcit: unknown key"), std::string::npos) << warned.err;
  EXPECT_NE(warned.out.find("SN-A"), std::string::npos) << "still printed: " << warned.out;
}

// compare and fleet read reports through the same schema as `diskvet report`: what they could not
// read (a field a comparison would have taken as zero) is named on stderr, for each report, and the
// comparison still runs on what was recorded. A multi-host report is read the same way.
TEST_F(CompareFleetCli, CompareAndFleetNameWhatTheyCouldNotRead) {
  boost::json::object doc = dvt::null_run_report({{.serial = "SN-A", .rate_cap_iops = 20000}}, dvt::kNullSuite, kPassable);
  const std::string clean = save("clean.json", doc);
  boost::json::object& device = doc["devices"].as_array().at(0).as_object();
  device["serail"] = device.at("serial");
  const std::string edited = save("edited.json", doc);
  auto c = diskvet("compare " + clean + " " + edited);
  EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
  EXPECT_NE(c.err.find(edited + ": WARNING: 1 part(s) of the report could not be read"), std::string::npos) << c.err;
  EXPECT_NE(c.err.find("devices[0].serail: unknown key"), std::string::npos) << c.err;
  EXPECT_EQ(c.err.find(clean + ":"), std::string::npos) << "the clean report reads whole: " << c.err;
  auto f = diskvet("fleet " + clean + " " + edited);
  EXPECT_NE(f.err.find("devices[0].serail: unknown key"), std::string::npos) << f.err;

  boost::json::object hosts = dvt::hosts_report(DISKVET_UNIT_DATA);
  const std::string hosts_clean = save("hosts-clean.json", hosts);
  hosts["tests"].as_array().at(0).as_object()["workloads"].as_array().at(0).as_object()["bs_bytes"] = "4k";
  const std::string hosts_edited = save("hosts-edited.json", hosts);
  auto h = diskvet("compare " + hosts_clean + " " + hosts_edited);
  EXPECT_NE(h.err.find("tests[0].workloads[0].bs_bytes: wrong type"), std::string::npos) << h.err;
  EXPECT_EQ(h.err.find(hosts_clean + ":"), std::string::npos) << h.err;
  auto r = diskvet("report " + hosts_edited);
  EXPECT_NE(r.err.find("tests[0].workloads[0].bs_bytes: wrong type"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("diskvet multi-host run"), std::string::npos) << r.out;
}
