// `diskvet run` exit codes end to end on an O_DIRECT scratch file (any user): verdicts fail closed.
// A read-only suite, so nothing but the scratch file this test made is ever opened.
#include <gtest/gtest.h>

#include "tests/support/run_lab.hpp"

using diskvet::testing::RunLab;

namespace {

// One short random-read test; "verify" on a workload the run cannot give a verification state to
// (nothing is written) makes that workload fail at its start, as an engine that cannot start does.
std::string suite_json(bool cannot_start) {
  return std::string(R"({
    "name": "exit-codes", "region": "8m",
    "probe": {"enabled": false}, "precondition": {"enabled": false}, "steady_state": {"enabled": false},
    "warmup": {"enabled": false},
    "defaults": {"runtime": "0.3s", "ramp": "0s", "engine": "psync", "interval": "0.1s"},
    "tests": [
      {"id": "randread", "workloads": [{"rw": "randread", "bs": "4k", "iodepth": 1}]})") +
         (cannot_start ? R"(,
      {"id": "cannot-start", "workloads": [{"rw": "read", "bs": "4k", "iodepth": 1, "verify": true}]})"
                       : "") +
         "]}";
}

const char* kEasyProfile = R"({"name": "easy", "source": "test",
  "limits": {"randread": {"read.iops": {"min": 1}}, "cannot-start": {"read.iops": {"min": 1}}}})";

}  // namespace

class RunExitCodes : public RunLab {
 protected:
  void SetUp() override {
    RunLab::SetUp();
    // 8 MiB of data (not a hole), read with O_DIRECT.
    std::ofstream(file("target.img"), std::ios::binary) << std::string(8u << 20, 'd');
    write_file("ok.json", suite_json(false));
    write_file("broken.json", suite_json(true));
    write_file("easy.json", kEasyProfile);
  }
  std::string run(const std::string& suite, const std::string& profile_args, const std::string& out) {
    return "run --suite " + file(suite).string() + " --device " + file("target.img").string() + " -q " + profile_args + " --out " +
           file(out).string();
  }
  bool direct_io_refused() {
    return log().find("refuses O_DIRECT") != std::string::npos;
  }
};

TEST_F(RunExitCodes, AJudgedPassExitsZero) {
  int rc = diskvet(run("ok.json", "--profile " + file("easy.json").string(), "pass.json"));
  if (direct_io_refused()) GTEST_SKIP() << "this file system refuses O_DIRECT";
  EXPECT_EQ(rc, 0) << log();
  EXPECT_EQ(report("pass.json").at("verdict").as_string(), "PASS");
}

TEST_F(RunExitCodes, NoProfileMatchedExitsFourAndTheReportSaysNotJudged) {
  int rc = diskvet(run("ok.json", "", "auto.json"));
  if (direct_io_refused()) GTEST_SKIP() << "this file system refuses O_DIRECT";
  EXPECT_EQ(rc, 4) << log();
  auto r = report("auto.json");
  EXPECT_EQ(r.at("verdict").as_string(), "NOT-JUDGED");
  EXPECT_EQ(r.at("exit_code").to_number<int>(), 4);
  const auto& d = r.at("devices").as_array().at(0).as_object();
  EXPECT_EQ(d.at("verdict").as_string(), "NOT-JUDGED");
  EXPECT_NE(log().find("OVERALL: NOT-JUDGED  (exit 4)"), std::string::npos) << log();
  // The saved report answers a script the same way.
  EXPECT_EQ(diskvet("report " + file("auto.json").string()), 4) << log();
}

TEST_F(RunExitCodes, MeasurementOnlyExitsZeroAndSaysSo) {
  int rc = diskvet(run("ok.json", "--profile none", "none.json"));
  if (direct_io_refused()) GTEST_SKIP() << "this file system refuses O_DIRECT";
  EXPECT_EQ(rc, 0) << log();
  auto r = report("none.json");
  EXPECT_TRUE(r.at("measurement_only").as_bool());
  EXPECT_EQ(r.at("profile").as_string(), "none");
  EXPECT_EQ(r.at("devices").as_array().at(0).at("verdict").as_string(), "NOT-JUDGED") << "measured, not judged: never a PASS";
  EXPECT_NE(log().find("measurement only (--profile none)"), std::string::npos) << log();
}

TEST_F(RunExitCodes, ATestThatCannotStartExitsThreeAndSaysWhyThoughTheOtherPassed) {
  int rc = diskvet(run("broken.json", "--profile " + file("easy.json").string(), "error.json"));
  if (direct_io_refused()) GTEST_SKIP() << "this file system refuses O_DIRECT";
  EXPECT_EQ(rc, 3) << log();
  auto r = report("error.json");
  EXPECT_EQ(r.at("verdict").as_string(), "ERROR");
  const auto& d = r.at("devices").as_array().at(0).as_object();
  EXPECT_EQ(d.at("tests").as_array().at(0).at("verdict").as_string(), "PASS");
  EXPECT_EQ(d.at("tests").as_array().at(1).at("verdict").as_string(), "ERROR");
  EXPECT_NE(log().find("cannot-start: the read workload could not run: "), std::string::npos) << log();
  EXPECT_EQ(diskvet("report " + file("error.json").string()), 3) << log();
  // Measurement only does not excuse a test that could not run.
  EXPECT_EQ(diskvet(run("broken.json", "--profile none", "error-none.json")), 3) << log();
}
