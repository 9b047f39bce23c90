// Required preconditioning cut short by --precondition-limit: the report says how much was written
// and the verdict is INCONCLUSIVE (exit 4), never PASS.
#include <gtest/gtest.h>

#include "tests/support/run_lab.hpp"

using diskvet::testing::RunLab;

namespace {
const char* kSuite = R"({
  "name": "capped",
  "probe": {"enabled": false},
  "precondition": {"enabled": true, "required": true, "capacities": 2, "bs": "128k", "iodepth": 8},
  "tests": [{"id": "latency-qd1", "workloads": [{"rw": "randwrite", "bs": "4k", "iodepth": 1, "runtime": "0.5s"}]}]
})";
const char* kProfile = R"({"name": "easy", "limits": {"latency-qd1": {"iops": {"min": 1}}}})";
}  // namespace

class CappedPreconditioning : public RunLab {};

TEST_F(CappedPreconditioning, IsReportedWithTheCapacitiesWrittenAndMakesTheRunInconclusive) {
  SKIP_UNLESS_LOOP_DEVICES();
  std::string dev = make_loop(1u << 30);
  ASSERT_FALSE(dev.empty());
  write_file("suite.json", kSuite);
  write_file("profile.json", kProfile);
  // 2 GiB in 0.1 s would take 20 GB/s: the cap ends it first.
  int rc = diskvet("run -q --suite " + file("suite.json").string() + " --profile " + file("profile.json").string() + " --device " + dev +
                   " --destroy-data " + dev + " --precondition-limit 0.1s --out " + file("r.json").string());
  EXPECT_EQ(rc, 4) << log();
  auto r = report("r.json");
  EXPECT_EQ(r.at("verdict").as_string(), "INCONCLUSIVE");
  const auto& pre = r.at("devices").as_array().at(0).at("precondition").as_object();
  EXPECT_TRUE(pre.at("performed").as_bool());
  EXPECT_TRUE(pre.at("capped").as_bool());
  EXPECT_FALSE(pre.at("completed").as_bool());
  double written = pre.at("capacities_written").to_number<double>();
  EXPECT_GT(written, 0);
  EXPECT_LT(written, 2);
  EXPECT_EQ(pre.at("bytes_written").to_number<double>(), written * (1u << 30));
  EXPECT_NE(log().find("preconditioning incomplete"), std::string::npos) << log();
}
