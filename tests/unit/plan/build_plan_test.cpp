// build_plan: one plan room for every front end. Over regular files (no root, no device): a plan that
// can run holds its targets and its claimed report; a plan refused at any step leaves the targets'
// bytes as they were and nothing it made behind (the report's temporary file, a --directory file).
#include "runner/plan/build_plan.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "suites/suite.hpp"

using namespace diskvet;
using namespace diskvet::runner;
namespace fs = std::filesystem;

namespace {

// A directory of the test's own in the build tree (O_DIRECT works there, unlike on tmpfs).
class PlanDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(DISKVET_UNIT_SCRATCH) / ("build-plan-" + std::to_string(::getpid()) + "-" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A file of `mib` MiB whose every byte is known.
  std::string data_file(const std::string& name, uint64_t mib = 64) {
    std::string path = (dir_ / name).string();
    std::ofstream f(path, std::ios::binary);
    std::string block(1 << 20, '\0');
    for (size_t i = 0; i < block.size(); ++i) block[i] = static_cast<char>(i * 131 + 7);
    for (uint64_t i = 0; i < mib; ++i) f.write(block.data(), static_cast<std::streamsize>(block.size()));
    return path;
  }
  static std::string bytes_of(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  }
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename().string());
    return out;
  }

  fs::path dir_;
};

// A suite on the null engine that writes; its second test's workload is given.
suites::Suite suite_with(const std::string& second_workload) {
  auto s = suites::parse_suite(R"({"name": "plan", "probe": {"enabled": false}, "precondition": {"enabled": false},
    "steady_state": {"enabled": false}, "warmup": {"enabled": false},
    "defaults": {"runtime": "1s", "engine": "null", "interval": "0.1s"},
    "tests": [{"id": "first", "workloads": [{"rw": "randwrite", "bs": "4k"}]},
              {"id": "second", "workloads": [)" + second_workload + "]}]}",
                               "plan.json");
  EXPECT_TRUE(s.ok()) << s.error().message();
  return s.ok() ? *s : suites::Suite{};
}

PlanRequest request_for(const std::string& target, const std::string& out, const std::string& second = R"({"rw": "randread", "bs": "4k"})") {
  PlanRequest r;
  r.suite = suite_with(second);
  if (!target.empty()) r.devices = {target};
  r.consent = devices::Consent{std::vector<std::string>{target}};
  r.profile = "none";
  r.out = out;
  return r;
}

std::string refusal(Result<PlannedRun> planned) {
  EXPECT_FALSE(planned.ok());
  if (planned.ok()) return {};
  EXPECT_EQ(planned.error().exit_code(), 2) << planned.error().message();
  return planned.error().message();
}

}  // namespace

TEST_F(PlanDir, APlanThatCanRunHoldsTheConsentedFileAndTheClaimedReport) {
  const std::string file = data_file("target.img");
  const std::string before = bytes_of(file);
  auto planned = build_plan(request_for(file, (dir_ / "r.json").string()));
  ASSERT_TRUE(planned.ok()) << planned.error().message();
  ASSERT_EQ(planned->plan.devices.size(), 1u);
  const DevicePlan& dp = planned->plan.devices.front();
  EXPECT_EQ(dp.device.model, "regular file");
  EXPECT_TRUE(dp.target.writable()) << "held for writing through the gate";
  EXPECT_TRUE(planned->plan.options.measurement_only);
  EXPECT_EQ(dp.profile_reason, "measurement only (--profile none): no limits judged");
  ASSERT_TRUE(planned->report.valid());
  EXPECT_TRUE(fs::exists(dir_ / planned->report.temporary_name())) << "the report is claimed in its directory";
  EXPECT_EQ(bytes_of(file), before) << "building a plan writes nothing";
}

TEST_F(PlanDir, ALaterTestThatCannotRunRefusesAndLeavesNothingBehind) {
  const std::string file = data_file("target.img");
  const std::string before = bytes_of(file);
  std::string e = refusal(build_plan(request_for(file, (dir_ / "r.json").string(), R"({"rw": "randread", "bs": "4k", "cpus_allowed": "1000"})")));
  EXPECT_NE(e.find("CPU 1000"), std::string::npos) << e;
  EXPECT_EQ(bytes_of(file), before);
  EXPECT_EQ(entries(), std::vector<std::string>{"target.img"}) << "the report's temporary file is gone";
}

