// Reports made by the real run path, on the null engine (no device, no root): a suite runs through
// run_suite on null targets that carry a drive's identity, and report_json turns the result into
// the document `diskvet run` writes. For the tests of the HTML page, compare and fleet, so they read
// what a run writes rather than hand-written JSON.
#pragma once

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runner/report/report_json.hpp"
#include "runner/run/suite_run.hpp"
#include "suites/profile.hpp"
#include "suites/suite.hpp"

namespace diskvet::testing {

// A short suite on the null engine: latency at QD1 both ways, a max-IOPS sweep with steady-state
// rounds before it, 0.05 s intervals.
inline const char* kNullSuite = R"({
  "name": "null-lab",
  "probe": {"enabled": false},
  "precondition": {"enabled": false},
  "steady_state": {"enabled": true, "required": false, "round": "0.1s", "window_rounds": 3, "max_rounds": 4},
  "defaults": {"runtime": "0.3s", "ramp": "0.05s", "engine": "null", "interval": "0.05s"},
  "tests": [
    {"id": "latency-qd1", "workloads": [{"rw": "randread", "iodepth": 1}, {"rw": "randwrite", "iodepth": 1}]},
    {"id": "max-iops", "sweep": {"steps": [{"iodepth": 1}, {"iodepth": 4}, {"iodepth": 16}]}, "workloads": [{"rw": "randread"}]}
  ]
})";

// Limits: the first two any null target meets, the third none does (a FAIL to show).
inline const char* kNullProfile = R"({
  "name": "null-profile", "source": "lab limits for the null engine",
  "limits": {
    "latency-qd1": {"read.lat_p99_us": {"max": 100000}, "write.lat_mean_us": {"max": 100000}},
    "max-iops": {"read.iops": {"min": 1e12}}
  }
})";

struct NullDrive {
  std::string path = "null";
  std::string model = "LAB-SSD", serial, firmware = "1.0";
  uint64_t size_bytes = 64u << 20;
  uint64_t rate_cap_iops = 0;  // a slower drive
  std::optional<devices::Health> health_before = std::nullopt, health_after = std::nullopt;
  // What the drive reports once its self-test after the run has ended; unset: health_after again.
  std::optional<devices::Health> health_after_self_test = std::nullopt;
  // The drive's self-test backend, made each time a self-test starts; unset: it has none.
  std::function<std::unique_ptr<devices::SelfTestDevice>()> self_test = {};
};

inline boost::json::object null_run_report(const std::vector<NullDrive>& drives, const char* suite_text = kNullSuite,
                                           const char* profile_text = kNullProfile, runner::Clock* sampler_clock = nullptr) {
  auto suite = suites::parse_suite(suite_text, "null-lab.json");
  EXPECT_TRUE(suite.ok()) << suite.error().message();
  std::optional<suites::Profile> profile;
  if (profile_text) {
    auto p = suites::parse_profile(profile_text, "null-profile.json");
    EXPECT_TRUE(p.ok()) << p.error().message();
    profile = *p;
  }
  runner::RunPlan plan;
  plan.suite = *suite;
  for (const auto& d : drives) {
    devices::Device dev;
    dev.path = d.path;
    dev.model = d.model;
    dev.serial = d.serial;
    dev.firmware = d.firmware;
    dev.size_bytes = d.size_bytes;
    plan.devices.push_back(runner::DevicePlan{dev, runner::Target::null(d.size_bytes), profile, "named by the test", d.rate_cap_iops});
  }
  // Health as a drive would report it: before and after differ when the test says so.
  std::vector<int> calls(drives.size(), 0);
  runner::RunHooks hooks;
  hooks.sampler_clock = sampler_clock;
  hooks.read_health = [&](const devices::Device& dev) -> std::optional<devices::Health> {
    for (size_t i = 0; i < drives.size(); ++i)
      if (drives[i].serial == dev.serial && drives[i].path == dev.path)
        switch (calls[i]++) {
          case 0: return drives[i].health_before;
          case 1: return drives[i].health_after;
          default: return drives[i].health_after_self_test ? drives[i].health_after_self_test : drives[i].health_after;
        }
    return std::nullopt;
  };
  hooks.self_test = [&](const devices::Device& dev) -> std::unique_ptr<devices::SelfTestDevice> {
    for (const auto& d : drives)
      if (d.serial == dev.serial && d.path == dev.path && d.self_test) return d.self_test();
    return nullptr;
  };
  runner::RunEvents quiet;
  runner::RunResult r = runner::run_suite(plan, hooks, quiet);
  return runner::report_json(r, runner::probe_host());
}

}  // namespace diskvet::testing
