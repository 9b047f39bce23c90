// check_plan_workloads: every workload of a suite, as it will run on each device of the plan, is
// validated before the first I/O (fake devices: null targets of a given size and sector size).
#include "runner/run/plan_check.hpp"

#include <gtest/gtest.h>

#include <string>

#include "suites/suite.hpp"

using namespace diskvet;
using namespace diskvet::runner;

namespace {

std::string suite_text(const std::string& second_workload, const std::string& precondition = R"({"enabled": false})") {
  return R"({"name": "plan", "region": "8m", "probe": {"enabled": false}, "precondition": )" + precondition + R"(,
    "steady_state": {"enabled": false}, "warmup": {"enabled": false},
    "defaults": {"runtime": "1s", "engine": "null", "interval": "0.1s"},
    "tests": [{"id": "first", "workloads": [{"rw": "randwrite", "bs": "4k"}]},
              {"id": "second", "workloads": [)" + second_workload + "]}]}";
}

RunPlan plan_for(const std::string& text, uint64_t size_bytes, uint32_t lbs) {
  auto suite = suites::parse_suite(text, "plan.json");
  EXPECT_TRUE(suite.ok()) << suite.error().message();
  RunPlan plan;
  if (suite.ok()) plan.suite = *suite;
  devices::Device dev;
  dev.path = "/dev/fake0";
  dev.size_bytes = size_bytes;
  plan.devices.push_back(DevicePlan{dev, Target::null(size_bytes, lbs), std::nullopt, "test", 0});
  return plan;
}

std::string refusal(const RunPlan& plan) {
  auto ok = check_plan_workloads(plan);
  EXPECT_FALSE(ok.ok());
  if (ok.ok()) return {};
  EXPECT_EQ(ok.error().exit_code(), 2);
  EXPECT_EQ(ok.error().message().find('\n'), std::string::npos);
  return ok.error().message();
}

}  // namespace

TEST(PlanCheck, APlanThatCanRunPasses) {
  EXPECT_TRUE(check_plan_workloads(plan_for(suite_text(R"({"rw": "randread", "bs": "4k"})"), 64u << 20, 4096)).ok());
}

TEST(PlanCheck, BlocksSmallerThanTheDevicesSectorsAreRefusedNamingDeviceAndTest) {
  const std::string text = suite_text(R"({"rw": "randread", "bs": "512"})");
  EXPECT_TRUE(check_plan_workloads(plan_for(text, 64u << 20, 512)).ok()) << "fine on 512-byte sectors";
  std::string e = refusal(plan_for(text, 64u << 20, 4096));
  EXPECT_NE(e.find("/dev/fake0"), std::string::npos) << e;
  EXPECT_NE(e.find("test second"), std::string::npos) << e;
  EXPECT_NE(e.find("4096"), std::string::npos) << e;
}

TEST(PlanCheck, ACpuTheHostLacksIsRefused) {
  std::string e = refusal(plan_for(suite_text(R"({"rw": "randread", "bs": "4k", "cpus_allowed": "1000"})"), 64u << 20, 512));
  EXPECT_NE(e.find("CPU 1000"), std::string::npos) << e;
}

TEST(PlanCheck, SequentialJobsTheRegionCannotHoldAreRefused) {
  // The suite's 8 MiB region holds 8 blocks of 1 MiB: not one for each of 16 sequential jobs.
  std::string e = refusal(plan_for(suite_text(R"({"rw": "read", "bs": "1m", "numjobs": 16})"), 64u << 20, 512));
  EXPECT_NE(e.find("16 jobs"), std::string::npos) << e;
}

TEST(PlanCheck, TheDurationOverrideIsCheckedAsTheRunWillUseIt) {
  RunPlan plan = plan_for(suite_text(R"({"rw": "randread", "bs": "4k"})"), 64u << 20, 512);
  plan.options.duration_s = 400 * 86400.0;
  std::string e = refusal(plan);
  EXPECT_NE(e.find("more than a year"), std::string::npos) << e;
}

TEST(PlanCheck, ThePreconditioningPassIsChecked) {
  // 12 KiB preconditioning blocks on a device of 8 KiB sectors cannot run; it is checked first.
  std::string e = refusal(plan_for(suite_text(R"({"rw": "randread", "bs": "16k"})", R"({"enabled": true, "capacities": 1, "bs": "12k"})"),
                                   64u << 20, 8192));
  EXPECT_NE(e.find("preconditioning"), std::string::npos) << e;
}

// A matrix (snia-iops) skips the cells whose blocks the device's sectors do not divide and runs the
// rest, so those cells are no reason to refuse the plan; its tracked cell must run.
TEST(PlanCheck, AMatrixCellTheSectorsDoNotDivideIsSkippedNotRefusedUnlessItIsTheTrackedOne) {
  auto matrix = [](const std::string& track_bs) {
    return R"({"name": "m", "region": "8m", "probe": {"enabled": false}, "precondition": {"enabled": false},
      "steady_state": {"enabled": false}, "warmup": {"enabled": false},
      "defaults": {"runtime": "1s", "engine": "null", "interval": "0.1s"},
      "tests": [{"id": "iops", "matrix": {"rwmixread": [100, 0], "bs": ["4k", "512"], "track": {"rwmixread": 0, "bs": ")" +
           track_bs + R"("}}}]})";
  };
  EXPECT_TRUE(check_plan_workloads(plan_for(matrix("4k"), 64u << 20, 4096)).ok());
  std::string e = refusal(plan_for(matrix("512"), 64u << 20, 4096));
  EXPECT_NE(e.find("4096"), std::string::npos) << e;
}
