// The health gate, before/after deltas, and smartctl output parsing.
#include "devices/health.hpp"

#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "devices/device_json.hpp"
#include "devices/smartctl.hpp"
#include "tests/support/fake_smartctl.hpp"

namespace diskvet::devices {
namespace {

Health healthy_nvme() {
  Health h;
  h.known = true;
  h.source = "nvme";
  h.critical_warning = 0;
  h.available_spare_pct = 100;
  h.available_spare_threshold_pct = 10;
  h.percentage_used = 5;
  h.media_errors = 0;
  h.error_log_entries = 0;
  h.thermal_transitions = 0;
  h.temperature_c = 40;
  return h;
}

TEST(HealthGate, PassesAHealthyDrive) {
  Health h = healthy_nvme();
  evaluate_health(h);
  EXPECT_TRUE(h.healthy());
}

TEST(HealthGate, FlagsACriticalWarning) {
  Health h = healthy_nvme();
  h.critical_warning = 0x04;
  evaluate_health(h);
  ASSERT_EQ(h.problems.size(), 1u);
  EXPECT_NE(h.problems[0].find("reliability degraded"), std::string::npos);
}

TEST(HealthGate, ComparesSpareStrictlyBelowThreshold) {
  Health h = healthy_nvme();
  h.available_spare_pct = 0;
  h.available_spare_threshold_pct = 0;  // what QEMU's emulated drive reports
  evaluate_health(h);
  EXPECT_TRUE(h.healthy());
  h.available_spare_pct = 10;
  h.available_spare_threshold_pct = 10;
  evaluate_health(h);
  EXPECT_TRUE(h.healthy());
  h.available_spare_pct = 9;
  evaluate_health(h);
  EXPECT_FALSE(h.healthy());
}

TEST(HealthGate, FlagsMediaErrorsAndWornOutDrives) {
  Health h = healthy_nvme();
  h.media_errors = 1;
  evaluate_health(h);
  EXPECT_FALSE(h.healthy());
  h = healthy_nvme();
  h.percentage_used = 99;
  evaluate_health(h);
  EXPECT_TRUE(h.healthy());
  h.percentage_used = 100;
  evaluate_health(h);
  EXPECT_FALSE(h.healthy());
}

TEST(HealthGate, NeverJudgesUnknownHealthHealthy) {
  Health h;
  h.temperature_c = 35;  // hwmon alone
  evaluate_health(h);
  EXPECT_FALSE(h.healthy());
  EXPECT_TRUE(h.problems.empty());
}

TEST(HealthDelta, ReportsNewMediaErrorsThrottlingAndTheHottestSample) {
  Health before = healthy_nvme();
  Health after = healthy_nvme();
  after.media_errors = 2;
  after.thermal_transitions = 3;
  after.temperature_c = 55;
  evaluate_health(after);
  HealthDelta d = health_delta(before, after);
  Health during = healthy_nvme();
  during.temperature_c = 71;
  note_sample(d, during);
  EXPECT_EQ(d.new_media_errors, 2u);
  EXPECT_EQ(d.new_thermal_transitions, 3u);
  EXPECT_EQ(d.max_temperature_c, 71.0);
  EXPECT_TRUE(d.became_unhealthy);
  EXPECT_TRUE(d.worsened());
}

TEST(HealthDelta, IsQuietWhenNothingChanged) {
  HealthDelta d = health_delta(healthy_nvme(), healthy_nvme());
  EXPECT_EQ(d.new_media_errors, 0u);
  EXPECT_FALSE(d.worsened());
  EXPECT_FALSE(d.became_unhealthy);
}

TEST(HealthDelta, LeavesUnknownDeltasOutOfTheJson) {
  Health before;  // unknown
  HealthDelta d = health_delta(before, healthy_nvme());
  EXPECT_FALSE(d.new_media_errors);
  auto o = boost::json::value_from(d).as_object();
  EXPECT_FALSE(o.contains("new_media_errors"));
  EXPECT_EQ(o["max_temperature_c"].as_double(), 40.0);
}

TEST(Smartctl, ParsesAtaAttributesAndTheSelfAssessment) {
  auto h = parse_smartctl_json(R"({
    "smart_status": {"passed": true},
    "temperature": {"current": 34},
    "ata_smart_attributes": {"table": [
      {"id": 5, "name": "Reallocated_Sector_Ct", "raw": {"value": 2}},
      {"id": 187, "name": "Reported_Uncorrect", "raw": {"value": 1}},
      {"id": 197, "name": "Current_Pending_Sector", "raw": {"value": 4}},
      {"id": 198, "name": "Offline_Uncorrectable", "raw": {"value": 0}}]}})");
  ASSERT_TRUE(h);
  EXPECT_TRUE(h->known);
  EXPECT_EQ(h->source, "smartctl");
  EXPECT_EQ(h->smart_passed, true);
  EXPECT_EQ(h->temperature_c, 34.0);
  EXPECT_EQ(h->reallocated_sectors, 2u);
  EXPECT_EQ(h->pending_sectors, 4u);
  EXPECT_EQ(h->media_errors, 1u);
  evaluate_health(*h);
  EXPECT_EQ(h->problems.size(), 2u);  // media errors and pending sectors
}

TEST(Smartctl, ParsesScsiErrorCountersAndAFailedAssessment) {
  auto h = parse_smartctl_json(R"({"smart_status": {"passed": false}, "scsi_grown_defect_list": 12,
    "scsi_error_counter_log": {"read": {"total_uncorrected_errors": 3}, "write": {"total_uncorrected_errors": 0}}})");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->reallocated_sectors, 12u);
  EXPECT_EQ(h->media_errors, 3u);
  evaluate_health(*h);
  EXPECT_FALSE(h->healthy());
}

