// The purge phase on loop devices: not NVMe, so the chain falls to BLKDISCARD (which empties the
// backing file) and says why; without consent the run is refused and the data stays.
#include <gtest/gtest.h>

#include "tests/support/run_lab.hpp"

using diskvet::testing::RunLab;

namespace {

const char* kSuite = R"({
  "name": "purge-then-read",
  "purge": true,
  "probe": {"enabled": false},
  "precondition": {"enabled": false},
  "tests": [{"id": "read", "workloads": [{"rw": "randread", "bs": "4k", "iodepth": 4, "runtime": "0.3s", "ramp": "0s"}]}]
})";

constexpr uint64_t kSize = 64u << 20;
const std::string kPattern = "DISKVET-PURGE-16";

void fill(const std::string& path) {
  std::string block;
  for (size_t i = 0; i < (1u << 20) / kPattern.size(); ++i) block += kPattern;
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  for (uint64_t off = 0; off < kSize; off += block.size()) f.write(block.data(), static_cast<std::streamsize>(block.size()));
}

size_t copies_left(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  const std::string data = s.str();
  size_t n = 0;
  for (size_t at = data.find(kPattern); at != std::string::npos; at = data.find(kPattern, at + kPattern.size())) ++n;
  return n;
}

}  // namespace

class PurgePhase : public RunLab {};

TEST_F(PurgePhase, OfALoopDeviceFallsToDiscardAndSaysItIsNotNvme) {
  SKIP_UNLESS_LOOP_DEVICES();
  std::string dev = make_loop(kSize);
  ASSERT_FALSE(dev.empty());
  fill(backing(0));
  ASSERT_EQ(copies_left(backing(0)), kSize / kPattern.size());
  write_file("suite.json", kSuite);
  // Measurement only: the purge is the subject, no limits are judged.
  int rc = diskvet("run -q --suite " + file("suite.json").string() + " --device " + dev + " --destroy-data " + dev + " --profile none --out " +
                   file("r.json").string());
  ASSERT_EQ(rc, 0) << log();
  auto r = report("r.json");
  const auto& purge = r.at("devices").as_array().at(0).at("purge").as_object();
  EXPECT_EQ(purge.at("method").as_string(), "discard");
  EXPECT_FALSE(purge.at("failed").as_bool());
  EXPECT_NE(std::string(purge.at("detail").as_string()).find("is not an NVMe namespace"), std::string::npos) << purge.at("detail");
  EXPECT_EQ(copies_left(backing(0)), 0u) << "BLKDISCARD should have punched the backing file empty";
}

TEST_F(PurgePhase, WithoutConsentIsRefusedAndTheDataStays) {
  SKIP_UNLESS_LOOP_DEVICES();
  std::string dev = make_loop(kSize);
  ASSERT_FALSE(dev.empty());
  fill(backing(0));
  write_file("suite.json", kSuite);
  int rc = diskvet("run -q --suite " + file("suite.json").string() + " --device " + dev + " --out " + file("r.json").string());
  EXPECT_EQ(rc, 2) << log();
  EXPECT_NE(log().find("needs consent"), std::string::npos) << log();
  EXPECT_EQ(copies_left(backing(0)), kSize / kPattern.size());
}
