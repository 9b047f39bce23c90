// The burnin suite end to end on loop devices: a clean device passes with no mismatch; blocks
// corrupted, misdirected or rolled back to an older generation in the backing file while the run
// goes on are found at their LBAs; an interrupted run says how far each device got.
#include <gtest/gtest.h>

#include <set>

#include "burnin_lab.hpp"

using namespace burnin_lab;

namespace {

constexpr uint64_t kBs = 64 * 1024;
constexpr uint64_t kSectorsPerBlock = kBs / 512;  // loop devices have 512-byte logical blocks

// Write every block, then read for a while with verification, then read every block back.
std::string suite_text(const std::string& write_extra, double middle_s) {
  return R"({"name": "burnin-it", "probe": {"enabled": false},
    "defaults": {"bs": "64k", "verify": true, "iodepth": 16, "ramp": "0s"},
    "tests": [
      {"id": "write", "passes": )" + std::string(write_extra.empty() ? "1" : "2") + R"(, "workloads": [{"rw": "write")" + write_extra + R"(}]},
      {"id": "middle", "workloads": [{"rw": "randread", "runtime": ")" + std::to_string(middle_s) + R"(s"}]},
      {"id": "read", "passes": 1, "workloads": [{"rw": "read"}]}
    ]})";
}

const boost::json::object& device0(const boost::json::object& r) { return r.at("devices").as_array().at(0).as_object(); }

}  // namespace

class Burnin : public Lab {};

TEST_F(Burnin, ACleanDevicePassesEveryPhaseWithNoMismatch) {
  SKIP_UNLESS_LOOP_DEVICES();
  std::string dev = make_loop(32u << 20);
  ASSERT_FALSE(dev.empty());
  int rc = diskvet("run --suite burnin --device " + dev + " --destroy-data " + dev + " --duration 3s -q --out " + file("r.json").string());
  EXPECT_EQ(rc, 0) << log();
  auto r = report("r.json");
  const auto& d = device0(r);
  const auto& v = d.at("verify").as_object();
  EXPECT_EQ(v.at("mismatches").to_number<uint64_t>(), 0u);
  // The full write, verify-behind reads, the full read-back: well over two passes verified.
  EXPECT_GT(v.at("blocks_verified").to_number<uint64_t>(), 2 * (32u << 20) / kBs);
  EXPECT_EQ(v.at("blocks_unchecked").to_number<uint64_t>(), 0u);
  EXPECT_EQ(d.at("progress").as_array().size(), 3u);
  EXPECT_NE(std::string(d.at("progress").as_array().at(0).as_string()).find("1.000 of 1 pass"), std::string::npos) << d.at("progress");
  // Verification is a check of its own: with no profile, a clean device PASSes it.
  EXPECT_EQ(d.at("verdict").as_string(), "PASS") << d.at("reasons");
}

TEST_F(Burnin, CorruptedAndMisdirectedBlocksMidRunAreFoundAtTheirLbas) {
  SKIP_UNLESS_LOOP_DEVICES();
  const uint64_t size = 32u << 20, last = size - kBs;
  std::string dev = make_loop(size);
  ASSERT_FALSE(dev.empty());
  write_file("s.json", suite_text("", 3));
  start("run --suite " + file("s.json").string() + " --device " + dev + " --destroy-data " + dev + " -q --out " + file("r.json").string());
  // Once the last block carries generation 1 the write pass is over; damage blocks behind the runner's back.
  ASSERT_TRUE(wait_until([&] { return generation_at(0, last) == 1; })) << log();
  for (uint64_t b : {10u, 100u}) write_backing(0, b * kBs + 4096, std::vector<char>(512, 'X'));
  write_backing(0, 40 * kBs, read_backing(0, 20 * kBs, kBs));  // block 20's data on block 40
  EXPECT_EQ(wait(), 1) << log();

  auto r = report("r.json");
  EXPECT_EQ(r.at("verdict").as_string(), "FAIL");
  const auto& v = device0(r).at("verify").as_object();
  EXPECT_GE(v.at("mismatches").to_number<uint64_t>(), 3u);
  std::map<uint64_t, std::string> kinds;
  for (const auto& m : v.at("first_mismatches").as_array()) {
    uint64_t lba = m.at("lba").to_number<uint64_t>();
    kinds[lba] = std::string(m.at("kind").as_string());
    if (lba == 10 * kSectorsPerBlock) {
      EXPECT_EQ(m.at("first_bad_byte").to_number<uint64_t>(), 4096u);
      EXPECT_EQ(m.at("last_bad_byte").to_number<uint64_t>(), 4607u);
    }
    if (lba == 40 * kSectorsPerBlock) {
      EXPECT_EQ(m.at("found").at("lba").to_number<uint64_t>(), 20 * kSectorsPerBlock);
    }
  }
  EXPECT_EQ(kinds, (std::map<uint64_t, std::string>{{10 * kSectorsPerBlock, "corrupt"}, {40 * kSectorsPerBlock, "misdirected"},
                                                    {100 * kSectorsPerBlock, "corrupt"}}));
  EXPECT_NE(log().find("data verification"), std::string::npos) << log();
}

