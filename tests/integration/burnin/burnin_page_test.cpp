// The burn-in page from a real run (label root): a burn-in on a loop device over the stall lab's FUSE
// file system that really stalls (every I/O held for 2.5 s in the random phase, past a 1 s
// io_timeout) and really returns corrupted data (one 64 KiB block's reads come back with 512 bytes
// inverted, while the backing file keeps what was written). The report must carry both, the
// mismatch at that block's LBA; it is then saved where the browser test (ctest fixture
// burnin_real_report) renders it: DISKVET_BURNIN_PAGE_REPORT names the file.
#include <gtest/gtest.h>

#include <cstdlib>

#include "burnin_lab.hpp"
#include "stall_lab.hpp"

using namespace burnin_lab;

namespace {

constexpr uint64_t kBs = 64 * 1024, kSize = 32u << 20, kBadBlock = 100;

// The burnin suite's three phases (a full write, random 70/30 with verify-behind, a full read-verify)
// on a small device, with a 1 s io_timeout so a short hold is a stall. The full passes take a tenth
// of a second here: 10 ms intervals give their plots a line (one interval is a single point).
const char* kSuite = R"({"name": "burnin-stall-lab", "probe": {"enabled": false}, "precondition": {"enabled": false},
  "monitor": {"health_poll": true, "health_interval": "1s"},
  "defaults": {"bs": "64k", "verify": true, "iodepth": 16, "ramp": "0s", "interval": "0.5s", "io_timeout": "1s", "io_grace": "30s"},
  "tests": [
    {"id": "sequential-write", "passes": 1, "workloads": [{"rw": "write", "interval": "0.01s"}]},
    {"id": "random-verify-behind", "workloads": [{"rw": "randrw", "rwmixread": 70, "runtime": "5s"}]},
    {"id": "sequential-read-verify", "passes": 1, "workloads": [{"rw": "read", "interval": "0.01s"}]}
  ]})";

}  // namespace

class BurninPage : public Lab {};

TEST_F(BurninPage, ARealStallAndARealMismatchAreInTheReportTheBrowserTestRenders) {
  const char* out = std::getenv("DISKVET_BURNIN_PAGE_REPORT");
  if (out) std::filesystem::remove(out);  // a report of an earlier build never stands in for this run
  SKIP_UNLESS_LOOP_DEVICES();
  StallLoop dev(dir_ / "lab", kSize);
  if (!dev.valid()) GTEST_SKIP() << dev.why();
  dev.corrupt_reads(kBadBlock * kBs + 4096, 512);
  write_file("s.json", kSuite);
  start("run --suite " + file("s.json").string() + " --device " + dev.path() + " --destroy-data " + dev.path() + " -q --out " + file("r.json").string());
  // Once the last block carries generation 1 the write pass is over: hold the I/Os of the random phase.
  auto generation_of_last = [&] {
    std::ifstream in(dev.backing(), std::ios::binary);
    uint64_t w[4] = {};
    in.seekg(static_cast<std::streamoff>(kSize - kBs));
    in.read(reinterpret_cast<char*>(w), sizeof w);
    return w[0] == kMagic ? w[3] : 0;
  };
  const bool written = wait_until([&] { return generation_of_last() >= 1 || ended(); }) && generation_of_last() >= 1;
  // Its 20th request from then on and all after it wait 2.5 s of the device's own clock.
  if (written) dev.hold_from_request(20, 2.5);
  const bool held = dev.wait_for_event("hold-end", 120, [&] { return ended(); }).has_value();
  const int rc = wait();
  ASSERT_TRUE(written) << "the write pass never ended:\n" << log();
  EXPECT_TRUE(held) << "the device never held a request:\n" << dev.events_text() << log();
  EXPECT_EQ(rc, 1) << log();

  auto r = report("r.json");
  const auto& d = r.at("devices").as_array().at(0).as_object();
  EXPECT_EQ(d.at("verdict").as_string(), "FAIL");
  const auto& wd = d.at("watchdog").as_object();
  ASSERT_GE(wd.at("stall_count").to_number<uint64_t>(), 1u) << wd;
  for (const auto& s : wd.at("stalls").as_array()) {
    EXPECT_GE(s.at("out_s").to_number<double>(), 1.0) << s;
    EXPECT_EQ(s.at("lba").to_number<uint64_t>() * 512, s.at("offset_bytes").to_number<uint64_t>()) << s;
  }
  const auto& v = d.at("verify").as_object();
  ASSERT_GE(v.at("mismatches").to_number<uint64_t>(), 1u) << v;
  for (const auto& m : v.at("first_mismatches").as_array()) {
    EXPECT_EQ(m.at("lba").to_number<uint64_t>(), kBadBlock * kBs / 512) << m;
    EXPECT_EQ(m.at("first_bad_byte").to_number<uint64_t>(), 4096u) << m;
    EXPECT_EQ(m.at("last_bad_byte").to_number<uint64_t>(), 4607u) << m;
  }
  // The tests the stall and the bad data happened in read FAIL themselves, with why, not only the
  // device: the page shows each test's badge.
  auto test_named = [&](std::string_view id) -> const boost::json::object* {
    for (const auto& t : d.at("tests").as_array())
      if (t.at("id").as_string() == id) return &t.as_object();
    return nullptr;
  };
  auto reasons_of = [](const boost::json::object& t) { return boost::json::serialize(t.at("reasons")); };
  for (const auto& s : wd.at("stalls").as_array()) {
    const auto* t = test_named(s.at("test").as_string());
    ASSERT_NE(t, nullptr) << s;
    EXPECT_EQ(t->at("verdict").as_string(), "FAIL") << s;
    EXPECT_NE(reasons_of(*t).find("longer than io_timeout"), std::string::npos) << reasons_of(*t);
  }
  const auto* read_verify = test_named("sequential-read-verify");
  ASSERT_NE(read_verify, nullptr);
  EXPECT_EQ(read_verify->at("verdict").as_string(), "FAIL");
  EXPECT_NE(reasons_of(*read_verify).find("bad block"), std::string::npos) << reasons_of(*read_verify);
  if (out && !::testing::Test::HasFailure()) {
    std::filesystem::copy_file(file("r.json"), out, std::filesystem::copy_options::overwrite_existing);
    std::printf("burn-in report of a real stall and a real mismatch saved for the browser test: %s\n", out);
  }
}
