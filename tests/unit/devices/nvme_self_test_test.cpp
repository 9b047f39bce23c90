// NVMe Device Self-test (issue 26): the log page decoded from recorded pages (the fuzz corpus,
// tests/fuzz/corpus/nvme_self_test_log, laid out byte by byte as NVMe Base Specification 2.0 gives
// log page 06h), and a test driven over a fake controller that answers with those pages: passed,
// failed in a segment, aborted by a controller reset, running past its time, interrupted, not
// supported. Time is synthetic: the fake clock advances by what the loop waits.
#include "devices/nvme_self_test.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <fstream>
#include <iterator>

namespace diskvet::devices {
namespace {

std::vector<uint8_t> recorded(const std::string& name) {
  std::ifstream in(std::string(DISKVET_TEST_DATA) + "/../fuzz/corpus/nvme_self_test_log/" + name, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A controller that answers each log read with the next recorded page (the last one repeats) and
// records every Device Self-test command it was sent.
struct FakeAdmin final : NvmeSelfTestAdmin {
  uint16_t oacs = 0x10;
  uint16_t edstt_min = 10;
  int start_status = 0;
  std::deque<std::vector<uint8_t>> pages;
  std::vector<uint8_t>* sent = nullptr;  // the test's, outliving the fake
  std::optional<NvmeController> identify() override {
    NvmeController c;
    c.oacs = oacs;
    c.edstt_min = edstt_min;
    return c;
  }
  int device_self_test(uint8_t stc) override {
    sent->push_back(stc);
    return stc == 0xf ? 0 : start_status;
  }
  std::optional<std::vector<uint8_t>> self_test_log() override {
    if (pages.empty()) return std::nullopt;
    auto p = pages.front();
    if (pages.size() > 1) pages.pop_front();
    return p;
  }
};

struct Fixture {
  std::vector<uint8_t> sent;
  double now_s = 0;
  bool interrupt_after_first_poll = false;
  size_t waits = 0;
  std::vector<double> percents;
  SelfTestClock clock() {
    return SelfTestClock{[this] { return now_s; }, [this](double s) {
                           now_s += s;
                           return !(interrupt_after_first_poll && ++waits > 1);
                         }};
  }
  SelfTestOutcome run(std::unique_ptr<FakeAdmin> admin, SelfTestType type) {
    admin->sent = &sent;
    NvmeSelfTest dev(std::move(admin));
    return run_self_test(dev, type, clock(), [this](double pct, const std::string&) { percents.push_back(pct); });
  }
};

// A fake whose log is empty before the test starts (the page read before the command), then answers
// with the pages named.
std::unique_ptr<FakeAdmin> admin(std::initializer_list<const char*> page_names, const char* before = "empty") {
  auto a = std::make_unique<FakeAdmin>();
  a->pages.push_back(recorded(before));
  for (const char* n : page_names) a->pages.push_back(recorded(n));
  return a;
}

TEST(NvmeSelfTestLog, DecodesTheCurrentOperationAndEveryField) {
  auto running = parse_self_test_log(recorded("running-extended-40"));
  ASSERT_TRUE(running);
  EXPECT_EQ(running->current_operation, 2u);
  EXPECT_EQ(running->completion_pct, 40u);
  EXPECT_EQ(running->results.size(), 2u);  // the 18 unused entries (result Fh) are left out
  auto failed = parse_self_test_log(recorded("failed-segment-3"));
  ASSERT_TRUE(failed);
  const NvmeSelfTestResult& r = failed->results.front();
  EXPECT_EQ(r.code, 2u);
  EXPECT_EQ(r.result, 7u);
  EXPECT_EQ(r.segment, 3u);
  EXPECT_EQ(r.power_on_hours, 1240u);
  EXPECT_EQ(r.nsid, 1u);
  EXPECT_EQ(r.failing_lba, 987654u);
  EXPECT_EQ(describe_self_test_result(r),
            "extended self-test: Operation completed with one or more failed segments (result 7h), first failing segment 3, namespace 1, failing "
            "LBA 987654, status Unrecovered Read Error (SCT 2h, SC 81h), at 1240 power-on hours");
  EXPECT_FALSE(parse_self_test_log(std::vector<uint8_t>(563)));
}

TEST(NvmeSelfTest, AShortTestThatPassesReportsTheDrivesWords) {
  Fixture f;
  auto o = f.run(admin({"running-extended-40", "passed-short"}), SelfTestType::short_test);
  EXPECT_EQ(o.result, SelfTestResult::passed);
  EXPECT_EQ(o.words, "short self-test: Operation completed without error (result 0h), at 1234 power-on hours");
  EXPECT_EQ(f.sent, std::vector<uint8_t>{0x1});  // STC 1h, nothing aborted
  EXPECT_EQ(o.estimate_min, kShortSelfTestMin);
  ASSERT_FALSE(f.percents.empty());
  EXPECT_EQ(f.percents.front(), 40);
}

TEST(NvmeSelfTest, AFailedSegmentFailsWithItsNumberAndLba) {
  Fixture f;
  auto o = f.run(admin({"failed-segment-3"}), SelfTestType::extended);
  EXPECT_EQ(o.result, SelfTestResult::failed);
  ASSERT_TRUE(o.entry);
  EXPECT_EQ(o.entry->failed_segment, 3u);
  EXPECT_EQ(o.entry->failing_lba, 987654u);
  EXPECT_EQ(f.sent, std::vector<uint8_t>{0x2});  // STC 2h: extended
}

TEST(NvmeSelfTest, AControllerResetAbortsTheTestAndItIsNotPassed) {
  Fixture f;
  auto o = f.run(admin({"running-extended-40", "aborted-controller-reset"}), SelfTestType::extended);
  EXPECT_EQ(o.result, SelfTestResult::aborted);
  EXPECT_NE(o.words.find("aborted by a Controller Level Reset (result 2h)"), std::string::npos) << o.words;
}

TEST(NvmeSelfTest, ATestRunningPastItsTimeIsAbortedAndTimedOut) {
  Fixture f;
  auto a = admin({"running-extended-40"});  // never ends
  a->edstt_min = 10;
  auto o = f.run(std::move(a), SelfTestType::extended);
  EXPECT_EQ(o.result, SelfTestResult::timed_out);
  EXPECT_EQ(o.timeout_min, 15);  // EDSTT 10 min + max(5 min, half of it)
  EXPECT_GT(f.now_s, 15 * 60);
  EXPECT_EQ(f.sent, (std::vector<uint8_t>{0x2, 0xf}));  // started, then aborted with STC Fh
  EXPECT_NE(o.words.find("past the drive's estimate of 10 min (NVMe EDSTT)"), std::string::npos) << o.words;
}

TEST(NvmeSelfTest, AnOlderResultInAnUnchangedLogIsNeverTakenForTheNewTest) {
  // The controller never shows the test running and its log keeps the older passed test on top:
  // that is not this test's pass; it ends as a time-out.
  Fixture f;
  auto o = f.run(admin({"passed-short"}, "passed-short"), SelfTestType::short_test);
  EXPECT_EQ(o.result, SelfTestResult::timed_out) << o.words;
  EXPECT_EQ(f.sent, (std::vector<uint8_t>{0x1, 0xf}));
}

TEST(NvmeSelfTest, AnInterruptAbortsTheRunningTest) {
  Fixture f;
  f.interrupt_after_first_poll = true;
  auto o = f.run(admin({"running-extended-40"}), SelfTestType::extended);
  EXPECT_EQ(o.result, SelfTestResult::interrupted);
  EXPECT_EQ(f.sent, (std::vector<uint8_t>{0x2, 0xf}));
}

TEST(NvmeSelfTest, AControllerWithoutTheCommandIsNotSupportedAndNothingIsSent) {
  Fixture f;
  auto a = admin({"passed-short"});
  a->oacs = 0x0e;  // format, firmware, namespace management: no Device Self-test
  auto o = f.run(std::move(a), SelfTestType::short_test);
  EXPECT_EQ(o.result, SelfTestResult::not_supported);
  EXPECT_FALSE(o.passed());
  EXPECT_NE(o.words.find("OACS bit 4 clear"), std::string::npos);
  EXPECT_TRUE(f.sent.empty());
}

TEST(NvmeSelfTest, ARefusedStartIsAnErrorNotAPass) {
  Fixture f;
  auto a = admin({"passed-short"});
  a->start_status = 0x11d;  // Device Self-test In Progress
  auto o = f.run(std::move(a), SelfTestType::short_test);
  EXPECT_EQ(o.result, SelfTestResult::error);
  EXPECT_NE(o.words.find("could not be started"), std::string::npos);
}

TEST(NvmeSelfTest, WithoutEdsttTheExtendedTestGetsTheDefaultTime) {
  Fixture f;
  auto a = admin({"passed-short"});
  a->edstt_min = 0;
  auto o = f.run(std::move(a), SelfTestType::extended);
  EXPECT_FALSE(o.estimate_min);
  EXPECT_EQ(o.timeout_min, kExtendedSelfTestDefaultMin * 1.5);
}

}  // namespace
}  // namespace diskvet::devices
