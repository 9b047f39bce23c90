// The drive's self-tests as a run step (issue 26), through the real run path on the null engine: the
// suite's "self_test" before and after, each device's outcome in its verdict, the report JSON, the text
// report and the HTML card; every device's test at once; "not supported" stated and never a PASS.
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>

#include "runner/report/report_html.hpp"
#include "runner/report/report_text.hpp"
#include "tests/support/null_run_report.hpp"
#include "tests/support/smartctl_fixture.hpp"

namespace diskvet {
namespace {

namespace json = boost::json;
using devices::SelfTestPoll;
using devices::SelfTestResult;

constexpr const char* kSelfTestSuite = R"({
  "name": "null-self-test",
  "probe": {"enabled": false}, "precondition": {"enabled": false}, "steady_state": {"enabled": false}, "warmup": {"enabled": false},
  "self_test": {"before": "short", "after": "extended"},
  "defaults": {"runtime": "0.1s", "ramp": "0s", "engine": "null", "interval": "0.05s"},
  "tests": [{"id": "read", "workloads": [{"rw": "randread", "iodepth": 1}]}]
})";

// The self-test alone, as `diskvet selftest` runs it.
constexpr const char* kSelfTestOnly = R"({"name": "selftest", "probe": {"enabled": false}, "self_test": {"before": "short"}, "tests": []})";

// A drive whose test ends at its first poll with the given entry. Its estimate is 3 s, so the loop
// polls after 1 s.
struct ScriptedSelfTest final : devices::SelfTestDevice {
  devices::SelfTestLogEntry entry;
  std::function<Status()> before_poll;
  std::string source() const override { return "fake"; }
  devices::SelfTestSupport support(devices::SelfTestType) override { return {true, "", 0.05, "fake estimate"}; }
  Status start(devices::SelfTestType) override { return ok_status(); }
  Result<SelfTestPoll> poll() override {
    if (before_poll)
      if (auto ok = before_poll(); !ok) return ok.error();
    return SelfTestPoll{false, std::nullopt, entry};
  }
  Status abort() override { return ok_status(); }
};

std::function<std::unique_ptr<devices::SelfTestDevice>()> drive_answering(SelfTestResult result, std::string words) {
  return [=] {
    auto d = std::make_unique<ScriptedSelfTest>();
    d->entry.result = result;
    d->entry.words = words;
    return d;
  };
}

const json::object& device(const json::object& report, size_t i = 0) { return report.at("devices").as_array().at(i).as_object(); }

std::string reasons(const json::object& dev) {
  std::string s;
  for (const auto& r : dev.at("reasons").as_array()) s += std::string(r.as_string()) + "\n";
  return s;
}

TEST(SelfTestRun, TestsBeforeAndAfterTheRunAreReportedInTheDrivesWords) {
  testing::NullDrive d{.serial = "SN-ST-PASS"};
  d.self_test = drive_answering(SelfTestResult::passed, "Operation completed without error (result 0h)");
  json::object report = testing::null_run_report({d}, kSelfTestSuite, nullptr);
  const json::object& dev = device(report);
  EXPECT_EQ(dev.at("verdict").as_string(), "NOT-JUDGED") << reasons(dev);  // no profile for the read test
  EXPECT_EQ(dev.at("self_test").at("before").at("result").as_string(), "passed");
  EXPECT_EQ(dev.at("self_test").at("before").at("type").as_string(), "short");
  EXPECT_EQ(dev.at("self_test").at("after").at("type").as_string(), "extended");
  const std::string text = runner::render_report_text(report);
  EXPECT_NE(text.find("self-test before (short): PASSED: Operation completed without error (result 0h)"), std::string::npos) << text;
  EXPECT_NE(text.find("self-test after (extended): PASSED"), std::string::npos) << text;
}

TEST(SelfTestRun, AFailedTestAfterTheRunFailsTheDeviceWithTheDrivesWords) {
  testing::NullDrive d{.serial = "SN-ST-FAIL"};
  int made = 0;
  d.self_test = [&made]() -> std::unique_ptr<devices::SelfTestDevice> {
    if (made++ == 0) return drive_answering(SelfTestResult::passed, "short: passed")();  // before the run
    return drive_answering(SelfTestResult::failed,
                           "extended self-test: Operation completed with one or more failed segments (result 7h), first failing segment 3")();
  };
  json::object report = testing::null_run_report({d}, kSelfTestSuite, nullptr);
  const json::object& dev = device(report);
  EXPECT_EQ(dev.at("verdict").as_string(), "FAIL");
  EXPECT_NE(reasons(dev).find("extended self-test after the run failed: extended self-test: Operation completed with one or more failed segments"),
            std::string::npos)
      << reasons(dev);
  EXPECT_NE(runner::device_card_html(dev).find("<dt>self-test after (extended)</dt><dd>FAILED: extended self-test"), std::string::npos);
  EXPECT_EQ(report.at("verdict").as_string(), "FAIL");
}

TEST(SelfTestRun, NotSupportedIsStatedAndNeverAPassByItself) {
  testing::NullDrive plain{.serial = "SN-ST-NONE"}, passing{.serial = "SN-ST-OK"};
  passing.self_test = drive_answering(SelfTestResult::passed, "Completed without error (status 0h)");
  json::object report = testing::null_run_report({plain, passing}, kSelfTestOnly, nullptr);
  EXPECT_EQ(device(report, 0).at("verdict").as_string(), "NOT-JUDGED") << reasons(device(report, 0));
  EXPECT_EQ(device(report, 0).at("self_test").at("before").at("result").as_string(), "not-supported");
  EXPECT_EQ(device(report, 1).at("verdict").as_string(), "PASS") << reasons(device(report, 1));
  const std::string text = runner::render_report_text(report);
  EXPECT_NE(text.find("self-test before (short): NOT SUPPORTED (not counted as passed): not supported"), std::string::npos) << text;
}