TEST_F(Burnin, ABlockRolledBackToAnOlderGenerationIsALostWrite) {
  SKIP_UNLESS_LOOP_DEVICES();
  const uint64_t size = 16u << 20, last = size - kBs;
  std::string dev = make_loop(size);
  ASSERT_FALSE(dev.empty());
  // Two paced write passes (256 blocks at 200 IOPS: over a second each), so each generation can be caught.
  write_file("s.json", suite_text(R"(, "rate_iops": 200, "iodepth": 1)", 2));
  start("run --suite " + file("s.json").string() + " --device " + dev + " --destroy-data " + dev + " -q --out " + file("r.json").string());
  ASSERT_TRUE(wait_until([&] { return generation_at(0, 5 * kBs) == 1; })) << log();
  std::vector<char> old = read_backing(0, 5 * kBs, kBs);
  ASSERT_TRUE(wait_until([&] { return generation_at(0, last) == 2; })) << log();
  write_backing(0, 5 * kBs, old);  // the device "lost" the second write of block 5
  EXPECT_EQ(wait(), 1) << log();

  auto r = report("r.json");
  const auto& v = device0(r).at("verify").as_object();
  ASSERT_GE(v.at("first_mismatches").as_array().size(), 1u) << v;
  for (const auto& m : v.at("first_mismatches").as_array()) {
    EXPECT_EQ(m.at("lba").to_number<uint64_t>(), 5 * kSectorsPerBlock);
    EXPECT_EQ(m.at("kind").as_string(), "stale");
    EXPECT_EQ(m.at("expected").at("generation").to_number<uint64_t>(), 2u);
    EXPECT_EQ(m.at("found").at("generation").to_number<uint64_t>(), 1u);
  }
}

TEST_F(Burnin, AnInterruptedParallelRunSaysHowFarEachDeviceGot) {
  SKIP_UNLESS_LOOP_DEVICES();
  std::string a = make_loop(16u << 20), b = make_loop(16u << 20);
  ASSERT_FALSE(a.empty());
  ASSERT_FALSE(b.empty());
  std::string args = "run --suite burnin --device " + a + " --device " + b + " --destroy-data " + a + " --destroy-data " + b +
                     " --parallel --duration 60s --out " + file("partial.json").string();
  // Interrupted once both devices are into the second test (their phase lines say so), not after a
  // guess of seconds: a loaded machine had not finished the first test when 4 s were up.
  const std::string log = file("log").string();
  auto run = diskvet::testing::run_command(
      diskvet::testing::words(std::string(DISKVET_BINARY) + " " + args),
      {.interrupt_when = diskvet::testing::file_holds(log, {"[" + a + "] measure random-verify-behind", "[" + b + "] measure random-verify-behind"}),
       .output_file = log});
  EXPECT_EQ(run.exit_code, 3);
  auto r = report("partial.json");
  EXPECT_FALSE(r.at("complete").as_bool());
  for (const auto& dv : r.at("devices").as_array()) {
    const auto& p = dv.at("progress").as_array();
    ASSERT_EQ(p.size(), 3u) << dv.at("path");
    EXPECT_NE(std::string(p.at(0).as_string()).find("1.000 of 1 pass"), std::string::npos) << p;
    EXPECT_NE(std::string(p.at(1).as_string()).find("interrupted"), std::string::npos) << p;
    EXPECT_EQ(p.at(2).as_string(), "sequential-read-verify: not started");
    EXPECT_EQ(dv.at("verify").at("mismatches").to_number<uint64_t>(), 0u);
  }
}
