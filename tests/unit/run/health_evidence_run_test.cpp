// Health evidence a run is judged on (issue 26), through the real run path on the null engine: the
// drive's write counter against what this host sent it, and the error-log entries the run added,
// in the verdict, the report JSON, the text report and the HTML card.
#include <gtest/gtest.h>

#include <cstring>

#include "runner/report/report_html.hpp"
#include "runner/report/report_text.hpp"
#include "tests/support/null_run_report.hpp"
#include "tests/support/smartctl_fixture.hpp"

namespace diskvet {
namespace {

namespace json = boost::json;

// Reads only: diskvet sends the drive nothing, so whatever the host's kernel counts is someone else's.
constexpr const char* kReadSuite = R"({
  "name": "null-read",
  "probe": {"enabled": false}, "precondition": {"enabled": false}, "steady_state": {"enabled": false}, "warmup": {"enabled": false},
  "defaults": {"runtime": "0.1s", "ramp": "0s", "engine": "null", "interval": "0.05s"},
  "tests": [{"id": "read", "workloads": [{"rw": "randread", "iodepth": 1}]}]
})";

devices::Health nvme_health(uint64_t data_units, uint64_t host_sectors, uint64_t device_sectors, uint64_t error_entries = 0) {
  devices::Health h;
  h.known = true;
  h.source = "nvme";
  h.data_units_written = data_units;
  h.host_sectors_written = host_sectors;
  h.device_sectors_written = device_sectors;
  h.error_log_entries = error_entries;
  h.error_log = std::vector<std::array<uint8_t, devices::kErrorLogEntryBytes>>(4);
  return h;
}

const json::object& device(const json::object& report) { return report.at("devices").as_array().at(0).as_object(); }

std::string reasons(const json::object& dev) {
  std::string s;
  for (const auto& r : dev.at("reasons").as_array()) s += std::string(r.as_string()) + "\n";
  return s;
}

TEST(HealthEvidenceRun, ADriveThatCountedLessThanItWasSentFails) {
  testing::NullDrive d{.serial = "SN-LESS"};
  d.health_before = nvme_health(1000, 0, 0);
  d.health_after = nvme_health(1000, 131072, 0);  // the host sent 64 MiB; the drive counted none of it
  json::object report = testing::null_run_report({d}, kReadSuite, nullptr);
  const json::object& dev = device(report);
  EXPECT_EQ(dev.at("verdict").as_string(), "FAIL");
  EXPECT_NE(reasons(dev).find("NVMe Data Units Written: the drive counted 0B written for 64MiB the host sent"), std::string::npos) << reasons(dev);
  const json::object& wa = dev.at("health").at("write_accounting").as_object();
  EXPECT_EQ(wa.at("result").as_string(), "counted-less");
  EXPECT_EQ(wa.at("sent_bytes").to_number<uint64_t>(), 64u << 20);
  EXPECT_EQ(wa.at("tolerance_bytes").to_number<uint64_t>(), 512000u);
  EXPECT_NE(runner::render_report_text(report).find("writes counted: DISAGREE: NVMe Data Units Written"), std::string::npos);
  EXPECT_NE(runner::device_card_html(dev).find("<dt>writes counted</dt><dd>DISAGREE: NVMe Data Units Written"), std::string::npos);
}

TEST(HealthEvidenceRun, AnotherWriterOnThisHostMakesTheRunInconclusive) {
  testing::NullDrive d{.serial = "SN-OTHER"};
  d.health_before = nvme_health(1000, 0, 0);
  d.health_after = nvme_health(1000 + 132, 131072, 131072);  // 64 MiB from someone else, counted by both
  json::object report = testing::null_run_report({d}, kReadSuite, nullptr);
  const json::object& dev = device(report);
  EXPECT_EQ(dev.at("verdict").as_string(), "INCONCLUSIVE");
  EXPECT_NE(reasons(dev).find("another program wrote 64MiB to it"), std::string::npos) << reasons(dev);
  EXPECT_EQ(dev.at("health").at("write_accounting").at("result").as_string(), "agrees");
  EXPECT_NE(runner::render_report_text(report).find("another writer: this host's kernel sent the device 64MiB"), std::string::npos);
}

TEST(HealthEvidenceRun, ACounterThatAddsUpIsReportedAndJudgesNothing) {
  testing::NullDrive d{.serial = "SN-GOOD"};
  d.health_before = nvme_health(1000, 0, 0);
  d.health_after = nvme_health(1000, 0, 0);
  json::object report = testing::null_run_report({d}, kReadSuite, nullptr);
  const json::object& dev = device(report);
  EXPECT_EQ(dev.at("verdict").as_string(), "NOT-JUDGED");  // no profile; nothing failed
  EXPECT_EQ(dev.at("health").at("write_accounting").at("result").as_string(), "agrees");
}

