// SATA self-tests through smartctl (issue 26): its JSON parsed (tests/unit/data/smartctl/selftest-*),
// and a test driven over a stand-in smartctl that answers as a drive would: idle, running, ended.
// Time is synthetic: the fake clock advances by what the loop waits.
#include "devices/smartctl_self_test.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "devices/smartctl.hpp"
#include "tests/support/fake_smartctl.hpp"
#include "tests/support/smartctl_fixture.hpp"

namespace diskvet::devices {
namespace {

using testing::smartctl_fixture_text;

TEST(SmartctlSelfTestJson, ReadsSupportPollingTimesProgressAndTheNewestEntry) {
  auto idle = parse_smartctl_self_test(smartctl_fixture_text("selftest-idle.json"));
  ASSERT_TRUE(idle);
  EXPECT_TRUE(idle->supported);
  EXPECT_EQ(idle->short_min, 2.0);
  EXPECT_EQ(idle->extended_min, 30.0);
  EXPECT_FALSE(idle->running);
  auto running = parse_smartctl_self_test(smartctl_fixture_text("selftest-running.json"));
  ASSERT_TRUE(running);
  EXPECT_TRUE(running->running);
  EXPECT_EQ(running->percent_done, 30.0);
  auto failed = parse_smartctl_self_test(smartctl_fixture_text("selftest-read-failure.json"));
  ASSERT_TRUE(failed && failed->newest);
  EXPECT_EQ(failed->newest->result, SelfTestResult::failed);
  EXPECT_EQ(failed->newest->failing_lba, 123456789u);
  EXPECT_EQ(failed->newest->words, "Extended offline: Completed: read failure (status 7h), first failing LBA 123456789, at 1240 power-on hours");
  EXPECT_FALSE(parse_smartctl_self_test(R"({"device":{"protocol":"NVMe"}})"));  // neither ATA SMART data nor a SCSI device
}

TEST(SmartctlSelfTestJson, ReadsWhatQemusIdeDiskAnsweredAfterAShortTest) {
  // Recorded in the VM lab: smartctl 7.3 on QEMU 7.2's emulated IDE disk, before and after `-t short`.
  auto idle = parse_smartctl_self_test(smartctl_fixture_text("selftest-qemu-ide-idle.json"));
  ASSERT_TRUE(idle);
  EXPECT_TRUE(idle->supported);
  EXPECT_EQ(idle->extended_min, 54.0);
  EXPECT_FALSE(idle->newest);  // an empty log
  auto done = parse_smartctl_self_test(smartctl_fixture_text("selftest-qemu-ide-passed.json"));
  ASSERT_TRUE(done && done->newest);
  EXPECT_FALSE(done->running);
  EXPECT_EQ(done->newest->result, SelfTestResult::passed);
  EXPECT_EQ(done->newest->words, "Short offline: Completed without error (status 0h), at 4660 power-on hours");
}

TEST(SmartctlSelfTestJson, ReadsASasDrivesSelfTestResultsLog) {
  // smartctl 7.3's scsiprint.cpp: scsi_self_test_N newest first, no progress in the JSON, the extended
  // test's time beside a non-empty log only.
  auto idle = parse_smartctl_self_test(smartctl_fixture_text("sas-selftest-idle.json"));
  ASSERT_TRUE(idle);
  EXPECT_TRUE(idle->supported);
  EXPECT_EQ(idle->short_min, 2.0);
  EXPECT_EQ(idle->extended_min, 30.0);
  EXPECT_EQ(idle->extended_source, "the drive's extended self-test time (SCSI Control mode page)");
  EXPECT_FALSE(idle->running);
  ASSERT_TRUE(idle->newest);
  EXPECT_EQ(idle->newest->result, SelfTestResult::passed);
  auto running = parse_smartctl_self_test(smartctl_fixture_text("sas-selftest-running.json"));
  ASSERT_TRUE(running);
  EXPECT_TRUE(running->running);
  EXPECT_FALSE(running->percent_done);
  EXPECT_NE(running->log_text, idle->log_text);
  auto failed = parse_smartctl_self_test(smartctl_fixture_text("sas-selftest-failed.json"));
  ASSERT_TRUE(failed && failed->newest);
  EXPECT_EQ(failed->newest->result, SelfTestResult::failed);
  EXPECT_EQ(failed->newest->failed_segment, 3u);
  EXPECT_EQ(failed->newest->failing_lba, 123456789u);
  EXPECT_EQ(failed->newest->words,
            "Background long: Failed in segment (result 7h), segment 3, first failing LBA 123456789, at 20001 power-on hours, sense Medium Error "
            "(ASC 11h, ASCQ 00h)");
  // An empty log prints nothing: read when smartctl says no command failed, else not supported.
  auto empty = parse_smartctl_self_test(smartctl_fixture_text("sas-selftest-empty.json"));
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->supported);
  EXPECT_FALSE(empty->extended_min);
  EXPECT_FALSE(empty->newest);
  auto unsupported = parse_smartctl_self_test(smartctl_fixture_text("sas-selftest-unsupported.json"));
  ASSERT_TRUE(unsupported);
  EXPECT_FALSE(unsupported->supported);
  EXPECT_NE(unsupported->unsupported_why.find("log page 10h"), std::string::npos);
}

// smartctl as a drive answers it: the state before the test (idle.json) until `-t` starts it, then
// running.json for two polls, then done.json; every -t and -X is logged.
struct Drive {
  testing::FakeSmartctl fake{R"sh(d="$(dirname "$0")"
case "$1" in
  -t) echo "start $2 $3" >> "$d/log"; exit 0;;
  -X) echo "abort $2" >> "$d/log"; exit 0;;
esac
# Exits as smartctl did when it printed the document (its smartctl.exit_status).
answer() { cat "$1"; exit "$(sed -n 's/.*"exit_status": *\([0-9]*\).*/\1/p' "$1" | head -n 1)"; }
if [ ! -f "$d/log" ]; then answer "$d/idle.json"; fi
n=$(cat "$d/polls" 2>/dev/null || echo 0); echo $((n+1)) > "$d/polls"
if [ "$n" -lt 2 ]; then answer "$d/running.json"; else answer "$d/done.json"; fi)sh"};
  Drive(const char* idle, const char* running, const char* done) {
    for (auto [name, fixture] : {std::pair{"idle.json", idle}, std::pair{"running.json", running}, std::pair{"done.json", done}})
      std::ofstream(fake.dir / name) << smartctl_fixture_text(fixture);
  }
  std::string log() const {
    std::ifstream in(fake.dir / "log");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
};

