// SATA/SAS failure-predicting counters across a run (devices/smart_counters.hpp), from smartctl
// --json documents before and after it (tests/unit/data/smartctl).
#include "devices/smart_counters.hpp"

#include <gtest/gtest.h>

#include "devices/health.hpp"
#include "tests/support/smartctl_fixture.hpp"

namespace diskvet::devices {
namespace {

Health fixture(const std::string& name) { return testing::smartctl_fixture(name); }

TEST(SmartCounters, ReallocatedAndPendingGrowthFailsWithTheAttributeAndBothValues) {
  auto r = review_smart_counters(fixture("ata-before.json"), fixture("ata-after-media.json"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->compared, 6u);  // 5, 187, 188, 197, 198, 199
  ASSERT_EQ(r->problems.size(), 2u);
  EXPECT_TRUE(r->inconclusive.empty());
  EXPECT_EQ(r->problems[0].rfind("ATA attribute 5 Reallocated_Sector_Ct grew from 0 to 8 during the run", 0), 0u) << r->problems[0];
  EXPECT_EQ(r->problems[1].rfind("ATA attribute 197 Current_Pending_Sector grew from 0 to 2 during the run", 0), 0u) << r->problems[1];
  ASSERT_EQ(r->findings.size(), 2u);
  EXPECT_EQ(r->findings[0].key, "ata-5");
  EXPECT_EQ(r->findings[0].before, 0u);
  EXPECT_EQ(r->findings[0].after, 8u);
  EXPECT_TRUE(r->findings[0].fails);
}

TEST(SmartCounters, InterfaceCrcGrowthIsACableFaultThatIsInconclusiveNotAFailure) {
  auto r = review_smart_counters(fixture("ata-before.json"), fixture("ata-after-crc.json"));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->problems.empty());
  ASSERT_EQ(r->inconclusive.size(), 1u);
  EXPECT_NE(r->inconclusive[0].find("ATA attribute 199 UDMA_CRC_Error_Count grew from 0 to 14"), std::string::npos);
  EXPECT_NE(r->inconclusive[0].find("cable or backplane fault, not the drive"), std::string::npos);
  EXPECT_FALSE(r->findings.at(0).fails);
}

TEST(SmartCounters, EachFailurePredictorFailsOnGrowth) {
  const Health before = fixture("ata-before.json");
  for (const char* key : {"ata-5", "ata-187", "ata-188", "ata-197", "ata-198"}) {
    Health after = before;
    for (auto& c : after.smart_counters)
      if (c.key == key) c.raw += 1;
    auto r = review_smart_counters(before, after);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->problems.size(), 1u) << key;
  }
}

TEST(SmartCounters, SasGrownDefectsAndUncorrectedErrorsFail) {
  auto r = review_smart_counters(fixture("sas-before.json"), fixture("sas-after-defects.json"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->compared, 4u);  // grown defects, read, write and verify uncorrected
  ASSERT_EQ(r->problems.size(), 2u);
  EXPECT_EQ(r->problems[0].rfind("SCSI grown defect list grew from 0 to 3", 0), 0u) << r->problems[0];
  EXPECT_EQ(r->problems[1].rfind("SCSI error counter log: read uncorrected errors grew from 0 to 1", 0), 0u) << r->problems[1];
}

TEST(SmartCounters, QuietWhenNothingGrewAndAbsentWithoutCounters) {
  auto same = review_smart_counters(fixture("ata-before.json"), fixture("ata-before.json"));
  ASSERT_TRUE(same);
  EXPECT_TRUE(same->findings.empty());
  Health nvme;
  nvme.known = true;
  nvme.source = "nvme";
  EXPECT_FALSE(review_smart_counters(nvme, nvme));
  // A counter that went down (the drive was reset or replaced) is not growth.
  EXPECT_TRUE(review_smart_counters(fixture("ata-after-media.json"), fixture("ata-before.json"))->findings.empty());
}

TEST(SmartCounters, TheHealthDeltaLeavesNamedCountersToTheReview) {
  // Attribute 187 growth is also smartctl's media error count: said once, by the attribute's name.
  const Health before = fixture("ata-before.json");
  Health after = before;
  for (auto& c : after.smart_counters)
    if (c.key == "ata-187") c.raw = 3;
  after.media_errors = 3;
  HealthDelta d = health_delta(before, after);
  EXPECT_EQ(d.new_media_errors, 3u);
  EXPECT_TRUE(d.problems.empty());
  EXPECT_EQ(review_smart_counters(before, after)->problems.size(), 1u);
}

}  // namespace
}  // namespace diskvet::devices