TEST(HealthEvidenceRun, ADeviceWithoutAWriteCounterShowsNoWriteAccountingLine) {
  // A loop device, a file: no health source, so no counter to judge and nothing to say about it.
  json::object report = testing::null_run_report({testing::NullDrive{.serial = "SN-PLAIN"}}, kReadSuite, nullptr);
  ASSERT_TRUE(device(report).at("health").at("write_accounting").is_null());
  EXPECT_EQ(runner::render_report_text(report).find("writes counted"), std::string::npos) << runner::render_report_text(report);
  EXPECT_EQ(runner::render_report_html(report, true).find("writes counted"), std::string::npos);
}

// One Error Information log entry, as the drive lays it out (NVMe Base Specification, log page 01h).
std::array<uint8_t, devices::kErrorLogEntryBytes> error_entry(uint64_t count, uint16_t status, uint64_t lba) {
  std::array<uint8_t, devices::kErrorLogEntryBytes> e{};
  std::memcpy(e.data(), &count, 8);
  e[8] = 1;  // I/O queue 1
  const uint16_t word = static_cast<uint16_t>(status << 1 | 1);
  std::memcpy(e.data() + 12, &word, 2);
  std::memcpy(e.data() + 16, &lba, 8);
  e[24] = 1;  // namespace 1
  return e;
}

TEST(HealthEvidenceRun, ErrorLogEntriesAreJudgedOneByOne) {
  testing::NullDrive probed{.serial = "SN-PROBED"}, failing{.serial = "SN-MEDIA"};
  probed.health_before = nvme_health(1000, 0, 0, 9);
  probed.health_after = nvme_health(1000, 0, 0, 10);
  probed.health_after->error_log->at(0) = error_entry(10, 0x4002, 0);  // Invalid Field in Command
  failing.health_before = nvme_health(1000, 0, 0, 9);
  failing.health_after = nvme_health(1000, 0, 0, 10);
  failing.health_after->error_log->at(0) = error_entry(10, 0x0281, 4242);  // Unrecovered Read Error
  json::object report = testing::null_run_report({probed, failing}, kReadSuite, nullptr);
  const json::object& p = report.at("devices").as_array().at(0).as_object();
  const json::object& f = report.at("devices").as_array().at(1).as_object();
  EXPECT_EQ(p.at("verdict").as_string(), "NOT-JUDGED") << reasons(p);
  EXPECT_EQ(p.at("health").at("error_log").at("notes").as_array().size(), 1u);
  EXPECT_EQ(f.at("verdict").as_string(), "FAIL");
  EXPECT_NE(reasons(f).find("error log: error 10: Unrecovered Read Error (SCT 2h, SC 81h), I/O queue 1"), std::string::npos) << reasons(f);
  EXPECT_NE(reasons(f).find("LBA 4242"), std::string::npos);
  const std::string text = runner::render_report_text(report);
  EXPECT_NE(text.find("error log (not a failure): error 10: Invalid Field in Command"), std::string::npos) << text;
  EXPECT_NE(runner::device_card_html(p).find("error log (not a failure)"), std::string::npos);
}

TEST(HealthEvidenceRun, SataCountersThatGrewFailTheDriveAndACrcFaultIsInconclusive) {
  testing::NullDrive worn{.serial = "SN-REALLOC"}, cabled{.serial = "SN-CRC"};
  worn.health_before = cabled.health_before = testing::smartctl_fixture("ata-before.json");
  worn.health_after = testing::smartctl_fixture("ata-after-media.json");
  cabled.health_after = testing::smartctl_fixture("ata-after-crc.json");
  json::object report = testing::null_run_report({worn, cabled}, kReadSuite, nullptr);
  const json::object& w = report.at("devices").as_array().at(0).as_object();
  const json::object& c = report.at("devices").as_array().at(1).as_object();
  EXPECT_EQ(w.at("verdict").as_string(), "FAIL");
  EXPECT_NE(reasons(w).find("ATA attribute 5 Reallocated_Sector_Ct grew from 0 to 8 during the run"), std::string::npos) << reasons(w);
  const json::object& finding = w.at("health").at("smart_counters").at("findings").as_array().at(0).as_object();
  EXPECT_EQ(finding.at("after").to_number<uint64_t>(), 8u);
  EXPECT_EQ(c.at("verdict").as_string(), "INCONCLUSIVE") << reasons(c);
  EXPECT_NE(reasons(c).find("cable or backplane fault, not the drive"), std::string::npos) << reasons(c);
  const std::string text = runner::render_report_text(report);
  EXPECT_NE(text.find("SMART counter: ATA attribute 197 Current_Pending_Sector grew from 0 to 2"), std::string::npos) << text;
  EXPECT_NE(text.find("SMART counter (INCONCLUSIVE): ATA attribute 199 UDMA_CRC_Error_Count grew from 0 to 14"), std::string::npos) << text;
  EXPECT_NE(runner::device_card_html(c).find("<dt>SMART counter (INCONCLUSIVE)</dt><dd>ATA attribute 199"), std::string::npos);
}