TEST_F(PlanDir, AFileMadeForARefusedPlanIsRemovedAndOneKeptForAPlanThatStandsStays) {
  PlanRequest r = request_for("", (dir_ / "r.json").string(), R"({"rw": "randread", "bs": "4k", "cpus_allowed": "1000"})");
  r.devices.clear();
  r.file_target = FileTargetRequest{dir_.string(), uint64_t{64} << 20, /*keep=*/true};
  refusal(build_plan(r));
  EXPECT_TRUE(entries().empty()) << "a refused plan removes the test file it made, --keep-file or not";

  r.suite = suite_with(R"({"rw": "randread", "bs": "4k"})");
  {
    auto planned = build_plan(r);
    ASSERT_TRUE(planned.ok()) << planned.error().message();
    ASSERT_EQ(planned->plan.devices.size(), 1u);
    EXPECT_EQ(planned->plan.devices.front().device.model, "regular file");
    EXPECT_FALSE(planned->notes.empty());
  }
  bool kept = false;
  for (const auto& name : entries()) kept = kept || name.starts_with("diskvet-test-");
  EXPECT_TRUE(kept) << "--keep-file keeps the file of a plan that stood";
}

TEST_F(PlanDir, AnOutputThatCannotBeCreatedRefusesBeforeAnyTargetIsMade) {
  for (const std::string& out : std::vector<std::string>{"/proc/r.json", "/sys/r.json", (dir_ / "missing" / "r.json").string()}) {
    PlanRequest r = request_for("", out);
    r.devices.clear();
    r.file_target = FileTargetRequest{dir_.string(), uint64_t{64} << 20, false};
    std::string e = refusal(build_plan(r));
    EXPECT_NE(e.find("r.json"), std::string::npos) << e;
    EXPECT_TRUE(entries().empty()) << out << ": nothing was made";
  }
}

TEST_F(PlanDir, AnExistingFileWithoutConsentIsRefusedUnwritten) {
  const std::string file = data_file("data.img");
  const std::string before = bytes_of(file);
  PlanRequest r = request_for(file, (dir_ / "r.json").string());
  r.consent = devices::Consent{};
  refusal(build_plan(r));
  EXPECT_EQ(bytes_of(file), before);
  EXPECT_EQ(entries(), std::vector<std::string>{"data.img"});
}

TEST_F(PlanDir, TheTuiSaysItChoseTheProfile) {
  const std::string file = data_file("target.img");
  PlanRequest r = request_for(file, (dir_ / "r.json").string());
  r.chooser = ProfileChooser::tui;
  auto planned = build_plan(r);
  ASSERT_TRUE(planned.ok()) << planned.error().message();
  EXPECT_EQ(planned->plan.devices.front().profile_reason, "measurement only (profile none chosen in the TUI): no limits judged");
}

TEST_F(PlanDir, OptionsThatCannotHoldAreRefusedBeforeAnythingIsMade) {
  const std::string file = data_file("target.img");
  PlanRequest r = request_for(file, (dir_ / "r.json").string());
  r.options.duration_s = 400 * 86400.0;
  EXPECT_NE(refusal(build_plan(r)).find("--duration"), std::string::npos);
  r = request_for(file, (dir_ / "r.json").string());
  r.all = true;
  EXPECT_NE(refusal(build_plan(r)).find("twice"), std::string::npos);
  r = request_for(file, (dir_ / "r.json").string());
  r.rate_caps["/dev/loop99"] = 100;
  EXPECT_NE(refusal(build_plan(r)).find("not one of the devices"), std::string::npos);
  r = request_for(file, (dir_ / "r.json").string());
  r.profile = "no-such-profile";
  refusal(build_plan(r));
  r = request_for(file, (dir_ / "r.json").string());
  r.suite.placeholder = true;
  EXPECT_NE(refusal(build_plan(r)).find("placeholder"), std::string::npos);
  EXPECT_EQ(entries(), std::vector<std::string>{"target.img"});
}

TEST(PlanNames, ADefaultReportNameHasNoColonAndSaysWhatAndWhich) {
  const std::string name = default_report_name("report", "quick");
  EXPECT_TRUE(name.starts_with("diskvet-report-quick-")) << name;
  EXPECT_TRUE(name.ends_with(".json")) << name;
  EXPECT_EQ(name.find(':'), std::string::npos) << name;
}

TEST(PlanNames, DurationOptionsAreCheckedOnceForEveryFrontEnd) {
  EXPECT_DOUBLE_EQ(*parse_duration_option("5s", "--duration", 0.1), 5.0);
  EXPECT_EQ(parse_duration_option("0.05s", "--duration", 0.1).error().exit_code(), 2);
  EXPECT_EQ(parse_duration_option("400d", "--duration", 0.1).error().exit_code(), 2);
  EXPECT_EQ(parse_duration_option("0", "--precondition-limit", 0).error().exit_code(), 2);
  EXPECT_EQ(parse_duration_option("abc", "--precondition-limit", 0).error().exit_code(), 2);
}
