// The throttling detector on a real run: a loop device over the stall lab's FUSE file system, slowed
// to a few IOPS mid-run (each request delayed), then freed, shows a slowdown event, and a profile's
// max_slowdown_pct fails the device for it. (It replaces a blkio cgroup v1 throttle, which Debian 12's
// cgroup v2 hosts never had: that test always skipped.)
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>

#include "burnin_lab.hpp"
#include "stall_lab.hpp"

using namespace burnin_lab;

namespace {
// Requests of the middle test served at full speed before the slowdown. The lab's daemon sees
// about 7500 requests a second here (2500 64 KiB reads, each some FUSE requests) on the 2-core CI
// machine, so about 5 s of baseline there, the detector's 5 intervals (2.5 s) up to a machine twice
// as fast, and on one three times slower still 10 s left of the 30 s test after the slowdown. Then
// requests delayed 100 ms each, one at a time: about 4 s of the device's clock at a few IOPS.
constexpr uint64_t kBaselineRequests = 40000;
constexpr uint64_t kSlowRequests = 40;
}  // namespace

class BurninThrottling : public Lab {};

TEST_F(BurninThrottling, ALoopDeviceSlowedMidRunShowsASlowdownThatTheProfileFails) {
  SKIP_UNLESS_LOOP_DEVICES();
  const uint64_t size = 16u << 20;
  StallLoop slow(dir_ / "lab", size);
  if (!slow.valid()) GTEST_SKIP() << slow.why();
  std::string dev = slow.path();
  write_file("s.json", R"({"name": "throttle-it", "probe": {"enabled": false},
    "monitor": {"slowdowns": true, "slowdown_drop_pct": 30, "slowdown_min": "2s", "slowdown_median_window": 20},
    "defaults": {"bs": "64k", "verify": true, "iodepth": 16, "ramp": "0s", "interval": "0.5s"},
    "tests": [
      {"id": "write", "passes": 1, "workloads": [{"rw": "write"}]},
      {"id": "middle", "workloads": [{"rw": "randread", "runtime": "30s"}]}
    ]})");
  write_file("p.json", R"({"name": "throttle-profile", "source": "test", "burnin": {"max_slowdown_pct": 50}, "limits": {}})");

  start("run --suite " + file("s.json").string() + " --device " + dev + " --destroy-data " + dev + " --profile " + file("p.json").string() +
        " --out " + file("r.json").string());
  // Once the middle test runs, the device serves kBaselineRequests at full speed (a baseline of some
  // seconds), then kSlowRequests each delayed 100 ms (one at a time through the loop driver: a few
  // IOPS for about 4 s of the device's clock), then full speed again for the rest of the test. The
  // device records when it slowed and when it was fast again.
  ASSERT_TRUE(wait_for_line("[" + dev + "] measure middle")) << log();
  slow.delay_requests(kBaselineRequests, kSlowRequests, 100);
  const auto slow_from = slow.wait_for_event("delay-start");
  const auto slow_to = slow.wait_for_event("delay-end");
  EXPECT_EQ(wait(), 1) << log();
  ASSERT_TRUE(slow_from && slow_to) << "the device was never slowed (the test ended first?):\n" << slow.events_text() << log();

  auto r = report("r.json");
  const auto& d = r.at("devices").as_array().at(0).as_object();
  // The slowdowns the profile fails (deep and long enough) in the middle test. On a loaded machine
  // the FUSE daemon (Python) can be starved at times too, and that is a real slowdown of this device,
  // recorded as such (seen in CI: 94% for 5 s at the end of the test); the one the device made must
  // be among them, recovered from: the device was fast again for the rest of the test.
  bool found = false, recovered = false;
  for (const auto& e : d.at("slowdowns").as_array()) {
    if (e.at("test").as_string() != "middle") continue;
    if (e.at("max_drop_pct").to_number<double>() < 80 || e.at("duration_s").to_number<double>() < 2) continue;
    found = true;
    if (!e.at("recovered").as_bool()) {
      std::cout << "a slowdown not recovered from by the end of the test: " << e << "\n" << slow.events_text();
      continue;
    }
    recovered = true;
    // Reads fill no cache and a loop device has no thermal sensor to blame: the slowdown is a stall
    // when its slowest interval fell to near zero (at most 1% of the baseline; how deep the delayed
    // requests push it depends on the machine's baseline), else unexplained.
    const bool near_zero = e.at("min_iops").to_number<double>() <= std::max(1.0, e.at("median_iops").to_number<double>() / 100);
    EXPECT_EQ(e.at("cause").as_string(), near_zero ? "stall" : "unexplained") << e;
  }
  EXPECT_TRUE(found) << d.at("slowdowns") << "\n" << slow.events_text();
  EXPECT_TRUE(recovered) << d.at("slowdowns") << "\n" << slow.events_text();
  EXPECT_NE(log().find("max_slowdown_pct 50"), std::string::npos) << log();
  EXPECT_EQ(d.at("verify").at("mismatches").to_number<uint64_t>(), 0u) << "slow is not wrong";
}
