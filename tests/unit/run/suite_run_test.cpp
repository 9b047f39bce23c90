// A whole suite run on the null engine (no device): phases in SNIA order, events for front ends,
// steady-state rounds, a sweep, verdicts against a profile, and the report it makes.
#include "runner/run/suite_run.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <set>

#include "runner/io/seed.hpp"
#include "runner/report/report_json.hpp"
#include "runner/report/report_text.hpp"
#include "suites/profile.hpp"
#include "suites/suite.hpp"
#include "tests/support/null_run_report.hpp"
#include "tests/support/pausing_clock.hpp"

using namespace diskvet;
using namespace diskvet::runner;

namespace {

const char* kSuite = R"({
  "name": "null-check",
  "probe": {"enabled": false},
  "precondition": {"enabled": true, "required": true, "capacities": 1, "bs": "128k", "iodepth": 8},
  "steady_state": {"enabled": true, "required": false, "round": "0.1s", "window_rounds": 5, "max_rounds": 6},
  "defaults": {"runtime": "0.1s", "engine": "null", "interval": "0.05s"},
  "tests": [
    {"id": "latency-qd1", "workloads": [{"rw": "randread", "iodepth": 1}, {"rw": "randwrite", "iodepth": 1}]},
    {"id": "max-iops", "sweep": {"steps": [{"iodepth": 1}, {"iodepth": 4}]}, "workloads": [{"rw": "randread"}]}
  ]
})";

const char* kProfile = R"({
  "name": "null-profile",
  "limits": {
    "latency-qd1": {"read.iops": {"min": 1}, "write.lat_mean_us": {"max": 1e9}},
    "max-iops": {"read.iops": {"min": 1e15}},
    "absent-test": {"iops": {"min": 1}}
  }
})";

// Records what a front end would see.
class Recorder final : public RunEvents {
 public:
  void on_phase(const PhaseEvent& e) override { phases.push_back(e.phase); }
  void on_progress(const ProgressEvent& e) override {
    ++progress;
    if (e.fraction < 0 || e.fraction > 1) bad_fraction = true;
  }
  void on_sample(const SampleEvent&) override { ++samples; }
  void on_verdict(const std::string&, const MetricVerdict& v) override { verdicts.push_back(v); }
  void on_device_verdict(const DeviceVerdictEvent& e) override { device_verdicts.push_back(e.verdict.status); }
  std::vector<Phase> phases;
  int progress = 0, samples = 0;
  bool bad_fraction = false;
  std::vector<MetricVerdict> verdicts;
  std::vector<VerdictStatus> device_verdicts;
};

// One 4 MiB O_DIRECT scratch file per name in the current directory, added to the plan as a device;
// removed when this goes out of scope. why_not says why not, where the file system refuses O_DIRECT.
struct ScratchDevices {
  std::vector<std::string> paths;
  std::string why_not;
  ScratchDevices(RunPlan& plan, std::initializer_list<const char*> names) {
    for (const char* name : names) {
      paths.push_back((std::filesystem::current_path() / fmt::format("diskvet-suite-run-{}-{}.img", name, getpid())).string());
      auto file = Target::open(paths.back(), false, 4u << 20);
      if (!file) {
        why_not = "no O_DIRECT scratch file here: " + file.error().message();
        return;
      }
      devices::Device dev;
      dev.path = paths.back();
      plan.devices.push_back(DevicePlan{dev, std::move(*file), std::nullopt, "", 0});
    }
  }
  ~ScratchDevices() {
    for (const auto& p : paths) std::filesystem::remove(p);
  }
};

size_t first(const std::vector<Phase>& v, Phase p) {
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] == p) return i;
  return v.size();
}

}  // namespace