TEST(HealthEvidenceRun, SataCountersThatDidNotGrowAreSaidToHaveBeenCompared) {
  testing::NullDrive d{.serial = "SN-CLEAN"};
  d.health_before = d.health_after = testing::smartctl_fixture("ata-before.json");
  json::object report = testing::null_run_report({d}, kReadSuite, nullptr);
  EXPECT_EQ(device(report).at("verdict").as_string(), "NOT-JUDGED") << reasons(device(report));
  EXPECT_NE(runner::render_report_text(report).find("SMART counters: 6 compared before and after the run, none grew"), std::string::npos);
}

TEST(HealthEvidenceRun, SataLogEntriesTheRunAddedAreJudgedInTheDrivesWords) {
  testing::NullDrive d{.serial = "SN-XERROR"};
  d.health_before = testing::smartctl_fixture("ata-xerror-before.json");
  d.health_after = testing::smartctl_fixture("ata-xerror-after.json");
  json::object report = testing::null_run_report({d}, kReadSuite, nullptr);
  const json::object& dev = device(report);
  EXPECT_EQ(dev.at("verdict").as_string(), "FAIL");
  EXPECT_NE(reasons(dev).find("ATA error 3 (extended comprehensive log) at 1236 power-on hours: READ FPDMA QUEUED: Error: UNC at LBA = 0x0012d687 = "
                              "1234567: a media or data error"),
            std::string::npos)
      << reasons(dev);
  EXPECT_NE(reasons(dev).find("ATA self-test log: Short offline: Completed: read failure"), std::string::npos) << reasons(dev);
  const json::object& logs = dev.at("health").at("sata_sas_logs").as_object();
  EXPECT_EQ(logs.at("error_log").as_string(), "extended comprehensive");
  EXPECT_EQ(logs.at("new_errors").to_number<uint64_t>(), 3u);
  EXPECT_EQ(logs.at("findings").as_array().size(), 4u);
  const std::string text = runner::render_report_text(report);
  EXPECT_NE(text.find("SATA/SAS log: ATA error 3 (extended comprehensive log)"), std::string::npos) << text;
  EXPECT_NE(text.find("SATA/SAS log (not a failure): ATA error 5 (extended comprehensive log) at 1237 power-on hours: WRITE FPDMA QUEUED: Error: ICRC"),
            std::string::npos)
      << text;
  EXPECT_NE(runner::device_card_html(dev).find("<dt>SATA/SAS log (not a failure)</dt><dd>ATA error 4"), std::string::npos);
}

TEST(HealthEvidenceRun, SataLogsTheRunAddedNothingToAreSaidToHaveBeenRead) {
  testing::NullDrive d{.serial = "SN-CLEAN"};
  d.health_before = d.health_after = testing::smartctl_fixture("ata-before.json");
  json::object report = testing::null_run_report({d}, kReadSuite, nullptr);
  EXPECT_EQ(device(report).at("verdict").as_string(), "NOT-JUDGED") << reasons(device(report));
  EXPECT_NE(runner::render_report_text(report).find(
                "SATA/SAS logs: ATA summary error log: no new errors (0 in the drive's life); ATA self-test log: no new entries during the run"),
            std::string::npos);
}

TEST(HealthEvidenceRun, WriteAmplificationFromTheOcpLogIsShownAndJudgesNothing) {
  testing::NullDrive ocp{.serial = "SN-OCP"}, plain{.serial = "SN-PLAIN"};
  ocp.health_before = nvme_health(1000, 0, 0);
  ocp.health_after = nvme_health(1000, 0, 0);
  ocp.health_before->ocp_physical_bytes_written = 1ull << 30;
  ocp.health_after->ocp_physical_bytes_written = 3ull << 30;  // the drive's own work: garbage collection
  plain.health_before = nvme_health(1000, 0, 0);
  plain.health_after = nvme_health(1000, 0, 0);
  plain.health_after->ocp_log_absent = "the drive has no OCP SMART / Health Information Extended log (its Supported Log Pages log does not list page C0h)";
  json::object report = testing::null_run_report({ocp, plain}, kReadSuite, nullptr);
  const json::object& o = report.at("devices").as_array().at(0).as_object();
  const json::object& p = report.at("devices").as_array().at(1).as_object();
  EXPECT_EQ(o.at("verdict").as_string(), "NOT-JUDGED") << reasons(o);
  const json::object& wa = o.at("health").at("write_amplification").as_object();
  EXPECT_TRUE(wa.at("available").as_bool());
  EXPECT_EQ(wa.at("physical_bytes").to_number<uint64_t>(), 2ull << 30);
  EXPECT_FALSE(wa.contains("factor")) << "the drive counted no host writes: no ratio";
  EXPECT_FALSE(p.at("health").at("write_amplification").at("available").as_bool());
  const std::string text = runner::render_report_text(report);
  EXPECT_NE(text.find("write amplification: the drive wrote 2GiB to its media and counted no host writes"), std::string::npos) << text;
  EXPECT_NE(runner::device_card_html(p).find("<dt>write amplification</dt><dd>the drive has no OCP SMART"), std::string::npos);
}

}  // namespace
}  // namespace diskvet