SelfTestOutcome run(SelfTestType type, double& now_s, bool interrupt = false) {
  SmartctlSelfTest dev("/dev/sdq");
  size_t waits = 0;
  const SelfTestClock clock{[&] { return now_s; }, [&](double s) {
                              now_s += s;
                              return !(interrupt && ++waits > 1);
                            }};
  return run_self_test(dev, type, clock);
}

TEST(SmartctlSelfTest, AnExtendedTestThatPassesIsStartedPolledAndReadFromTheLog) {
  Drive drive("selftest-idle.json", "selftest-running.json", "selftest-passed.json");
  double now = 0;
  auto o = run(SelfTestType::extended, now);
  EXPECT_EQ(o.result, SelfTestResult::passed) << o.words;
  EXPECT_EQ(o.words, "Extended offline: Completed without error (status 0h), at 1240 power-on hours");
  EXPECT_EQ(o.estimate_min, 30.0);
  EXPECT_EQ(o.estimate_source, "ATA recommended polling time");
  EXPECT_EQ(drive.log(), "start long /dev/sdq\n");
}

TEST(SmartctlSelfTest, AReadFailureFailsWithTheDrivesWords) {
  Drive drive("selftest-idle.json", "selftest-running.json", "selftest-read-failure.json");
  double now = 0;
  auto o = run(SelfTestType::short_test, now);
  EXPECT_EQ(o.result, SelfTestResult::failed);
  EXPECT_NE(o.words.find("Completed: read failure"), std::string::npos);
  EXPECT_EQ(drive.log(), "start short /dev/sdq\n");
}

