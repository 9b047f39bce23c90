// A cloud volume's published limits against a loop device held to a known IOPS rate (--rate-cap
// emulates the provider's throttle): the verdict follows the cap, and a host cap below the disk's
// limits (numbers, or a VM size from the shipped table) is found as the binding limit and named in the report.
#include <gtest/gtest.h>

#include "tests/support/run_lab.hpp"

using diskvet::testing::RunLab;

namespace {
// The four tests a cloud profile sets limits on, one second each; a fresh loop device reads as zeros,
// which is what it is: the probe is off.
const char* kSuite = R"({
  "name": "cloud-check",
  "description": "the four tests of a cloud profile, one short window each",
  "probe": {"enabled": false},
  "tests": [
    {"id": "latency-qd1", "workloads": [{"rw": "randread", "bs": "4k", "iodepth": 1, "runtime": "1s"}]},
    {"id": "max-iops", "workloads": [{"rw": "randread", "bs": "4k", "iodepth": 8, "runtime": "1s"}]},
    {"id": "max-throughput-64k", "workloads": [{"rw": "read", "bs": "64k", "iodepth": 4, "runtime": "1s"}]},
    {"id": "mixed-70-30", "workloads": [{"rw": "randrw", "rwmixread": 70, "bs": "8k", "iodepth": 4, "runtime": "1s"}]}
  ]
})";
}  // namespace

class CloudCap : public RunLab {
 protected:
  // An Azure P10 (500 IOPS, 100 MB/s) emulated by a loop device held at 400 IOPS: below its promise.
  std::string args(const std::string& extra) {
    std::string dev = dev_.empty() ? (dev_ = make_loop(64u << 20)) : dev_;
    write_file("suite.json", kSuite);
    return "run -q --suite " + file("suite.json").string() + " --device " + dev + " --destroy-data " + dev + " --rate-cap " + dev +
           "=400 --profile azure-premium-ssd:tier=P10 --out " + file("r.json").string() + extra;
  }
  std::string profile_reason() {
    return std::string(report("r.json").at("devices").as_array().at(0).at("profile").at("reason").as_string());
  }
  std::string dev_;
};

TEST_F(CloudCap, ADiskHeldBelowItsTierFails) {
  SKIP_UNLESS_LOOP_DEVICES();
  EXPECT_EQ(diskvet(args("")), 1) << log();
  EXPECT_NE(profile_reason().find("Azure Premium SSD P10"), std::string::npos) << profile_reason();
  EXPECT_NE(log().find("ms.date 2023-03-16"), std::string::npos) << "the verdict names the limit's source\n" << log();
  // A host cap above the disk's limits changes nothing, and the report says it did not bind.
  EXPECT_EQ(diskvet(args(" --host-cap iops=12800")), 1) << log();
  EXPECT_NE(profile_reason().find("did not bind"), std::string::npos) << profile_reason();
}

TEST_F(CloudCap, AHostCapBelowTheDiskIsTheBindingLimit) {
  SKIP_UNLESS_LOOP_DEVICES();
  // The VM allows 300 IOPS over all its disks: the disk cannot be asked for more, and 400 passes.
  EXPECT_EQ(diskvet(args(" --host-cap iops=300")), 0) << log();
  std::string reason = profile_reason();
  EXPECT_NE(reason.find("host cap iops=300 binds"), std::string::npos) << reason;
  EXPECT_NE(reason.find("max-iops"), std::string::npos) << reason;
  // Each verdict's reason names the limit it was judged against and where that came from.
  std::string tests = boost::json::serialize(report("r.json").at("devices").as_array().at(0).at("tests"));
  EXPECT_NE(tests.find("[limit: host cap --host-cap iops=300 (300 IOPS), below the disk's 500"), std::string::npos) << tests;
}

TEST_F(CloudCap, AVmSizeBelowTheDiskIsTheBindingLimitNamedWithItsSource) {
  SKIP_UNLESS_LOOP_DEVICES();
  // An Azure B1s allows 320 IOPS and 10 MB/s uncached over all its disks: 400 passes what it can ask.
  EXPECT_EQ(diskvet(args(" --host-cap azure:Standard_B1s")), 0) << log();
  std::string reason = profile_reason();
  EXPECT_NE(reason.find("host cap azure:Standard_B1s binds"), std::string::npos) << reason;
  EXPECT_NE(reason.find("max-iops iops: the VM size Azure Standard_B1s (320 IOPS) binds"), std::string::npos) << reason;
  std::string tests = boost::json::serialize(report("r.json").at("devices").as_array().at(0).at("tests"));
  EXPECT_NE(tests.find("[limit: host cap of the VM size Azure Standard_B1s (320 IOPS; Microsoft Learn"), std::string::npos) << tests;
}

TEST_F(CloudCap, BadProfileParametersAndHostCapsAreRefusedBeforeAnyIo) {
  for (const char* bad : {" --host-cap iops=fast", " --host-cap cpus=4", " --host-cap gcp:n2-standard-4", " --host-cap azure:Standard_Z9", " --profile aws-gp3:iops=fast", " --profile sanity:iops=5",
                          " --profile aws-io2"}) {
    std::string a = std::string("run -q --suite quick --device /dev/null --out ") + file("r.json").string() + bad;
    EXPECT_EQ(diskvet(a), 2) << bad << "\n" << log();
  }
}