TEST(SuiteRun, RunsThePhasesInOrderAndJudgesAgainstTheProfile) {
  auto suite = suites::parse_suite(kSuite, "null.json");
  ASSERT_TRUE(suite.ok()) << suite.error().message();
  auto profile = suites::parse_profile(kProfile, "p.json");
  ASSERT_TRUE(profile.ok()) << profile.error().message();
  RunPlan plan;
  plan.suite = *suite;
  devices::Device dev;
  dev.path = "null";
  dev.size_bytes = 64u << 20;
  plan.devices.push_back(DevicePlan{dev, Target::null(64u << 20), *profile, "test", 0});
  Recorder rec;
  RunResult r = run_suite(plan, RunHooks{}, rec);

  // SNIA order: precondition before any steady-state round, rounds before the sweep's measurements
  // and the verdicts (which read the rounds' measurement window), done.
  ASSERT_LT(first(rec.phases, Phase::precondition), first(rec.phases, Phase::steady_state));
  ASSERT_LT(first(rec.phases, Phase::steady_state), first(rec.phases, Phase::measure));
  ASSERT_LT(first(rec.phases, Phase::steady_state), first(rec.phases, Phase::verdict));
  EXPECT_EQ(rec.phases.back(), Phase::done);
  EXPECT_GT(rec.samples, 0);
  EXPECT_GT(rec.progress, 0);
  EXPECT_FALSE(rec.bad_fraction);

  ASSERT_EQ(r.devices.size(), 1u);
  const DeviceResult& d = r.devices[0];
  EXPECT_TRUE(d.completed);
  EXPECT_TRUE(d.precondition.completed);
  EXPECT_NEAR(d.precondition.capacities_written, 1.0, 1e-9);
  ASSERT_EQ(d.tests.size(), 2u);
  const WorkloadRecord& lat_read = d.tests[0].workloads[0];
  EXPECT_GE(lat_read.rounds.size(), 5u);
  EXPECT_LE(lat_read.rounds.size(), 6u);
  ASSERT_TRUE(lat_read.steady_state);
  const WorkloadRecord& sweep = d.tests[1].workloads[0];
  ASSERT_GE(sweep.sweep.size(), 1u);
  ASSERT_TRUE(sweep.knee);
  EXPECT_LT(*sweep.knee, sweep.sweep.size());
  EXPECT_EQ(sweep.workload.iodepth, sweep.sweep[*sweep.knee].iodepth) << "the verdict reads the knee's measurement";
  // With steady state on, rounds bring the device to steady state before the sweep (SNIA PTS).
  EXPECT_GE(sweep.rounds.size(), 5u);
  EXPECT_LE(sweep.rounds.size(), 6u);
  ASSERT_TRUE(sweep.steady_state);
  EXPECT_TRUE(sweep.ran);

  // latency-qd1 passes both limits; max-iops cannot reach 1e15: the device fails, exit 1.
  ASSERT_EQ(d.tests[0].verdicts.size(), 2u);
  EXPECT_EQ(d.tests[0].verdict.status, VerdictStatus::pass);
  EXPECT_EQ(d.tests[1].verdict.status, VerdictStatus::fail);
  EXPECT_EQ(d.verdict.status, VerdictStatus::fail);
  EXPECT_EQ(r.verdict, VerdictStatus::fail);
  EXPECT_EQ(r.exit_code(), 1);
  EXPECT_EQ(rec.verdicts.size(), 3u);
  ASSERT_EQ(rec.device_verdicts.size(), 1u);
  EXPECT_EQ(rec.device_verdicts[0], VerdictStatus::fail);

  auto doc = report_json(r, probe_host());
  EXPECT_EQ(doc.at("schema").as_string(), "diskvet-report/2");
  EXPECT_EQ(doc.at("verdict").as_string(), "FAIL");
  std::string text = render_report_text(doc);
  EXPECT_NE(text.find("OVERALL: FAIL"), std::string::npos) << text;
  EXPECT_NE(text.find("max-iops"), std::string::npos);
}

TEST(SuiteRun, AStopRequestEndsTheRunWithAPartialResult) {
  auto suite = suites::parse_suite(kSuite, "null.json");
  ASSERT_TRUE(suite.ok());
  RunPlan plan;
  plan.suite = *suite;
  devices::Device dev;
  dev.path = "null";
  plan.devices.push_back(DevicePlan{dev, Target::null(64u << 20), std::nullopt, "", 0});
  std::atomic<bool> stop{true};
  plan.options.stop = &stop;
  Recorder rec;
  RunResult r = run_suite(plan, RunHooks{}, rec);
  EXPECT_TRUE(r.aborted);
  EXPECT_EQ(r.exit_code(), 3);
  EXPECT_FALSE(r.devices[0].completed);
}

