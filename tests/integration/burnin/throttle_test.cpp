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
      {"id": "middle", "workloads": [{"rw": "randread", "runtime": "16s"}]}
    ]})");
  write_file("p.json", R"({"name": "throttle-profile", "source": "test", "burnin": {"max_slowdown_pct": 50}, "limits": {}})");

  // The device's clock (slowdowns' start_s/end_s) starts a little after the process: seconds since
  // start() bound it from above.
  const auto t0 = std::chrono::steady_clock::now();
  auto since_start = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  start("run --suite " + file("s.json").string() + " --device " + dev + " --destroy-data " + dev + " --profile " + file("p.json").string() +
        " -q --out " + file("r.json").string());
  // After the write pass, 4 s at full speed for a baseline, 4 s at a few IOPS (each request 100 ms,
  // one at a time through the loop driver), then free again for the rest of the 16 s.
  auto generation_of_last_block = [&] {
    // The verification block's header (magic, ..., generation) read from the lab's backing file.
    std::ifstream in(slow.backing(), std::ios::binary);
    uint64_t words[4] = {};
    in.seekg(static_cast<std::streamoff>(size - 64 * 1024));
    in.read(reinterpret_cast<char*>(words), sizeof words);
    return words[0] == kMagic ? words[3] : 0;
  };
  EXPECT_TRUE(wait_until([&] { return generation_of_last_block() == 1; })) << log();
  std::this_thread::sleep_for(std::chrono::seconds(4));
  const double slow_from = since_start();
  slow.set_delay_ms(100);
  std::this_thread::sleep_for(std::chrono::seconds(4));
  slow.set_delay_ms(0);
  const double slow_to = since_start();
  EXPECT_EQ(wait(), 1) << log();

  auto r = report("r.json");
  const auto& d = r.at("devices").as_array().at(0).as_object();
  bool found = false;
  for (const auto& e : d.at("slowdowns").as_array()) {
    if (e.at("test").as_string() != "middle") continue;
    if (e.at("max_drop_pct").to_number<double>() < 80 || e.at("duration_s").to_number<double>() < 2) continue;
    // Judge the slowdown the test made. On a loaded machine the FUSE daemon (Python) is starved at
    // times too, and that is a real slowdown of this device, recorded as such: seen in CI, 94% for
    // 5 s at the end of the test, long after the delay was lifted. The device's clock lags the test's
    // by the run's start-up (well under the 3 s allowed here).
    const double from = e.at("start_s").to_number<double>(), to = e.at("end_s").to_number<double>();
    if (to < slow_from - 3 || from > slow_to + 1) {
      std::cout << "another slowdown, not the one made (" << slow_from << "-" << slow_to << " s): " << e << "\n";
      continue;
    }
    found = true;
    EXPECT_TRUE(e.at("recovered").as_bool()) << e;
    // Reads fill no cache and a loop device has no thermal sensor to blame: the slowdown is a stall
    // when its slowest interval fell to near zero (at most 1% of the baseline; how deep the delayed
    // requests push it depends on the machine's baseline), else unexplained.
    const bool near_zero = e.at("min_iops").to_number<double>() <= std::max(1.0, e.at("median_iops").to_number<double>() / 100);
    EXPECT_EQ(e.at("cause").as_string(), near_zero ? "stall" : "unexplained") << e;
  }
  EXPECT_TRUE(found) << d.at("slowdowns");
  EXPECT_NE(log().find("max_slowdown_pct 50"), std::string::npos) << log();
  EXPECT_EQ(d.at("verify").at("mismatches").to_number<uint64_t>(), 0u) << "slow is not wrong";
}
