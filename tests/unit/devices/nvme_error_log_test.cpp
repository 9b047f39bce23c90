// The NVMe Error Information log (issue 26): log pages laid out byte by byte as the NVMe Base
// Specification gives them (the fuzz corpus's pages: 8 bytes of the count before the run, then the
// page), decoded and judged.
#include "devices/nvme_error_log.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

namespace diskvet::devices {
namespace {

struct Recorded {
  uint64_t count_before = 0;
  std::vector<uint8_t> page;
};

Recorded recorded(const std::string& name) {
  std::ifstream in(std::string(DISKVET_TEST_DATA) + "/../fuzz/corpus/nvme_error_log/" + name, std::ios::binary);
  std::vector<uint8_t> all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Recorded r;
  if (all.size() < 8) return r;
  for (int i = 7; i >= 0; --i) r.count_before = r.count_before << 8 | all[static_cast<size_t>(i)];
  r.page.assign(all.begin() + 8, all.end());
  return r;
}

Health after_run(const Recorded& r, uint64_t count_after) {
  Health h;
  h.error_log_entries = count_after;
  std::vector<std::array<uint8_t, kErrorLogEntryBytes>> raw(r.page.size() / kErrorLogEntryBytes);
  for (size_t i = 0; i < raw.size(); ++i) std::copy_n(r.page.begin() + static_cast<std::ptrdiff_t>(i * kErrorLogEntryBytes), kErrorLogEntryBytes, raw[i].begin());
  h.error_log = raw;
  return h;
}

Health before_run(uint64_t count) {
  Health h;
  h.error_log_entries = count;
  return h;
}

TEST(NvmeErrorLog, DecodesEveryFieldOfAnEntry) {
  Recorded r = recorded("media-errors");
  auto entries = parse_error_log(r.page);
  ASSERT_EQ(entries.size(), 2u);  // the 62 empty entries are left out
  const NvmeErrorEntry& e = entries[0];
  EXPECT_EQ(e.error_count, 42u);
  EXPECT_EQ(e.sqid, 3u);
  EXPECT_EQ(e.cmdid, 0x81u);
  EXPECT_EQ(e.sct(), 2u);
  EXPECT_EQ(e.sc(), 0x81u);
  EXPECT_TRUE(e.do_not_retry());
  EXPECT_EQ(e.lba, 123456u);
  EXPECT_EQ(e.nsid, 1u);
  EXPECT_EQ(describe_error_entry(e), "error 42: Unrecovered Read Error (SCT 2h, SC 81h), I/O queue 3 command id 0x0081, namespace 1, LBA 123456, do not retry");
}

TEST(NvmeErrorLog, MediaAndDataIntegrityErrorsFailTheRun) {
  Recorded r = recorded("media-errors");
  auto review = review_error_log(before_run(r.count_before), after_run(r, 42));
  ASSERT_TRUE(review);
  EXPECT_EQ(review->new_entries, 2u);
  ASSERT_EQ(review->entries.size(), 2u);
  EXPECT_EQ(review->entries[0].entry.error_count, 41u);  // oldest first
  EXPECT_EQ(review->unseen, 0u);
  ASSERT_EQ(review->problems.size(), 2u);
  EXPECT_NE(review->problems[0].find("Write Fault"), std::string::npos) << review->problems[0];
  EXPECT_NE(review->problems[1].find("Unrecovered Read Error"), std::string::npos) << review->problems[1];
  EXPECT_NE(review->problems[1].find("media or data integrity"), std::string::npos);
  EXPECT_TRUE(review->notes.empty());
}

TEST(NvmeErrorLog, ProbingErrorsAreListedWithWhyAndDoNotFail) {
  Recorded r = recorded("probe-invalid-field");
  auto review = review_error_log(before_run(r.count_before), after_run(r, 7));
  ASSERT_TRUE(review);
  EXPECT_EQ(review->new_entries, 2u);  // entry 5 was there before the run
  EXPECT_TRUE(review->problems.empty());
  ASSERT_EQ(review->notes.size(), 2u);
  EXPECT_NE(review->notes[1].find("Invalid Field in Command (SCT 0h, SC 02h), admin command id 0x1017"), std::string::npos) << review->notes[1];
  EXPECT_NE(review->notes[1].find("parameter at byte 40 bit 0"), std::string::npos) << review->notes[1];
  EXPECT_NE(review->notes[1].find("not a fault of the drive"), std::string::npos);
}

TEST(NvmeErrorLog, EntriesThatLeftTheLogAreNotTakenAsHarmless) {
  Recorded r = recorded("full-log");  // 64 entries, 937..1000; the run added 100
  auto review = review_error_log(before_run(r.count_before), after_run(r, 1000));
  ASSERT_TRUE(review);
  EXPECT_EQ(review->new_entries, 100u);
  EXPECT_EQ(review->entries.size(), 64u);
  EXPECT_EQ(review->unseen, 36u);
  bool named = false;
  for (const auto& p : review->problems) named = named || p.find("36 of 100 new error log entries are no longer") != std::string::npos;
  EXPECT_TRUE(named);
}

TEST(NvmeErrorLog, NewEntriesInALogThatCouldNotBeReadFail) {
  auto review = review_error_log(before_run(3), before_run(5));
  ASSERT_TRUE(review);
  ASSERT_EQ(review->problems.size(), 1u);
  EXPECT_NE(review->problems[0].find("could not be read"), std::string::npos);
  EXPECT_FALSE(review_error_log(Health{}, before_run(5)));  // no count before: nothing to judge
  auto quiet = review_error_log(before_run(5), before_run(5));
  ASSERT_TRUE(quiet);
  EXPECT_TRUE(quiet->problems.empty());
}

TEST(NvmeErrorLog, JudgesEveryStatusItDoesNotKnowAsFailing) {
  NvmeErrorEntry e;
  e.error_count = 1;
  auto with = [&](uint8_t sct, uint8_t sc) {
    e.status = static_cast<uint16_t>(sct << 8 | sc);
    return judge_error_entry(e).fails;
  };
  EXPECT_TRUE(with(2, 0x80));   // Write Fault
  EXPECT_TRUE(with(2, 0x82));   // End-to-end Guard Check Error
  EXPECT_TRUE(with(0, 0x06));   // Internal Error
  EXPECT_TRUE(with(0, 0x04));   // Data Transfer Error
  EXPECT_TRUE(with(7, 0x01));   // vendor specific: unknown, fail closed
  EXPECT_FALSE(with(0, 0x01));  // Invalid Command Opcode
  EXPECT_FALSE(with(0, 0x02));  // Invalid Field in Command
  EXPECT_FALSE(with(1, 0x09));  // Invalid Log Page
  EXPECT_FALSE(with(0, 0x80));  // LBA Out of Range
  EXPECT_EQ(nvme_error_status_words(7, 0x01), "vendor specific status (SCT 7h, SC 01h)");
}

}  // namespace
}  // namespace diskvet::devices