TEST(SuiteRun, ADeviceReturningIoErrorsFailsNamingTheFirstWhileTheOtherDevicesComplete) {
  // Two scratch files; one is cut to half its size after it was opened: reads past the new end come
  // back short, as from a drive that cannot read its second half.
  auto suite = suites::parse_suite(R"({
    "name": "errors", "region": "4m",
    "probe": {"enabled": false}, "precondition": {"enabled": false}, "steady_state": {"enabled": false},
    "defaults": {"runtime": "0.5s", "ramp": "0s", "engine": "psync", "interval": "0.25s"},
    "tests": [{"id": "seqread-128k", "workloads": [{"rw": "read", "bs": "128k", "iodepth": 1}]}]
  })", "errors.json");
  ASSERT_TRUE(suite.ok()) << suite.error().message();
  RunPlan plan;
  plan.suite = *suite;
  ScratchDevices scratch(plan, {"sick", "well"});
  if (!scratch.why_not.empty()) GTEST_SKIP() << scratch.why_not;
  const auto& paths = scratch.paths;
  ASSERT_EQ(::truncate(paths[0].c_str(), 2u << 20), 0);
  Recorder rec;
  RunResult r = run_suite(plan, RunHooks{}, rec);

  const DeviceResult& d = r.devices[0];
  EXPECT_TRUE(d.completed);
  EXPECT_GE(d.facts.io_errors, 1u);
  EXPECT_EQ(d.verdict.status, VerdictStatus::fail);
  ASSERT_FALSE(d.first_io_errors.empty());
  EXPECT_EQ(d.first_io_errors[0].error.offset_bytes, 2u << 20) << "the first read past the cut";
  const uint64_t lba = (2u << 20) / plan.devices[0].target.info().logical_block_size;
  EXPECT_EQ(d.first_io_errors[0].lba, lba);
  ASSERT_FALSE(d.verdict.reasons.empty());
  EXPECT_NE(d.verdict.reasons.back().find("I/O error"), std::string::npos) << d.verdict.reasons.back();
  EXPECT_NE(d.verdict.reasons.back().find("first: read at LBA " + std::to_string(lba)), std::string::npos) << d.verdict.reasons.back();

  // The other device ran its test whole, and the run is complete: FAIL, exit 1, not an abort.
  EXPECT_TRUE(r.devices[1].completed);
  EXPECT_EQ(r.devices[1].facts.io_errors, 0u);
  EXPECT_GT(r.devices[1].tests.at(0).workloads.at(0).result.total_ios(), 0u);
  EXPECT_NE(r.devices[1].verdict.status, VerdictStatus::fail);
  EXPECT_FALSE(r.aborted);
  EXPECT_EQ(r.exit_code(), 1);
  auto doc = report_json(r, probe_host());
  EXPECT_TRUE(doc.at("complete").as_bool());
  EXPECT_EQ(doc.at("devices").as_array()[0].as_object().at("first_io_errors").as_array().at(0).as_object().at("lba").as_uint64(), lba);
}

TEST(SuiteRun, WithoutSteadyStateTheSweepVerdictReadsTheKneeStepItself) {
  std::string text = kSuite;
  text.replace(text.find(R"("enabled": true, "required": false, "round")"), 15, R"("enabled": false)");
  auto suite = suites::parse_suite(text, "null.json");
  ASSERT_TRUE(suite.ok()) << suite.error().message();
  RunPlan plan;
  plan.suite = *suite;
  devices::Device dev;
  dev.path = "null";
  dev.size_bytes = 64u << 20;
  plan.devices.push_back(DevicePlan{dev, Target::null(64u << 20), std::nullopt, "test", 0});
  Recorder rec;
  RunResult r = run_suite(plan, RunHooks{}, rec);
  ASSERT_EQ(r.devices.size(), 1u);
  const WorkloadRecord& sweep = r.devices[0].tests[1].workloads[0];
  ASSERT_TRUE(sweep.knee);
  EXPECT_TRUE(sweep.rounds.empty());
  EXPECT_FALSE(sweep.steady_state);
  EXPECT_EQ(sweep.workload.iodepth, sweep.sweep[*sweep.knee].iodepth);
  EXPECT_EQ(first(rec.phases, Phase::steady_state), rec.phases.size()) << "no round ran";
}

