// The throttling detector on a real run: a loop device over the stall lab's FUSE file system, slowed
// to a few IOPS mid-run (each request delayed), then freed, shows a slowdown event, and a profile's
// max_slowdown_pct fails the device for it. (It replaces a blkio cgroup v1 throttle, which Debian 12's
// cgroup v2 hosts never had: that test always skipped.)
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <optional>
#include <vector>

#include "burnin_lab.hpp"
#include "stall_lab.hpp"

using namespace burnin_lab;

namespace {
// The middle test's first requests are served at full speed for a baseline: at least 1000 requests
// and 5 s of the device's clock (10 of the detector's intervals, whatever the machine's speed or
// load); then requests delayed 100 ms each, one at a time: about 4 s of the device's clock at a few
// IOPS; then full speed again for the rest of the 24 s test.
constexpr uint64_t kBaselineRequests = 1000;
constexpr double kBaselineS = 5;
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
      {"id": "middle", "workloads": [{"rw": "randread", "runtime": "24s"}]}
    ]})");
  write_file("p.json", R"({"name": "throttle-profile", "source": "test", "burnin": {"max_slowdown_pct": 50}, "limits": {}})");

  start("run --suite " + file("s.json").string() + " --device " + dev + " --destroy-data " + dev + " --profile " + file("p.json").string() +
        " --out " + file("r.json").string());
  // Once the middle test runs, the device serves its baseline at full speed, then kSlowRequests each
  // delayed 100 ms, then full speed again. It records when it slowed and when it was fast again.
  const bool middle = wait_for_line("[" + dev + "] measure middle");
  if (middle) slow.delay_requests(kBaselineRequests, kSlowRequests, 100, kBaselineS);
  const auto slow_from = slow.wait_for_event("delay-start", 120, [&] { return ended(); });
  const auto slow_to = slow.wait_for_event("delay-end", 120, [&] { return ended(); });
  const int rc = wait();
  ASSERT_TRUE(middle) << "the run never reached the middle test:\n" << log();
  EXPECT_EQ(rc, 1) << log();
  ASSERT_TRUE(slow_from && slow_to) << "the device was never slowed (the test ended first?):\n" << slow.events_text() << log();

  auto r = report("r.json");
  const auto& d = r.at("devices").as_array().at(0).as_object();
  // The device's own record of the rate it served (requests a second of its clock): over its
  // baseline, and over the last 3 s it recorded. On a loaded machine the run itself can be starved
  // (the FUSE daemon runs ahead of other load, diskvet does not), and then the device really served
  // less until the end: no recovery to see. Recovery is judged when the device's record shows it.
  const auto events = slow.events();
  std::optional<StallLoop::Event> armed;
  std::vector<StallLoop::Event> counts;
  for (const auto& e : events) {
    if (e.what == "armed") armed = e;
    if (e.what == "count" && e.mono_s > slow_to->mono_s) counts.push_back(e);
  }
  ASSERT_TRUE(armed) << slow.events_text();
  const double baseline_rate = static_cast<double>(slow_from->request - armed->request) / (slow_from->mono_s - armed->mono_s);
  double tail_rate = 0;
  if (counts.size() >= 2) {
    size_t first = counts.size() - 1;
    while (first > 0 && counts.back().mono_s - counts[first - 1].mono_s <= 3) --first;
    if (first == counts.size() - 1 && first > 0) --first;
    tail_rate = static_cast<double>(counts.back().request - counts[first].request) / (counts.back().mono_s - counts[first].mono_s);
  }
  const bool device_recovered = tail_rate >= 0.8 * baseline_rate;  // the detector calls 70% of its median slow
  std::cout << "the device served " << baseline_rate << " requests/s over its baseline, " << tail_rate << " over its last 3 s\n";

  // The slowdowns the profile fails (deep and long enough) in the middle test: the one the device
  // made must be among them, recovered from when the device's record shows it served at its baseline
  // rate again by the end.
  bool found = false, recovered = false;
  for (const auto& e : d.at("slowdowns").as_array()) {
    if (e.at("test").as_string() != "middle") continue;
    if (e.at("max_drop_pct").to_number<double>() < 80 || e.at("duration_s").to_number<double>() < 2) continue;
    found = true;
    if (!e.at("recovered").as_bool()) {
      std::cout << "a slowdown not recovered from by the end of the test: " << e << "\n";
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
  if (device_recovered) {
    EXPECT_TRUE(recovered) << d.at("slowdowns") << "\n" << slow.events_text();
  } else {
    std::cout << "recovery not judged: the device itself served less at the end than over its baseline\n" << slow.events_text();
  }
  EXPECT_NE(log().find("max_slowdown_pct 50"), std::string::npos) << log();
  EXPECT_EQ(d.at("verify").at("mismatches").to_number<uint64_t>(), 0u) << "slow is not wrong";
}
