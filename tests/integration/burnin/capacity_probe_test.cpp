// The address-integrity probe on real block devices: loop devices over the stall lab's counterfeit
// drives (present 64 MiB, store less: wrapping, dropping or returning stale data) are found with
// their real capacity and FAIL; a plain loop device passes. Through `diskvet probe-capacity`, with
// the gate and consent of any write.
#include <gtest/gtest.h>

#include "burnin_lab.hpp"
#include "stall_lab.hpp"

using namespace burnin_lab;

namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint64_t kPresented = 64 * kMiB;

}  // namespace

class CapacityProbe : public Lab {
 protected:
  // Probes `dev` (consent by its path); returns the exit code, the report in r.json.
  int probe(const std::string& dev) {
    return diskvet("probe-capacity --device " + dev + " --destroy-data " + dev + " --budget 1m --flush 2m --out " + file("r.json").string());
  }
  boost::json::object capacity() const { return report("r.json").at("devices").at(0).at("capacity_probe").as_object(); }
  void expect_fake(StallLoop::Fake fake, uint64_t real_bytes, const char* fault) {
    SKIP_UNLESS_LOOP_DEVICES();
    StallLoop lab(dir_ / "lab", real_bytes, fake, kPresented);
    if (!lab.valid()) GTEST_SKIP() << lab.why();
    EXPECT_EQ(probe(lab.path()), 1) << log();
    const auto c = capacity();
    EXPECT_EQ(c.at("verdict").as_string(), "FAIL") << c;
    EXPECT_EQ(c.at("claimed_bytes").to_number<uint64_t>(), kPresented) << c;
    EXPECT_EQ(c.at("real_bytes").to_number<uint64_t>(), real_bytes) << c;
    EXPECT_GT(c.at("faults").at(fault).to_number<uint64_t>(), 0u) << c;
    EXPECT_EQ(report("r.json").at("devices").at(0).at("verdict").as_string(), "FAIL");
    EXPECT_NE(log().find("capacity probe: FAIL - real capacity"), std::string::npos) << log();
  }
};

TEST_F(CapacityProbe, APlainLoopDevicePasses) {
  SKIP_UNLESS_LOOP_DEVICES();
  const std::string dev = make_loop(kPresented);
  ASSERT_FALSE(dev.empty());
  EXPECT_EQ(probe(dev), 0) << log();
  EXPECT_EQ(report("r.json").at("devices").at(0).at("verdict").as_string(), "PASS");
  EXPECT_NE(log().find("[" + dev + "] capacity-probe"), std::string::npos) << "the phase on stderr\n" << log();
  const auto c = capacity();
  EXPECT_EQ(c.at("verdict").as_string(), "PASS") << c;
  EXPECT_EQ(c.at("real_bytes").to_number<uint64_t>(), kPresented);
  EXPECT_GT(c.at("blocks_checked").to_number<uint64_t>(), 0u);
}

TEST_F(CapacityProbe, ADriveThatWrapsItsAddressesIsFoundAtTheWrapPoint) { expect_fake(StallLoop::Fake::wrap, 16 * kMiB, "aliased"); }

TEST_F(CapacityProbe, ADriveThatDropsWritesPastItsRealCapacityIsFound) { expect_fake(StallLoop::Fake::drop, 24 * kMiB + 8192, "zeros"); }

TEST_F(CapacityProbe, ADriveThatReturnsStaleDataPastItsRealCapacityIsFound) { expect_fake(StallLoop::Fake::stale, 40 * kMiB, "stale"); }

TEST_F(CapacityProbe, NoConsentNoProbe) {
  SKIP_UNLESS_LOOP_DEVICES();
  const std::string dev = make_loop(kPresented);
  ASSERT_FALSE(dev.empty());
  EXPECT_EQ(diskvet("probe-capacity --device " + dev + " --out " + file("r.json").string()), 2) << log();
  EXPECT_NE(log().find("needs consent (nothing was written; add --destroy-data " + dev), std::string::npos) << log();
  EXPECT_FALSE(std::filesystem::exists(file("r.json")));
}