TEST(SuiteRun, DevicesInParallelDoNotSpinAgainstEachOtherAndTheReportSaysSo) {
  auto suite = suites::parse_suite(R"({
    "name": "spin", "region": "4m",
    "probe": {"enabled": false}, "precondition": {"enabled": false}, "steady_state": {"enabled": false},
    "defaults": {"runtime": "0.2s", "ramp": "0s", "engine": "io_uring", "interval": "0.1s"},
    "tests": [{"id": "latency-qd1", "workloads": [{"rw": "randread", "bs": "4k", "iodepth": 1, "spin": "50us"}]}]
  })", "spin.json");
  ASSERT_TRUE(suite.ok()) << suite.error().message();
  RunPlan plan;
  plan.suite = *suite;
  plan.options.parallel = true;
  ScratchDevices scratch(plan, {"a", "b"});
  if (!scratch.why_not.empty()) GTEST_SKIP() << scratch.why_not;
  Recorder rec;
  RunResult r = run_suite(plan, RunHooks{}, rec);
  ASSERT_EQ(r.devices.size(), 2u);
  for (const auto& d : r.devices) {
    const WorkloadRecord& w = d.tests.at(0).workloads.at(0);
    EXPECT_TRUE(w.ran) << w.error;
    EXPECT_GT(w.result.total_ios(), 0u);
    EXPECT_EQ(w.result.workload.spin_us, 0u);
  }
  bool said = false;
  for (const auto& n : r.notes) said = said || n.find("spin") != std::string::npos;
  EXPECT_TRUE(said);
  EXPECT_EQ(plan.suite.tests[0].workloads[0].spin_us, 50u) << "the plan itself is left alone";
}

namespace {

// Two tests on the null target: one on the null engine (runs), one whose engine needs a file
// descriptor the null target does not have, so its job cannot start.
const char* kOneCannotStart = R"({
  "name": "cannot-start",
  "probe": {"enabled": false}, "precondition": {"enabled": false}, "steady_state": {"enabled": false},
  "defaults": {"runtime": "0.1s", "ramp": "0s", "engine": "null", "interval": "0.05s"},
  "tests": [
    {"id": "runs", "workloads": [{"rw": "randread", "iodepth": 1}]},
    {"id": "cannot-start", "workloads": [{"rw": "randread", "iodepth": 1, "engine": "io_uring"}]}
  ]
})";

const char* kLooseProfile = R"({
  "name": "loose",
  "limits": {"runs": {"read.iops": {"min": 1}}, "cannot-start": {"read.iops": {"min": 1}}}
})";

RunResult run_null(const char* suite_text, std::optional<suites::Profile> profile, bool measurement_only = false,
                   std::optional<uint64_t> randseed = std::nullopt) {
  auto suite = suites::parse_suite(suite_text, "null.json");
  EXPECT_TRUE(suite.ok()) << suite.error().message();
  RunPlan plan;
  plan.suite = *suite;
  plan.options.measurement_only = measurement_only;
  plan.options.randseed = randseed;
  devices::Device dev;
  dev.path = "null";
  dev.size_bytes = 64u << 20;
  plan.devices.push_back(DevicePlan{dev, Target::null(64u << 20), std::move(profile), "no shipped profile matches model 'null'", 0});
  Recorder rec;
  return run_suite(plan, RunHooks{}, rec);
}

}  // namespace

