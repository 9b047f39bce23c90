// The per-I/O watchdog on real block devices: two loop devices run in parallel, one of them over the
// stall lab's FUSE file system, which holds every request for a while mid-run. The held device FAILs
// naming the stall (LBA, how long it was out); one held past the hard deadline is abandoned while
// the hold lasts, and the run still ends and writes its report; the other device PASSes.
#include <gtest/gtest.h>

#include <time.h>

#include <atomic>
#include <cstdlib>

#include "burnin_lab.hpp"
#include "stall_lab.hpp"

using namespace burnin_lab;

namespace {

// 4 KiB random writes, then reads, at QD4; the devices' limits are easy so the healthy one PASSes.
std::string suite(const std::string& io_timeout, const std::string& io_grace) {
  return R"({"name": "stall-it", "probe": {"enabled": false},
    "defaults": {"bs": "4k", "iodepth": 4, "ramp": "0s", "interval": "0.5s", "io_timeout": ")" +
         io_timeout + R"(", "io_grace": ")" + io_grace + R"("},
    "tests": [
      {"id": "randwrite", "workloads": [{"rw": "randwrite", "runtime": "8s"}]},
      {"id": "randread", "workloads": [{"rw": "randread", "runtime": "2s"}]}
    ]})";
}
// Seconds of the kernel's clock since it last logged a line holding `needle` (a large number when
// none is in its log). dmesg stamps lines with the kernel's local clock, CLOCK_MONOTONIC here.
double kernel_quiet_s(const std::string& needle) {
  double last = -1;
  for (const auto& line : kernel_lines())
    if (line.find(needle) != std::string::npos && line.starts_with("[")) last = std::atof(line.c_str() + 1);
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return last < 0 ? 1e9 : static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9 - last;
}

const char* kProfile = R"({"name": "easy", "limits": {"randwrite": {"iops": {"min": 1}}, "randread": {"iops": {"min": 1}}}})";

}  // namespace

class Watchdog : public Lab {};

TEST_F(Watchdog, AnIoHeldPastIoTimeoutFailsItsDeviceNamingTheStallWhileTheOtherDevicePasses) {
  SKIP_UNLESS_LOOP_DEVICES();
  StallLoop stalled(dir_ / "lab", 16u << 20);
  if (!stalled.valid()) GTEST_SKIP() << stalled.why();
  std::string healthy = make_loop(16u << 20);
  ASSERT_FALSE(healthy.empty());
  write_file("s.json", suite("1s", "30s"));
  write_file("p.json", kProfile);
  start("run --suite " + file("s.json").string() + " --device " + stalled.path() + " --device " + healthy + " --destroy-data " +
        stalled.path() + " --destroy-data " + healthy + " --profile " + file("p.json").string() + " --parallel --out " +
        file("r.json").string());
  // Once the held device is writing, its 50th request from then on and all after it wait 5 s of the
  // device's own clock; the device records when it held and released them.
  const bool writing = wait_for_line("[" + stalled.path() + "] measure randwrite");
  if (writing) stalled.hold_from_request(50, 5);
  const auto held_from = stalled.wait_for_event("hold-start", 120, [&] { return ended(); });
  const auto held_to = stalled.wait_for_event("hold-end", 120, [&] { return ended(); });
  int rc = wait();
  ASSERT_TRUE(writing) << "the run never started writing the held device:\n" << log();
  ASSERT_TRUE(held_from && held_to) << "the device never held a request:\n" << stalled.events_text() << log();
  const double hold_s = held_to->mono_s - held_from->mono_s;

  EXPECT_EQ(rc, 1) << log();
  auto r = report("r.json");
  const auto& devs = r.at("devices").as_array();
  ASSERT_EQ(devs.size(), 2u);
  const auto& held = devs.at(0).as_object();
  const auto& other = devs.at(1).as_object();
  EXPECT_EQ(held.at("verdict").as_string(), "FAIL") << held.at("reasons");
  EXPECT_EQ(other.at("verdict").as_string(), "PASS") << other.at("reasons");
  EXPECT_EQ(other.at("watchdog").at("stall_count").to_number<uint64_t>(), 0u);

  const auto& wd = held.at("watchdog").as_object();
  EXPECT_FALSE(wd.at("abandoned").as_bool()) << "a hold of " << hold_s << " s is inside the 1 s + 30 s deadline";
  ASSERT_GE(wd.at("stall_count").to_number<uint64_t>(), 1u) << wd;
  double longest = 0;
  for (const auto& s : wd.at("stalls").as_array()) {
    EXPECT_TRUE(s.at("completed").as_bool()) << s;
    EXPECT_EQ(s.at("test").as_string(), "randwrite") << s;
    EXPECT_EQ(s.at("lba").to_number<uint64_t>() * 512, s.at("offset_bytes").to_number<uint64_t>()) << s;
    longest = std::max(longest, s.at("out_s").to_number<double>());
  }
  // The request that started the hold was submitted before the device saw it and completed after
  // the device let it go: it was out at least as long as the device's own record of the hold.
  EXPECT_GE(longest, hold_s - 0.01) << "the device held requests " << hold_s << " s:\n" << stalled.events_text() << wd;
  bool named = false;
  for (const auto& reason : held.at("reasons").as_array()) {
    std::string s(reason.as_string());
    if (s.find("stalled I/O") != std::string::npos && s.find("LBA") != std::string::npos && s.find("out ") != std::string::npos) named = true;
  }
  EXPECT_TRUE(named) << held.at("reasons");
}

