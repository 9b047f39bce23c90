// Three loop devices of one model, one rate-capped: only the slow one is flagged as an outlier.
#include <gtest/gtest.h>

#include "lab.hpp"

using namespace suites_lab;

namespace {
const char* kSuite = R"({
  "name": "outlier-check",
  "description": "one short QD1 random-read test",
  "probe": {"enabled": false},
  "tests": [{"id": "latency-qd1", "workloads": [{"rw": "randread", "bs": "4k", "iodepth": 1, "runtime": "1s"}]}]
})";
}  // namespace

class Outliers : public Lab {};

TEST_F(Outliers, FlagsTheRateCappedDeviceAmongThree) {
  SKIP_UNLESS_LOOP_DEVICES();
  std::vector<std::string> devs;
  for (int i = 0; i < 3; ++i) devs.push_back(make_loop(64u << 20));
  for (const auto& d : devs) ASSERT_FALSE(d.empty());
  write_file("suite.json", kSuite);
  std::string args = "run --suite " + file("suite.json").string() + " -q --out " + file("r.json").string();
  for (const auto& d : devs) args += " --device " + d;
  // Loop devices answer QD1 reads in tens of microseconds: 200 IOPS is far more than 10% worse.
  args += " --rate-cap " + devs[2] + "=200";
  EXPECT_EQ(diskvet(args), 0) << log();
  auto r = report("r.json");
  const auto& out = r.at("devices").as_array();
  ASSERT_EQ(out.size(), 3u);
  EXPECT_TRUE(out[0].at("outliers").as_array().empty()) << boost::json::serialize(out[0].at("outliers"));
  EXPECT_TRUE(out[1].at("outliers").as_array().empty()) << boost::json::serialize(out[1].at("outliers"));
  const auto& flagged = out[2].at("outliers").as_array();
  ASSERT_FALSE(flagged.empty()) << log();
  EXPECT_EQ(flagged[0].at("metric").as_string(), "workloads[0].read.iops");
  EXPECT_GT(flagged[0].at("worse_pct").to_number<double>(), 10);
  EXPECT_NE(log().find("OUTLIER"), std::string::npos) << log();
}