TEST(SuiteRun, ATestThatCannotStartMakesTheDeviceAnErrorThoughAnotherPassed) {
  auto profile = suites::parse_profile(kLooseProfile, "loose.json");
  ASSERT_TRUE(profile.ok()) << profile.error().message();
  RunResult r = run_null(kOneCannotStart, *profile);
  ASSERT_EQ(r.devices.size(), 1u);
  const DeviceResult& d = r.devices[0];
  ASSERT_EQ(d.tests.size(), 2u);
  EXPECT_EQ(d.tests[0].verdict.status, VerdictStatus::pass);
  EXPECT_FALSE(d.tests[1].workloads.at(0).ran);
  EXPECT_EQ(d.tests[1].verdict.status, VerdictStatus::error);
  EXPECT_EQ(d.verdict.status, VerdictStatus::error);
  bool named = false;
  for (const auto& why : d.verdict.reasons) named = named || why.find("cannot-start: the randread workload could not run") != std::string::npos;
  EXPECT_TRUE(named) << "the device's reasons say which workload could not run";
  EXPECT_EQ(r.verdict, VerdictStatus::error);
  EXPECT_EQ(r.exit_code(), 3);
  auto doc = report_json(r, probe_host());
  EXPECT_EQ(doc.at("verdict").as_string(), "ERROR");
  EXPECT_EQ(doc.at("exit_code").to_number<int>(), 3);
  EXPECT_EQ(doc.at("devices").as_array().at(0).as_object().at("verdict").as_string(), "ERROR");
}

TEST(SuiteRun, WithoutAProfileThePerformanceTestsAreNotJudgedAndTheRunExitsFour) {
  std::string suite = kOneCannotStart;
  suite.replace(suite.find(R"(, "engine": "io_uring")"), 22, "");
  RunResult r = run_null(suite.c_str(), std::nullopt);
  const DeviceResult& d = r.devices.at(0);
  EXPECT_TRUE(d.completed);
  EXPECT_EQ(d.tests.at(0).verdict.status, VerdictStatus::not_judged);
  EXPECT_EQ(d.verdict.status, VerdictStatus::not_judged);
  ASSERT_FALSE(d.verdict.reasons.empty());
  EXPECT_NE(d.verdict.reasons[0].find("no profile: no shipped profile matches model 'null'"), std::string::npos) << d.verdict.reasons[0];
  EXPECT_EQ(r.exit_code(), 4);
  auto doc = report_json(r, probe_host());
  EXPECT_EQ(doc.at("verdict").as_string(), "NOT-JUDGED");
  EXPECT_FALSE(doc.at("measurement_only").as_bool());
}

TEST(SuiteRun, MeasurementOnlyExitsZeroWhenEverythingRanAndSaysSo) {
  std::string suite = kOneCannotStart;
  suite.replace(suite.find(R"(, "engine": "io_uring")"), 22, "");
  RunResult r = run_null(suite.c_str(), std::nullopt, true);
  EXPECT_EQ(r.devices.at(0).verdict.status, VerdictStatus::not_judged) << "nothing was judged: it is not a PASS";
  EXPECT_EQ(r.exit_code(), 0);
  auto doc = report_json(r, probe_host());
  EXPECT_TRUE(doc.at("measurement_only").as_bool());
  EXPECT_EQ(doc.at("profile").as_string(), "none");
  bool said = false;
  for (const auto& n : r.notes) said = said || n.find("measurement only") != std::string::npos;
  EXPECT_TRUE(said);
  // A test that could not run is still an error, measurement only or not.
  EXPECT_EQ(run_null(kOneCannotStart, std::nullopt, true).exit_code(), 3);
}