TEST(Smartctl, SaysNothingWhenSmartIsUnavailable) {
  EXPECT_FALSE(parse_smartctl_json(R"({"smart_support": {"available": false}})"));
  EXPECT_FALSE(parse_smartctl_json("not json"));
}

}  // namespace
}  // namespace diskvet::devices

// A smartctl on a hung drive never returns: a stand-in that hangs is killed at the deadline, the
// health is unknown, and the stand-in is gone. One that answers is parsed as the real one's output.
using diskvet::testing::FakeSmartctl;

TEST(Smartctl, AHungSmartctlIsKilledAtItsDeadlineAndHealthIsUnknown) {
  FakeSmartctl fake("echo $$ > \"$(dirname \"$0\")/pid\"; exec sleep 600");
  auto h = diskvet::devices::run_smartctl("/dev/hung", std::chrono::milliseconds(300));
  EXPECT_FALSE(h.has_value());
  std::ifstream pid_file(fake.dir / "pid");
  pid_t pid = 0;
  ASSERT_TRUE(pid_file >> pid) << "the stand-in never ran";
  EXPECT_NE(::kill(pid, 0), 0) << "smartctl (pid " << pid << ") is still running after its deadline";
}

TEST(Smartctl, AnAnsweringSmartctlIsParsed) {
  FakeSmartctl fake("echo '{\"smart_status\":{\"passed\":true},\"temperature\":{\"current\":41}}'");
  auto h = diskvet::devices::run_smartctl("/dev/sdq", std::chrono::milliseconds(10000));
  ASSERT_TRUE(h.has_value());
  ASSERT_TRUE(h->temperature_c.has_value());
  EXPECT_DOUBLE_EQ(*h->temperature_c, 41);
}

// smartctl's exit status is a bit mask: bits 6 and 7 say the drive's error and self-test logs hold
// errors, so a drive that once failed a self-test answers with 192. That is an answer, read as one;
// a smartctl ended by a signal (128 + N with no JSON repeating it) is not.
TEST(Smartctl, ADriveWhoseLogsHoldErrorsIsReadThoughSmartctlExitsAbove128) {
  FakeSmartctl fake(R"sh(echo '{"smartctl":{"exit_status":192},"smart_status":{"passed":true},"temperature":{"current":38}}'; exit 192)sh");
  auto h = diskvet::devices::run_smartctl("/dev/sdq", std::chrono::milliseconds(10000));
  ASSERT_TRUE(h.has_value()) << "a drive whose logs hold errors was taken for a smartctl that crashed";
  ASSERT_TRUE(h->temperature_c.has_value());
  EXPECT_DOUBLE_EQ(*h->temperature_c, 38);
}

TEST(Smartctl, ASmartctlEndedByASignalIsNotAnAnswer) {
  FakeSmartctl fake(R"sh(echo '{"smartctl":{"argv":["smartctl"]},"temperature":{"current":38}'; kill -SEGV $$)sh");
  EXPECT_FALSE(diskvet::devices::run_smartctl("/dev/sdq", std::chrono::milliseconds(10000)).has_value());
}
