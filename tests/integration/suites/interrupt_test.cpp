// SIGINT ends a suite run at once, not at the end of the running step's interval, and the report
// says the run was interrupted. A read-only suite on an O_DIRECT scratch file (any user).
#include <gtest/gtest.h>

#include <chrono>

#include "tests/support/run_lab.hpp"

using diskvet::testing::RunLab;

class RunInterrupt : public RunLab {};

TEST_F(RunInterrupt, SigintEndsASuiteRunWithinAFractionOfTheInterval) {
  std::ofstream(file("target.img"), std::ios::binary) << std::string(8u << 20, 'd');
  write_file("long.json", R"({
    "name": "long", "region": "8m",
    "probe": {"enabled": false}, "precondition": {"enabled": false}, "steady_state": {"enabled": false},
    "warmup": {"enabled": false},
    "defaults": {"runtime": "60s", "ramp": "0s", "engine": "psync", "interval": "5s"},
    "tests": [{"id": "randread", "workloads": [{"rw": "randread", "bs": "4k", "iodepth": 1}]}]})");
  // The step's observer used to pass the signal on only at the next interval: 5 s here.
  auto t0 = std::chrono::steady_clock::now();
  log_ = file("diskvet.log");
  const int rc = diskvet::testing::run_command({DISKVET_BINARY, "run", "--suite", file("long.json").string(), "--device", file("target.img").string(),
                                               "-q", "--profile", "none", "--out", file("r.json").string()},
                                              {.interrupt_after_ms = 1500, .output_file = log_.string()})
                     .exit_code;
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (log().find("refuses O_DIRECT") != std::string::npos) GTEST_SKIP() << "this file system refuses O_DIRECT";
  EXPECT_EQ(rc, 3) << log();
  EXPECT_LT(s, 1.5 + 1.0) << "seconds from start to exit, SIGINT at 1.5 s";
  auto r = report("r.json");
  EXPECT_FALSE(r.at("complete").as_bool());
  EXPECT_NE(std::string(r.at("aborted").as_string()).find("interrupted"), std::string::npos) << r.at("aborted");
}