TEST(SuiteRun, AVerificationStateOverTheBudgetIsRefusedByThePlanAndStopsOnlyItsDeviceInTheRun) {
  auto suite = suites::parse_suite(R"({"name": "v", "probe": {"enabled": false}, "defaults": {"bs": "4k", "verify": true, "engine": "psync"},
    "tests": [{"id": "w", "passes": 1, "workloads": [{"rw": "write"}]}]})", "v.json");
  ASSERT_TRUE(suite.ok()) << suite.error().message();
  RunPlan plan;
  plan.suite = *suite;
  plan.options.verify_memory_bytes = 8 << 10;  // 1024 blocks need 4 KiB exact, but the job's buffers come first
  const std::string path = (std::filesystem::current_path() / fmt::format("diskvet-verify-budget-{}.img", getpid())).string();
  auto file = Target::open(path, true, 4u << 20);
  if (!file) GTEST_SKIP() << "no O_DIRECT scratch file here: " << file.error().message();
  devices::Device dev;
  dev.path = path;
  plan.devices.push_back(DevicePlan{dev, std::move(*file), std::nullopt, "", 0});
  auto planned = plan_verify_memory(plan);
  ASSERT_FALSE(planned);
  EXPECT_EQ(planned.error().exit_code(), 2);
  EXPECT_EQ(planned.error().subject, path);
  EXPECT_NE(planned.error().what.find("8KiB"), std::string::npos) << planned.error().message();
  // A front end that runs the plan anyway gets a report: the device stops before any I/O, saying why.
  Recorder rec;
  RunResult r = run_suite(plan, RunHooks{}, rec);
  std::filesystem::remove(path);
  ASSERT_EQ(r.devices.size(), 1u);
  EXPECT_TRUE(r.aborted);
  EXPECT_NE(r.devices[0].facts.error.find("--verify-memory"), std::string::npos) << r.devices[0].facts.error;
  EXPECT_EQ(r.devices[0].verify.blocks_written, 0u);
  EXPECT_TRUE(r.devices[0].tests.empty());
}

namespace {

// Every engine run's seed in a result: the preconditioning is not kept, each round's and each
// workload's (its last step) are.
std::vector<uint64_t> seeds_of(const RunResult& r) {
  std::vector<uint64_t> seeds;
  for (const auto& d : r.devices)
    for (const auto& t : d.tests)
      for (const auto& w : t.workloads) {
        for (const auto& round : w.rounds) seeds.push_back(round.randseed);
        seeds.push_back(w.workload.seed);
      }
  return seeds;
}

}  // namespace

TEST(SuiteRun, EveryRoundAndWorkloadHasASeedOfItsOwnAndEveryRunItsOwnSeeds) {
  RunResult a = run_null(kSuite, std::nullopt), b = run_null(kSuite, std::nullopt);
  EXPECT_NE(a.randseed, b.randseed);
  const std::vector<uint64_t> sa = seeds_of(a), sb = seeds_of(b);
  ASSERT_GE(sa.size(), 10u);  // rounds of three workloads, and the workloads
  std::set<uint64_t> distinct(sa.begin(), sa.end());
  // The final window of a steady-state workload is its rounds joined: its seed is its last round's.
  // Everything else differs: no round, step or workload repeats another's data or offsets.
  size_t joined = 0;
  for (const auto& t : a.devices[0].tests)
    for (const auto& w : t.workloads) joined += w.result_is_window;
  EXPECT_EQ(distinct.size(), sa.size() - joined);
  for (uint64_t s : sb) EXPECT_EQ(distinct.count(s), 0u) << "a second run repeats a seed of the first";
  // Asked for, the seed repeats the run: the steps take the same seeds in the same order (how many
  // rounds run depends on what the rounds measure, so the sequences may end apart).
  RunResult c = run_null(kSuite, std::nullopt, false, a.randseed);
  EXPECT_EQ(c.randseed, a.randseed);
  std::set<uint64_t> sequence;
  SeedSequence device(derive_seed(a.randseed, 0));
  for (int i = 0; i < 200; ++i) sequence.insert(device.next());
  for (uint64_t s : seeds_of(c)) EXPECT_EQ(sequence.count(s), 1u);
  for (uint64_t s : sa) EXPECT_EQ(sequence.count(s), 1u);
  EXPECT_EQ(c.devices[0].tests[0].workloads[0].rounds.at(0).randseed, a.devices[0].tests[0].workloads[0].rounds.at(0).randseed);
  auto doc = report_json(c, probe_host());
  EXPECT_EQ(doc.at("randseed").to_number<uint64_t>(), a.randseed);
  EXPECT_NE(render_report_text(doc).find(fmt::format("randseed {}", a.randseed)), std::string::npos);
}