TEST(SmartctlSelfTest, ATestPastItsPollingTimeIsAbortedWithDashX) {
  Drive drive("selftest-idle.json", "selftest-running.json", "selftest-running.json");
  double now = 0;
  auto o = run(SelfTestType::short_test, now);
  EXPECT_EQ(o.result, SelfTestResult::timed_out);
  EXPECT_EQ(o.timeout_min, 7);  // polling time 2 min + 5 min
  EXPECT_EQ(drive.log(), "start short /dev/sdq\nabort /dev/sdq\n");
}

TEST(SmartctlSelfTest, AnOlderResultInAnUnchangedLogIsNeverTakenForTheNewTest) {
  // The drive never shows the test running and its log still has the older short test on top.
  Drive drive("selftest-idle.json", "selftest-idle.json", "selftest-idle.json");
  double now = 0;
  auto o = run(SelfTestType::short_test, now);
  EXPECT_EQ(o.result, SelfTestResult::timed_out) << o.words;
  EXPECT_EQ(drive.log(), "start short /dev/sdq\nabort /dev/sdq\n");
}

TEST(SmartctlSelfTest, AnInterruptAbortsIt) {
  Drive drive("selftest-idle.json", "selftest-running.json", "selftest-running.json");
  double now = 0;
  auto o = run(SelfTestType::extended, now, true);
  EXPECT_EQ(o.result, SelfTestResult::interrupted);
  EXPECT_EQ(drive.log(), "start long /dev/sdq\nabort /dev/sdq\n");
}

TEST(SmartctlSelfTest, ASasExtendedTestThatFailsASegmentFailsWithTheDrivesWords) {
  // smartctl exits 128 (bit 7: the self-test log holds an error) once the test has failed.
  Drive drive("sas-selftest-idle.json", "sas-selftest-running.json", "sas-selftest-failed.json");
  double now = 0;
  auto o = run(SelfTestType::extended, now);
  EXPECT_EQ(o.result, SelfTestResult::failed) << o.words;
  EXPECT_NE(o.words.find("Failed in segment (result 7h), segment 3, first failing LBA 123456789"), std::string::npos) << o.words;
  EXPECT_EQ(o.estimate_min, 30.0);
  EXPECT_EQ(drive.log(), "start long /dev/sdq\n");
}

TEST(SmartctlSelfTest, ASasShortTestThatPassesIsTimedBySpc4sTwoMinutes) {
  Drive drive("sas-selftest-idle.json", "sas-selftest-running.json", "sas-selftest-passed.json");
  double now = 0;
  auto o = run(SelfTestType::short_test, now);
  EXPECT_EQ(o.result, SelfTestResult::passed) << o.words;
  EXPECT_EQ(o.estimate_min, 2.0);
  EXPECT_EQ(o.estimate_source, "SPC-4's two minutes for a short self-test");
}

TEST(SmartctlSelfTest, ASasDriveWithoutASelfTestLogIsNotSupportedAndNothingStarts) {
  Drive drive("sas-selftest-unsupported.json", "sas-selftest-running.json", "sas-selftest-passed.json");
  double now = 0;
  auto o = run(SelfTestType::extended, now);
  EXPECT_EQ(o.result, SelfTestResult::not_supported);
  EXPECT_EQ(drive.log(), "");
}

TEST(SmartctlSelfTest, ADriveWithoutSelfTestsIsNotSupportedAndNothingStarts) {
  Drive drive("selftest-unsupported.json", "selftest-running.json", "selftest-passed.json");
  double now = 0;
  auto o = run(SelfTestType::short_test, now);
  EXPECT_EQ(o.result, SelfTestResult::not_supported);
  EXPECT_NE(o.words.find("does not run SMART self-tests"), std::string::npos);
  EXPECT_EQ(drive.log(), "");
}

}  // namespace
}  // namespace diskvet::devices
