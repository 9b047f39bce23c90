// SIGINT ends a suite run at once, not at the end of the running step's interval, and the report
// says the run was interrupted. A read-only suite on an O_DIRECT scratch file (any user).
#include <gtest/gtest.h>

#include "tests/support/run_lab.hpp"

using diskvet::testing::RunLab;

class RunInterrupt : public RunLab {};

TEST_F(RunInterrupt, SigintEndsASuiteRunWithinAFractionOfTheInterval) {
  std::ofstream(file("target.img"), std::ios::binary) << std::string(8u << 20, 'd');
  write_file("long.json", R"({
    "name": "long", "region": "8m",
    "probe": {"enabled": false}, "precondition": {"enabled": false}, "steady_state": {"enabled": false},
    "warmup": {"enabled": false},
    "defaults": {"runtime": "600s", "ramp": "0s", "engine": "psync", "interval": "120s"},
    "tests": [{"id": "randread", "workloads": [{"rw": "randread", "bs": "4k", "iodepth": 1}]}]})");
  // The step's observer used to pass the signal on only at the next interval: 120 s here, so an exit
  // within a quarter of it tells "at once" from "at the interval" on the busiest machine.
  log_ = file("diskvet.log");
  const auto run = diskvet::testing::run_command(
      {DISKVET_BINARY, "run", "--suite", file("long.json").string(), "--device", file("target.img").string(), "--profile", "none", "--out",
       file("r.json").string()},
      {.interrupt_when = diskvet::testing::file_holds(log_.string(), {"measure randread"}), .output_file = log_.string()});
  if (log().find("refuses O_DIRECT") != std::string::npos) GTEST_SKIP() << "this file system refuses O_DIRECT";
  EXPECT_EQ(run.exit_code, 3) << log();
  EXPECT_LT(run.exit_after_interrupt_ms, 30000) << "from SIGINT to exit, with an interval of 120 s";
  auto r = report("r.json");
  EXPECT_FALSE(r.at("complete").as_bool());
  EXPECT_NE(std::string(r.at("aborted").as_string()).find("interrupted"), std::string::npos) << r.at("aborted");
}