// diskvet stopped mid-run (its sampler's clock jumps two minutes, again and again): the device is
// neither abandoned nor failed for stalls, and it is not PASS either, since the latencies of the I/Os
// out then hold the pause: INCONCLUSIVE, saying so, with the pauses in the workload's result.
TEST(SuiteRun, DiskvetsOwnPauseMakesTheDeviceInconclusiveNotFailedForStalls) {
  constexpr const char* kSuite = R"({"name": "paused", "probe": {"enabled": false}, "precondition": {"enabled": false},
    "steady_state": {"enabled": false}, "warmup": {"enabled": false},
    "defaults": {"runtime": "1s", "ramp": "0s", "engine": "null", "interval": "0.1s", "iodepth": 4},
    "tests": [{"id": "read", "workloads": [{"rw": "randread"}]}]})";
  constexpr const char* kEasy = R"({"name": "easy", "limits": {"read": {"iops": {"min": 1}}}})";
  diskvet::testing::PausingClock clock(120'000'000'000, 6);
  diskvet::testing::NullDrive d{.serial = "SN-PAUSED"};
  const boost::json::object report = diskvet::testing::null_run_report({d}, kSuite, kEasy, &clock);
  const auto& dev = report.at("devices").as_array().at(0).as_object();
  const std::string reasons = boost::json::serialize(dev.at("reasons"));
  EXPECT_EQ(dev.at("verdict").as_string(), "INCONCLUSIVE") << reasons;
  EXPECT_NE(reasons.find("diskvet itself did not run for"), std::string::npos) << reasons;
  EXPECT_EQ(reasons.find("stalled I/O"), std::string::npos) << reasons;
  EXPECT_EQ(dev.at("watchdog").at("stall_count").as_uint64(), 0u);
  EXPECT_FALSE(dev.at("watchdog").at("abandoned").as_bool());
  const auto& result = dev.at("tests").at(0).at("workloads").at(0).at("result").as_object();
  EXPECT_EQ(result.at("pauses").as_array().size(), static_cast<size_t>(clock.jumps));
  EXPECT_GE(clock.jumps, 1);
}

TEST(SuiteRun, APhaseADeviceNotOpenedForWritingCannotRunIsNamedInItsReport) {
  // The address probe writes: on a device the operator did not consent to writing it does not run,
  // and the report says so instead of leaving it out (the phase sequence's skipped()).
  auto suite = suites::parse_suite(R"({"name": "ro", "probe": {"enabled": false}, "address_probe": {"enabled": true},
    "precondition": {"enabled": true, "required": false, "capacities": 1},
    "defaults": {"runtime": "0.1s", "engine": "psync"}, "tests": [{"id": "r", "workloads": [{"rw": "randread"}]}]})",
                                   "ro.json");
  ASSERT_TRUE(suite.ok()) << suite.error().message();
  RunPlan plan;
  plan.suite = *suite;
  ScratchDevices scratch(plan, {"read-only"});
  if (!scratch.why_not.empty()) GTEST_SKIP() << scratch.why_not;
  ASSERT_FALSE(plan.devices[0].target.writable());
  Recorder rec;
  RunResult r = run_suite(plan, RunHooks{}, rec);
  ASSERT_EQ(r.devices.size(), 1u);
  const DeviceResult& d = r.devices[0];
  EXPECT_FALSE(d.capacity_probe.has_value());
  ASSERT_EQ(d.phases_not_run.size(), 1u);
  EXPECT_EQ(d.phases_not_run[0].phase, "address_probe");
  EXPECT_EQ(d.phases_not_run[0].why, "the device was not opened for writing (no consent)");
  EXPECT_EQ(d.precondition.reason, "not preconditioned: the device was not opened for writing (no consent)")
      << "said once, in its own record";
  EXPECT_EQ(first(rec.phases, Phase::capacity_probe), rec.phases.size());
  const auto doc = report_json(r, probe_host());
  const ReportView view = decode_report(doc);
  EXPECT_TRUE(view.problems.empty()) << describe(view.problems.front());
  const std::string text = render_report_text(view);
  EXPECT_NE(text.find("  not run: address_probe: the device was not opened for writing (no consent)\n"), std::string::npos) << text;
}
