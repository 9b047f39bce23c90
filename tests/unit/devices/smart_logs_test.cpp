// SATA/SAS error and self-test logs (devices/smart_logs.hpp) over smartctl --json documents laid out
// as smartctl prints them (tests/unit/data/smartctl): what a run added, judged entry by entry.
#include "devices/smart_logs.hpp"

#include <gtest/gtest.h>

#include "devices/smart_counters.hpp"
#include "tests/support/smartctl_fixture.hpp"

namespace diskvet::devices {
namespace {

using testing::smartctl_fixture;

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

TEST(SmartLogs, ReadsTheExtendedAndSummaryErrorLogsAndTheSelfTestLog) {
  const Health h = smartctl_fixture("ata-xerror-after.json");
  ASSERT_TRUE(h.ata_error_log_extended);
  EXPECT_EQ(h.ata_error_log_extended->log, "extended comprehensive");
  EXPECT_EQ(h.ata_error_log_extended->count, 5u);
  ASSERT_EQ(h.ata_error_log_extended->entries.size(), 5u);
  const AtaErrorLogEntry& newest = h.ata_error_log_extended->entries.front();
  EXPECT_EQ(newest.number, 5u);
  EXPECT_EQ(newest.command, "WRITE FPDMA QUEUED");
  EXPECT_EQ(newest.error_register, 0x84);
  EXPECT_EQ(newest.status_register, 0x51);
  EXPECT_EQ(newest.lba, 11211316u);
  EXPECT_EQ(newest.lifetime_hours, 1237u);
  ASSERT_TRUE(h.ata_error_log_summary);
  EXPECT_EQ(h.ata_error_log_summary->count, 5u);
  ASSERT_TRUE(h.ata_self_test_log);
  ASSERT_EQ(h.ata_self_test_log->size(), 2u);
  EXPECT_EQ(h.ata_self_test_log->front().status_words, "Completed: read failure");
  EXPECT_EQ(h.ata_self_test_log->front().lba, 1234567u);
  // A drive with nothing logged has the log and no entries; SAS has counters, not ATA logs.
  const Health clean = smartctl_fixture("ata-before.json");
  ASSERT_TRUE(clean.ata_error_log_summary);
  EXPECT_EQ(clean.ata_error_log_summary->count, 0u);
  EXPECT_FALSE(clean.ata_error_log_extended);
  const Health sas = smartctl_fixture("sas-before.json");
  EXPECT_FALSE(sas.ata_error_log_summary);
  ASSERT_EQ(sas.scsi_error_counters.size(), 3u);
  EXPECT_EQ(sas.scsi_error_counters[0].direction, "read");
}

TEST(SmartLogs, ErrorsTheRunAddedAreJudgedMediaErrorsFailRefusalsAndLinkFaultsAreListed) {
  const auto r = review_smart_logs(smartctl_fixture("ata-xerror-before.json"), smartctl_fixture("ata-xerror-after.json"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->error_log, "extended comprehensive");  // preferred over the summary log when both snapshots have it
  EXPECT_EQ(r->errors_before, 2u);
  EXPECT_EQ(r->new_errors, 3u);
  EXPECT_EQ(r->unseen, 0u);
  EXPECT_EQ(r->new_self_tests, 1u);
  ASSERT_EQ(r->findings.size(), 4u);
  // Oldest first: the UNC read, the refused SET FEATURES, the CRC error on a write; then the self-test.
  EXPECT_EQ(r->findings[0].number, 3u);
  EXPECT_TRUE(r->findings[0].fails);
  EXPECT_EQ(r->findings[0].lba, 1234567u);
  EXPECT_EQ(r->findings[0].words,
            "ATA error 3 (extended comprehensive log) at 1236 power-on hours: READ FPDMA QUEUED: Error: UNC at LBA = 0x0012d687 = 1234567");
  EXPECT_FALSE(r->findings[1].fails);
  EXPECT_NE(r->findings[1].why.find("refused"), std::string::npos);
  EXPECT_FALSE(r->findings[2].fails);
  EXPECT_NE(r->findings[2].why.find("cable or backplane"), std::string::npos);
  EXPECT_EQ(r->findings[3].log, "ATA self-test log");
  EXPECT_TRUE(r->findings[3].fails);
  EXPECT_EQ(r->findings[3].words,
            "ATA self-test log: Short offline: Completed: read failure (status 7h), 70% remaining, first failing LBA 1234567, at 1237 power-on hours");
  ASSERT_EQ(r->problems.size(), 2u) << joined(r->problems);
  EXPECT_EQ(r->notes.size(), 2u) << joined(r->notes);
}

TEST(SmartLogs, TheSummaryLogIsTheFallbackAndErrorsItNoLongerHoldsFail) {
  const auto r = review_smart_logs(smartctl_fixture("ata-summary-before.json"), smartctl_fixture("ata-summary-after.json"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->error_log, "summary");
  EXPECT_EQ(r->new_errors, 7u);
  EXPECT_EQ(r->unseen, 2u);  // it keeps its last five
  EXPECT_EQ(r->findings.size(), 5u);
  EXPECT_EQ(r->findings.front().number, 3u);
  ASSERT_EQ(r->problems.size(), 6u);
  EXPECT_NE(r->problems.back().find("2 of 7 new errors in the ATA summary error log are not in what smartctl read"), std::string::npos);
  EXPECT_EQ(r->new_self_tests, 0u);
}

TEST(SmartLogs, ADriveWhoseLogsDidNotChangeAddsNothing) {
  for (const char* f : {"ata-before.json", "ata-xerror-after.json", "sas-before.json"}) {
    const auto r = review_smart_logs(smartctl_fixture(f), smartctl_fixture(f));
    ASSERT_TRUE(r) << f;
    EXPECT_EQ(r->new_errors, 0u) << f;
    EXPECT_TRUE(r->findings.empty()) << f;
    EXPECT_TRUE(r->problems.empty()) << f;
  }
  // Counters grew (ata-after-media) but the drive logged no error: the logs add nothing.
  const auto r = review_smart_logs(smartctl_fixture("ata-before.json"), smartctl_fixture("ata-after-media.json"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->error_log, "summary");
  EXPECT_TRUE(r->findings.empty());
  EXPECT_FALSE(review_smart_logs(Health{}, Health{})) << "NVMe and unknown drives have no SATA/SAS logs";
}

TEST(SmartLogs, SasCorrectedErrorsAreListedAndUncorrectedOnesFailOnceThroughTheSmartCounters) {
  const Health before = smartctl_fixture("sas-before.json");
  const auto corrected = review_smart_logs(before, smartctl_fixture("sas-after-corrected.json"));
  ASSERT_TRUE(corrected);
  EXPECT_TRUE(corrected->scsi_counters);
  ASSERT_EQ(corrected->notes.size(), 1u);
  EXPECT_NE(corrected->notes[0].find("SCSI error counter log: 12 read errors corrected during the run (0 -> 12)"), std::string::npos);
  EXPECT_TRUE(corrected->problems.empty());

  const Health after = smartctl_fixture("sas-after-defects.json");
  const auto uncorrected = review_smart_logs(before, after);
  ASSERT_TRUE(uncorrected);
  ASSERT_EQ(uncorrected->findings.size(), 1u);
  EXPECT_TRUE(uncorrected->findings[0].fails);
  EXPECT_NE(uncorrected->findings[0].words.find("1 read errors the drive could not correct"), std::string::npos);
  EXPECT_TRUE(uncorrected->problems.empty()) << "the SMART counter says it";
  const auto counters = review_smart_counters(before, after);
  ASSERT_TRUE(counters);
  EXPECT_NE(joined(counters->problems).find("SCSI error counter log: read uncorrected errors grew from 0 to 1"), std::string::npos);
  // Without the counter (a snapshot that carries the log alone) the log fails the device itself.
  Health bare_before = before, bare_after = after;
  bare_before.smart_counters.clear();
  bare_after.smart_counters.clear();
  EXPECT_EQ(review_smart_logs(bare_before, bare_after)->problems.size(), 1u);
}

TEST(SmartLogs, WithoutSmartctlsWordsTheRegistersDecideAndAnUnknownErrorFails) {
  auto judged = [](uint8_t error, uint8_t status, const std::string& words = "") {
    AtaErrorLogEntry e;
    e.error_register = error;
    e.status_register = status;
    e.description = words;
    return judge_ata_error(e).fails;
  };
  EXPECT_TRUE(judged(0x40, 0x51));   // UNC
  EXPECT_TRUE(judged(0x10, 0x51));   // IDNF
  EXPECT_TRUE(judged(0x00, 0x71));   // device fault
  EXPECT_FALSE(judged(0x04, 0x51));  // ABRT alone: refused
  EXPECT_FALSE(judged(0x84, 0x51));  // ICRC: the link
  EXPECT_TRUE(judged(0x00, 0x51));   // an error with no bit diskvet can place: fail closed
  // smartctl's decoding wins: bit 6 of a write is WP, not UNC.
  EXPECT_FALSE(judged(0x40, 0x51, "Error: WP at LBA = 0x00000010 = 16"));
  EXPECT_TRUE(judged(0x04, 0x71, "Device Fault; Error: ABRT"));
}

TEST(SmartLogs, NewSelfTestsAreThoseAboveTheEntriesTheLogHeldBeforeTheRun) {
  auto entry = [](uint8_t status, uint64_t hours) {
    AtaSelfTestLogEntry e;
    e.type = 1;
    e.status = status;
    e.lifetime_hours = hours;
    return e;
  };
  Health before, after;
  before.ata_self_test_log = std::vector{entry(0, 10), entry(0, 5)};
  after.ata_self_test_log = std::vector{entry(0x74, 11), entry(0, 10), entry(0, 5)};
  auto r = review_smart_logs(before, after);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->new_self_tests, 1u);
  EXPECT_EQ(r->problems.size(), 1u);
  // The same test twice in one hour: the second is new although it looks like the first.
  before.ata_self_test_log = std::vector{entry(0, 10)};
  after.ata_self_test_log = std::vector{entry(0, 10), entry(0, 10)};
  EXPECT_EQ(review_smart_logs(before, after)->new_self_tests, 1u);
  // A full log (21 entries) that dropped its oldest for the new one.
  std::vector<AtaSelfTestLogEntry> full;
  for (uint64_t h = 30; h > 9; --h) full.push_back(entry(0, h));
  before.ata_self_test_log = full;
  full.insert(full.begin(), entry(0x10, 31));  // aborted by the host: listed, not failed
  full.pop_back();
  after.ata_self_test_log = full;
  r = review_smart_logs(before, after);
  EXPECT_EQ(r->new_self_tests, 1u);
  EXPECT_TRUE(r->problems.empty());
  EXPECT_EQ(r->notes.size(), 1u);
}

TEST(SmartLogs, ASasSelfTestTheRunAddedIsJudgedAndAFailedSegmentFails) {
  const Health before = smartctl_fixture("sas-selftest-health-before.json");
  const Health after = smartctl_fixture("sas-selftest-health-after.json");
  ASSERT_TRUE(before.scsi_self_test_log);
  EXPECT_EQ(before.scsi_self_test_log->size(), 2u);
  const auto r = review_smart_logs(before, after);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->new_self_tests, 1u);
  ASSERT_EQ(r->findings.size(), 1u);
  EXPECT_EQ(r->findings[0].log, "SCSI self-test log");
  EXPECT_TRUE(r->findings[0].fails);
  EXPECT_EQ(r->findings[0].lba, 123456789u);
  ASSERT_EQ(r->problems.size(), 1u) << joined(r->problems);
  EXPECT_NE(r->problems[0].find("Background long: Failed in segment (result 7h), segment 3"), std::string::npos) << r->problems[0];
  // Nothing new: nothing judged.
  const auto same = review_smart_logs(after, after);
  ASSERT_TRUE(same);
  EXPECT_EQ(same->new_self_tests, 0u);
  EXPECT_TRUE(same->findings.empty());
}

TEST(SmartLogs, AnEmptySasSelfTestLogIsReadOnlyWhenSmartctlReportsNoFailedCommand) {
  EXPECT_TRUE(smartctl_fixture("sas-before.json").scsi_self_test_log);  // exit status 0, no entries: an empty log
  const auto unread = parse_smart_logs(testing::smartctl_fixture_text("sas-selftest-unsupported.json"));  // exit status 4
  ASSERT_TRUE(unread);
  EXPECT_FALSE(unread->scsi_self_test_log);
  EXPECT_FALSE(smartctl_fixture("ata-before.json").scsi_self_test_log);  // not a SCSI device
  // The first test on an empty log is the run's.
  const auto r = review_smart_logs(smartctl_fixture("sas-before.json"), smartctl_fixture("sas-selftest-health-after.json"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->new_self_tests, 3u);
}

TEST(SmartLogs, SasSelfTestResultsAreJudgedAsSpc4WordsThem) {
  for (uint8_t result : {0x0, 0x1, 0x2, 0xf}) {
    ScsiSelfTestLogEntry e;
    e.result = result;
    EXPECT_FALSE(judge_scsi_self_test(e).fails) << int(result);
  }
  for (uint8_t result : {0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0xe}) {
    ScsiSelfTestLogEntry e;
    e.result = result;
    EXPECT_TRUE(judge_scsi_self_test(e).fails) << int(result);
  }
}

}  // namespace
}  // namespace diskvet::devices
