// The unwritten-space probe on a fresh loop device (zeros: never written) and a written one.
#include "runner/run/probe.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "runner/io/target.hpp"
#include "tests/support/run_lab.hpp"

using diskvet::testing::RunLab;
using namespace diskvet::runner;

class UnwrittenProbe : public RunLab {};

TEST_F(UnwrittenProbe, FlagsAFreshLoopDeviceAndPassesAWrittenOne) {
  SKIP_UNLESS_LOOP_DEVICES();
  const uint64_t size = 64u << 20;
  std::string fresh = make_loop(size);
  std::string written = make_loop(size);
  ASSERT_FALSE(fresh.empty());
  ASSERT_FALSE(written.empty());
  {
    // Write the second device's backing file through, as a previous user of the device would have.
    std::ofstream out(backing(1), std::ios::binary | std::ios::in | std::ios::out);
    std::string chunk(1 << 20, '\0');
    for (size_t i = 0; i < chunk.size(); ++i) chunk[i] = static_cast<char>(i * 131 + 7);
    for (uint64_t off = 0; off < size; off += chunk.size()) out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
  }
  auto a = Target::open(fresh, false);
  auto b = Target::open(written, false);
  ASSERT_TRUE(a.ok()) << a.error().message();
  ASSERT_TRUE(b.ok()) << b.error().message();
  auto pa = probe_unwritten(*a, Region{0, size}, 64, 50);
  auto pb = probe_unwritten(*b, Region{0, size}, 64, 50);
  ASSERT_TRUE(pa.ok()) << pa.error().message();
  ASSERT_TRUE(pb.ok()) << pb.error().message();
  EXPECT_EQ(pa->samples, 64u);
  EXPECT_EQ(pa->zero_samples, 64u);
  EXPECT_TRUE(pa->unwritten);
  EXPECT_NE(pa->detail.find("never written"), std::string::npos);
  EXPECT_EQ(pb->zero_samples, 0u);
  EXPECT_FALSE(pb->unwritten);
}

TEST_F(UnwrittenProbe, MakesReadVerdictsInconclusiveWhenTheSuiteMayNotWrite) {
  SKIP_UNLESS_LOOP_DEVICES();
  std::string dev = make_loop(64u << 20);
  ASSERT_FALSE(dev.empty());
  // A read-only suite: opened read-only, no consent needed, and nothing may fill the region.
  write_file("suite.json", R"({"name": "reads", "probe": {"enabled": true, "on_unwritten": "inconclusive"},
    "tests": [{"id": "latency-qd1", "workloads": [{"rw": "randread", "bs": "4k", "iodepth": 1, "runtime": "0.5s"}]}]})");
  write_file("profile.json", R"({"name": "easy", "limits": {"latency-qd1": {"iops": {"min": 1}}}})");
  int rc = diskvet("run -q --suite " + file("suite.json").string() + " --profile " + file("profile.json").string() + " --device " + dev +
                   " --out " + file("r.json").string());
  EXPECT_EQ(rc, 4) << log();
  auto r = report("r.json");
  const auto& d = r.at("devices").as_array().at(0);
  EXPECT_TRUE(d.at("probe").at("unwritten").as_bool());
  EXPECT_FALSE(d.at("probe").at("filled_after").as_bool());
  const auto& v = d.at("tests").as_array().at(0).at("verdicts").as_array().at(0);
  EXPECT_EQ(v.at("status").as_string(), "INCONCLUSIVE");
  EXPECT_NE(std::string(v.at("reason").as_string()).find("never written"), std::string::npos);
}