TEST(SelfTestRun, EveryDevicesTestRunsAtTheSameTime) {
  // Each drive's test ends only once both have started: tests run in turn would wait for each other.
  std::mutex m;
  std::condition_variable cv;
  int started = 0;
  auto make = [&] {
    auto d = std::make_unique<ScriptedSelfTest>();
    d->entry.words = "passed";
    d->before_poll = [&]() -> Status {
      std::unique_lock lock(m);
      ++started;
      cv.notify_all();
      if (!cv.wait_for(lock, std::chrono::seconds(60), [&] { return started >= 2; }))
        return runtime_error("self-test", "the other device's test never started while this one ran");
      return ok_status();
    };
    return d;
  };
  testing::NullDrive a{.serial = "SN-ST-A"}, b{.serial = "SN-ST-B"};
  a.self_test = b.self_test = make;
  json::object report = testing::null_run_report({a, b}, kSelfTestOnly, nullptr);
  EXPECT_EQ(device(report, 0).at("verdict").as_string(), "PASS") << reasons(device(report, 0));
  EXPECT_EQ(device(report, 1).at("verdict").as_string(), "PASS") << reasons(device(report, 1));
}

}  // namespace
}  // namespace diskvet

namespace diskvet {
namespace {

// A drive whose extended self-test after the run found two weak sectors: its own result says it
// passed, but the drive reallocated them during the test, after the run's "after" snapshot.
devices::Health sata_with_reallocated(uint64_t reallocated) {
  devices::Health h;
  h.known = true;
  h.source = "smartctl";
  h.smart_counters = {{"ata-5", "ATA attribute 5 Reallocated_Sector_Ct", reallocated}, {"ata-197", "ATA attribute 197 Current_Pending_Sector", 0}};
  return h;
}

TEST(SelfTestRun, CountersThatGrowDuringTheSelfTestAfterTheRunFailTheDevice) {
  testing::NullDrive d{.serial = "SN-ST-WEAR"};
  d.self_test = drive_answering(SelfTestResult::passed, "Completed without error");
  d.health_before = d.health_after = sata_with_reallocated(0);
  d.health_after_self_test = sata_with_reallocated(2);
  json::object report = testing::null_run_report({d}, kSelfTestSuite, nullptr);
  const json::object& dev = device(report);
  EXPECT_EQ(dev.at("verdict").as_string(), "FAIL") << reasons(dev);
  EXPECT_NE(reasons(dev).find("ATA attribute 5 Reallocated_Sector_Ct grew from 0 to 2 during the self-test after the run"), std::string::npos)
      << reasons(dev);
  // Nothing grew across the test: the verdict is the run's.
  testing::NullDrive same{.serial = "SN-ST-SAME"};
  same.self_test = drive_answering(SelfTestResult::passed, "Completed without error");
  same.health_before = same.health_after = same.health_after_self_test = sata_with_reallocated(0);
  EXPECT_EQ(device(testing::null_run_report({same}, kSelfTestSuite, nullptr)).at("verdict").as_string(), "NOT-JUDGED");
}

// The same drive's error log across the test: a read the extended test could not complete (UNC)
// shows only in the snapshot after it. It FAILs the device in the drive's words; the self-test log's
// new entry is the test's own and is judged by its result, not a second time here.
TEST(SelfTestRun, ErrorsTheDriveLoggedDuringTheSelfTestAfterTheRunFailTheDevice) {
  testing::NullDrive d{.serial = "SN-ST-UNC"};
  d.self_test = drive_answering(SelfTestResult::passed, "Completed without error");
  d.health_before = d.health_after = testing::smartctl_fixture("ata-xerror-before.json");
  d.health_after_self_test = testing::smartctl_fixture("ata-xerror-after.json");
  json::object report = testing::null_run_report({d}, kSelfTestSuite, nullptr);
  const json::object& dev = device(report);
  EXPECT_EQ(dev.at("verdict").as_string(), "FAIL") << reasons(dev);
  EXPECT_NE(reasons(dev).find("READ FPDMA QUEUED: Error: UNC at LBA = 0x0012d687 = 1234567"), std::string::npos) << reasons(dev);
  EXPECT_NE(reasons(dev).find("(during the self-test after the run)"), std::string::npos) << reasons(dev);
  const json::object& across = dev.at("health").at("across_self_test").as_object();
  const json::object& logs = across.at("sata_sas_logs").as_object();
  EXPECT_EQ(logs.at("new_errors").to_number<int>(), 3);
  EXPECT_FALSE(logs.contains("new_self_tests"));  // the test's own entry is left out
  for (const auto& f : logs.at("findings").as_array()) EXPECT_NE(f.at("log").as_string(), "ATA self-test log");
  const std::string text = runner::render_report_text(report);
  EXPECT_NE(text.find("SATA/SAS log, self-test after the run: ATA error 3"), std::string::npos) << text;
  EXPECT_NE(text.find("SATA/SAS log (not a failure), self-test after the run: ATA error 4"), std::string::npos) << text;
  EXPECT_NE(runner::render_report_html(report, true).find("SATA/SAS log, self-test after the run"), std::string::npos);
  // The run's own review saw nothing: both of its snapshots were taken before the test.
  EXPECT_TRUE(dev.at("health").at("sata_sas_logs").at("findings").as_array().empty());
}

}  // namespace
}  // namespace diskvet