TEST_F(Watchdog, AnIoThatNeverReturnsInTimeAbandonsItsDeviceAndTheRunStillEndsWithItsReport) {
  SKIP_UNLESS_LOOP_DEVICES();
  StallLoop stalled(dir_ / "lab", 16u << 20);
  if (!stalled.valid()) GTEST_SKIP() << stalled.why();
  std::string healthy = make_loop(16u << 20);
  ASSERT_FALSE(healthy.empty());
  write_file("s.json", suite("1s", "2s"));
  write_file("p.json", kProfile);
  start("run --suite " + file("s.json").string() + " --device " + stalled.path() + " --device " + healthy + " --destroy-data " +
        stalled.path() + " --destroy-data " + healthy + " --profile " + file("p.json").string() + " --parallel --out " +
        file("r.json").string());
  // Once the held device is writing, its 50th request from then on and every one after it wait until
  // the test lets go: the hold outlasts the run. diskvet must give up on the device, finish the other,
  // and exit. A diskvet that waited for the held I/O would wait for ever; the keeper lets go after
  // 300 s (a deadline for a hang, far beyond the run's 10 s on any machine) and the test fails.
  const bool writing = wait_for_line("[" + stalled.path() + "] measure randwrite");
  if (writing) stalled.hold_from_request(50);
  std::atomic<bool> ended{false}, let_go{false};
  std::thread keeper([&] {
    for (int i = 0; i < 3000 && !ended; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!ended) {
      let_go = true;
      stalled.release();
    }
  });
  int rc = wait();
  ended = true;
  keeper.join();
  const bool device_held = stalled.events_text().find("hold-start") != std::string::npos;
  stalled.release();
  ASSERT_TRUE(writing) << "the run never started writing the held device:\n" << log();

  EXPECT_TRUE(device_held) << "the device never held a request:\n" << log();
  EXPECT_FALSE(let_go) << "diskvet ended only when the held I/O was let go";
  EXPECT_EQ(rc, 3) << "a device's run was abandoned: the run is incomplete\n" << log();
  auto r = report("r.json");
  const auto& held = r.at("devices").as_array().at(0).as_object();
  const auto& other = r.at("devices").as_array().at(1).as_object();
  EXPECT_EQ(other.at("verdict").as_string(), "PASS") << other.at("reasons");
  EXPECT_FALSE(held.at("completed").as_bool());
  EXPECT_NE(held.at("verdict").as_string(), "PASS");
  const auto& wd = held.at("watchdog").as_object();
  EXPECT_TRUE(wd.at("abandoned").as_bool()) << wd;
  ASSERT_FALSE(wd.at("stalls").as_array().empty()) << wd;
  const auto& first = wd.at("stalls").as_array().at(0);
  EXPECT_FALSE(first.at("completed").as_bool()) << first;
  // diskvet's own deadline (io_timeout + io_grace), by its own clock, not the test's.
  EXPECT_GE(first.at("out_s").to_number<double>(), 3.0) << first;
  bool said = false;
  for (const auto& reason : held.at("reasons").as_array())
    if (std::string(reason.as_string()).find("abandoned") != std::string::npos) said = true;
  EXPECT_TRUE(said) << held.at("reasons");
}

TEST_F(Watchdog, TheKernelsLinesAboutAFailingDeviceAreInItsReportSection) {
  SKIP_UNLESS_LOOP_DEVICES();
  StallLoop failing(dir_ / "lab", 16u << 20);
  if (!failing.valid()) GTEST_SKIP() << failing.why();
  // The block layer's error lines are rate limited machine-wide (10 per 5 s of the kernel's clock): a
  // previous test's errors, at its teardown, must not have used up the burst this one needs. So the
  // run starts once the kernel's own log shows 5 s without such a line (at once, unless a test just
  // before made some; 30 s only catches a kernel that never stops logging them).
  EXPECT_TRUE(wait_until([] { return kernel_quiet_s("I/O error, dev") > 5.5; }, 30)) << "the kernel kept logging I/O errors";
  write_file("s.json", suite("30s", "30s"));
  write_file("p.json", kProfile);
  start("run --suite " + file("s.json").string() + " --device " + failing.path() + " --destroy-data " + failing.path() + " --profile " +
        file("p.json").string() + " --out " + file("r.json").string());
  const std::string name = std::filesystem::path(failing.path()).filename().string();
  const std::string said = "dev " + name + ",";
  const bool writing = wait_for_line("[" + failing.path() + "] measure randwrite");
  if (writing) failing.fail_requests(1, 8);  // the loop driver completes them with an error, and the block layer says so
  const bool failed = failing.wait_for_event("fail-end", 120, [&] { return ended(); }).has_value();
  const int rc = wait();
  ASSERT_TRUE(writing) << "the run never started writing the device:\n" << log();
  EXPECT_TRUE(failed) << "the device failed no request:\n" << log();
  EXPECT_EQ(rc, 1) << log();
  EXPECT_NE(kernel_log().find(said), std::string::npos) << "the kernel logged no I/O error of " << name << ":\n" << kernel_log();
  auto r = report("r.json");
  const auto& d = r.at("devices").as_array().at(0).as_object();
  const auto& k = d.at("kernel_log").as_object();
  ASSERT_TRUE(k.at("read").as_bool()) << k;
  bool found = false;
  for (const auto& l : k.at("lines").as_array()) {
    EXPECT_EQ(l.at("device").as_string(), name) << l;  // never another device's lines
    if (l.at("kind").as_string() == "io-error" && std::string(l.at("text").as_string()).find(said) != std::string::npos) found = true;
  }
  EXPECT_TRUE(found) << k;
}
