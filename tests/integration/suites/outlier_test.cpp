// Three loop devices of one model, one rate-capped: only the slow one is flagged as an outlier.
#include <gtest/gtest.h>

#include "tests/support/run_lab.hpp"

using diskvet::testing::RunLab;

namespace {
const char* kSuite = R"({
  "name": "outlier-check",
  "description": "one short QD1 random-read test",
  "probe": {"enabled": false},
  "tests": [{"id": "latency-qd1", "workloads": [{"rw": "randread", "bs": "4k", "iodepth": 1, "runtime": "1s"}]}]
})";
}  // namespace

class OutlierRun : public RunLab {};

TEST_F(OutlierRun, FlagsTheRateCappedDeviceAmongThree) {
  SKIP_UNLESS_LOOP_DEVICES();
  std::vector<std::string> devs;
  for (int i = 0; i < 3; ++i) devs.push_back(make_loop(64u << 20));
  for (const auto& d : devs) ASSERT_FALSE(d.empty());
  write_file("suite.json", kSuite);
  // Measurement only: the outliers are the subject, no limits are judged (and none would match).
  std::string args = "run --suite " + file("suite.json").string() + " --profile none -q --out " + file("r.json").string();
  for (const auto& d : devs) args += " --device " + d;
  // Loop devices answer QD1 reads in tens of microseconds: 200 IOPS is far more than 10% worse.
  args += " --rate-cap " + devs[2] + "=200";
  EXPECT_EQ(diskvet(args), 0) << log();
  auto r = report("r.json");
  const auto& out = r.at("devices").as_array();
  ASSERT_EQ(out.size(), 3u);
  // IOPS only: with one capped device the median is the slower of the two others, so neither of them
  // can be 10% below it. (p99 is compared too, but on a shared host its noise is no test material.)
  auto iops_flags = [](const boost::json::value& dev) {
    std::vector<double> worse;
    for (const auto& o : dev.at("outliers").as_array())
      if (o.at("metric").as_string() == "workloads[0].read.iops") worse.push_back(o.at("worse_pct").to_number<double>());
    return worse;
  };
  EXPECT_TRUE(iops_flags(out[0]).empty()) << boost::json::serialize(out[0].at("outliers"));
  EXPECT_TRUE(iops_flags(out[1]).empty()) << boost::json::serialize(out[1].at("outliers"));
  auto flagged = iops_flags(out[2]);
  ASSERT_EQ(flagged.size(), 1u) << log();
  EXPECT_GT(flagged[0], 10);
  EXPECT_NE(log().find("OUTLIER"), std::string::npos) << log();
}
