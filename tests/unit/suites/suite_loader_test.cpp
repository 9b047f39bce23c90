#include <fmt/format.h>

#include <regex>
// Suite and profile files: the shipped ones load; broken ones are refused naming file, key, reason.
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "suites/profile.hpp"
#include "suites/suite.hpp"

using namespace diskvet;
using namespace diskvet::suites;

namespace {
std::string suite_error(const std::string& text) {
  auto s = parse_suite(text, "bad.json");
  EXPECT_FALSE(s.ok()) << text;
  if (s.ok()) return {};
  EXPECT_EQ(s.error().kind, ErrorKind::input);
  EXPECT_EQ(s.error().exit_code(), 2);
  return s.error().message();
}
std::string profile_error(const std::string& text) {
  auto p = parse_profile(text, "bad.json");
  EXPECT_FALSE(p.ok()) << text;
  return p.ok() ? std::string() : p.error().message();
}
const char* kMinimal = R"({"name": "t", "tests": [{"id": "a", "workloads": [{"rw": "randread"}]}]})";
}  // namespace

TEST(SuiteLoader, LoadsEveryShippedSuite) {
  auto names = builtin_suite_names();
  for (const char* want : {"quick", "acceptance", "burnin", "snia-iops"}) EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  for (const auto& n : names) {
    auto s = builtin_suite(n);
    ASSERT_TRUE(s.ok()) << s.error().message();
    EXPECT_EQ(s->name, n);
  }
}

TEST(SuiteLoader, QuickHasTheFourTestsAndNoPreconditioning) {
  auto s = builtin_suite("quick");
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->tests.size(), 4u);
  EXPECT_EQ(s->tests[0].id, "latency-qd1");
  EXPECT_EQ(s->tests[1].id, "max-iops");
  ASSERT_TRUE(s->tests[1].sweep);
  EXPECT_EQ(s->tests[2].id, "max-throughput-64k");
  EXPECT_EQ(s->tests[3].id, "mixed-70-30");
  EXPECT_EQ(s->tests[3].workloads[0].rwmixread_pct, 70u);
  EXPECT_FALSE(s->precondition.enabled);
  EXPECT_FALSE(s->steady_state.enabled);
  EXPECT_EQ(s->tests[0].workloads[0].runtime_s, 2.0);  // from defaults
}

TEST(SuiteLoader, AcceptanceFollowsSnia) {
  auto s = builtin_suite("acceptance");
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->precondition.enabled && s->precondition.required);
  EXPECT_EQ(s->precondition.capacities, 2.0);
  EXPECT_EQ(s->precondition.bs_bytes, 128u * 1024);
  EXPECT_EQ(s->steady_state.criteria.window_rounds, 5u);
  EXPECT_EQ(s->steady_state.criteria.max_rounds, 25u);
  EXPECT_EQ(s->tests[2].workloads[0].runtime_s, 60.0);
}

TEST(SuiteLoader, SniaIopsIsThePtsIopsMatrixOfFiftySixCellsTrackedOnFourKRandomWrite) {
  auto s = builtin_suite("snia-iops");
  ASSERT_TRUE(s.ok()) << s.error().message();
  EXPECT_TRUE(s->purge);
  EXPECT_TRUE(s->precondition.enabled && s->precondition.required);
  EXPECT_EQ(s->precondition.capacities, 2.0);
  EXPECT_EQ(s->precondition.bs_bytes, 128u * 1024);
  EXPECT_TRUE(s->steady_state.enabled && s->steady_state.required);
  EXPECT_EQ(s->steady_state.round_s, 60.0);
  EXPECT_EQ(s->steady_state.criteria.window_rounds, 5u);
  EXPECT_EQ(s->steady_state.criteria.max_rounds, 25u);
  EXPECT_EQ(s->steady_state.criteria.max_excursion_pct, 20.0);
  EXPECT_EQ(s->steady_state.criteria.max_slope_pct, 10.0);
  ASSERT_EQ(s->tests.size(), 1u);
  const TestSpec& t = s->tests[0];
  ASSERT_TRUE(t.matrix);
  EXPECT_EQ(t.matrix->rwmixread_pcts, (std::vector<uint32_t>{100, 95, 65, 50, 35, 5, 0}));
  std::vector<uint32_t> sizes = t.matrix->bs_bytes;
  std::sort(sizes.begin(), sizes.end());
  EXPECT_EQ(sizes, (std::vector<uint32_t>{512, 4096, 8192, 16384, 32768, 65536, 131072, 1048576}));
  ASSERT_EQ(t.workloads.size(), 56u);
  // Mix-major cells, random I/O, the pure mixes as randread and randwrite.
  for (size_t m = 0; m < 7; ++m)
    for (size_t b = 0; b < 8; ++b) {
      const auto& w = t.workloads[m * 8 + b];
      EXPECT_EQ(w.rwmixread_pct, t.matrix->rwmixread_pcts[m]);
      EXPECT_EQ(w.bs_bytes, t.matrix->bs_bytes[b]);
      const auto want = w.rwmixread_pct == 100 ? runner::Pattern::randread : w.rwmixread_pct == 0 ? runner::Pattern::randwrite : runner::Pattern::randrw;
      EXPECT_EQ(w.rw, want);
    }
  const auto& tracked = t.workloads.at(t.matrix->tracked);
  EXPECT_EQ(tracked.rw, runner::Pattern::randwrite);
  EXPECT_EQ(tracked.bs_bytes, 4096u);
}

TEST(SuiteLoader, RefusesABrokenMatrix) {
  const std::string head = R"({"name": "t", "tests": [{"id": "a", )";
  EXPECT_NE(suite_error(head + R"("matrix": {"rwmixread": [100, 0], "bs": ["4k"], "track": {"rwmixread": 50, "bs": "4k"}}}]})").find("not a cell"),
            std::string::npos);
  EXPECT_NE(suite_error(head + R"("matrix": {"rwmixread": [100, 0], "bs": ["4k"]}}]})").find("track"), std::string::npos);
  EXPECT_NE(suite_error(head + R"("matrix": {"rwmixread": [100, 0], "bs": ["4k"], "track": {"rwmixread": 0, "bs": "4k"}}, "workloads": [{}]}]})")
                .find("cells"),
            std::string::npos);
  EXPECT_NE(suite_error(head + R"("matrix": {"rwmixread": [101], "bs": ["4k"], "track": {"rwmixread": 0, "bs": "4k"}}}]})").find("percentage"),
            std::string::npos);
  EXPECT_NE(suite_error(head + R"("matrix": {"rwmixread": [0], "bs": ["1000"], "track": {"rwmixread": 0, "bs": "4k"}}}]})").find("block size"),
            std::string::npos);
  EXPECT_NE(suite_error(head + R"("matrix": {"rwmixread": [0, 0], "bs": ["4k"], "track": {"rwmixread": 0, "bs": "4k"}}}]})").find("twice"),
            std::string::npos);
}

TEST(SuiteLoader, BurninWritesRandomlyMixesAndReadsBackEverythingVerified) {
  auto s = builtin_suite("burnin");
  ASSERT_TRUE(s.ok()) << s.error().message();
  EXPECT_FALSE(s->placeholder);
  ASSERT_EQ(s->tests.size(), 3u);
  EXPECT_EQ(s->tests[0].passes, 1.0);
  EXPECT_EQ(s->tests[0].workloads[0].rw, diskvet::runner::Pattern::write);
  EXPECT_EQ(s->tests[1].passes, 0.0);
  EXPECT_EQ(s->tests[1].workloads[0].rw, diskvet::runner::Pattern::randrw);
  EXPECT_EQ(s->tests[2].passes, 1.0);
  for (const auto& t : s->tests) EXPECT_TRUE(t.workloads[0].verify) << t.id;
}

TEST(SuiteLoader, RefusesVerifyingWorkloadsOfDifferentBlockSizes) {
  std::string e = suite_error(R"({"name": "t", "tests": [{"id": "a", "verify": true, "bs": "4k", "workloads": [{"rw": "write"}]},
                                                         {"id": "b", "verify": true, "bs": "8k", "workloads": [{"rw": "read"}]}]})");
  EXPECT_NE(e.find("same bs"), std::string::npos) << e;
}

TEST(SuiteLoader, RefusesAnUnknownKeyNamingIt) {
  std::string e = suite_error(R"({"name": "t", "tests": [{"id": "a", "workloads": [{"rw": "randread", "blocksize": "4k"}]}]})");
  EXPECT_NE(e.find("bad.json"), std::string::npos) << e;
  EXPECT_NE(e.find("tests[0].workloads[0].blocksize"), std::string::npos) << e;
  EXPECT_NE(e.find("not a known key"), std::string::npos) << e;
}

TEST(SuiteLoader, RefusesAWrongType) {
  std::string e = suite_error(R"({"name": "t", "tests": [{"id": "a", "iodepth": "deep", "workloads": [{"rw": "randread"}]}]})");
  EXPECT_NE(e.find("tests[0].iodepth"), std::string::npos) << e;
  EXPECT_NE(e.find("whole number"), std::string::npos) << e;
}

TEST(SuiteLoader, RefusesImpossibleValues) {
  EXPECT_NE(suite_error(R"({"name": "t", "tests": [{"id": "a", "workloads": [{"rw": "randread", "iodepth": 0}]}]})").find("iodepth"), std::string::npos);
  EXPECT_NE(suite_error(R"({"name": "t", "tests": [{"id": "a", "workloads": [{"rw": "sideways"}]}]})").find("not a pattern"), std::string::npos);
  EXPECT_NE(suite_error(R"({"name": "t", "tests": [{"id": "a", "workloads": [{"bs": 1000}]}]})").find("multiple of 512"), std::string::npos);
  EXPECT_NE(suite_error(R"({"name": "t", "steady_state": {"window_rounds": 5, "max_rounds": 3}, "tests": [{"id": "a", "workloads": [{}]}]})").find("max_rounds"), std::string::npos);
  EXPECT_NE(suite_error(R"({"name": "t", "tests": [{"id": "a", "workloads": [{}]}, {"id": "a", "workloads": [{}]}]})").find("appears twice"), std::string::npos);
  EXPECT_NE(suite_error(R"({"name": "t", "tests": [{"id": "a", "sweep": {"steps": [{"iodepth": 8}, {"iodepth": 4}]}, "workloads": [{}]}]})").find("must grow"), std::string::npos);
  EXPECT_NE(suite_error(R"({"name": "t", "tests": []})").find("empty"), std::string::npos);
  // A report names the suite it judged by: an empty name is no name (fuzz_suite found it).
  EXPECT_NE(suite_error(R"({"name": "", "tests": [{"id": "a", "workloads": [{}]}]})").find("name: is empty"), std::string::npos);
}

TEST(SuiteLoader, BurninAndAcceptanceRunShortSelfTestsBeforeAndExtendedAfterQuickNone) {
  for (const char* name : {"burnin", "acceptance"}) {
    auto s = builtin_suite(name);
    ASSERT_TRUE(s.ok()) << s.error().message();
    EXPECT_EQ(s->self_test.before, devices::SelfTestType::short_test) << name;
    EXPECT_EQ(s->self_test.after, devices::SelfTestType::extended) << name;
  }
  auto quick = builtin_suite("quick");
  ASSERT_TRUE(quick.ok());
  EXPECT_EQ(quick->self_test.before, devices::SelfTestType::none);
  EXPECT_EQ(quick->self_test.after, devices::SelfTestType::none);
}

TEST(SuiteLoader, ReadsSelfTestsAndRefusesAnUnknownKind) {
  auto s = parse_suite(R"({"name": "t", "self_test": {"before": "none", "after": "extended"}, "tests": []})", "t.json");
  ASSERT_TRUE(s.ok()) << s.error().message();  // self-tests alone make a suite
  EXPECT_EQ(s->self_test.before, devices::SelfTestType::none);
  EXPECT_EQ(s->self_test.after, devices::SelfTestType::extended);
  EXPECT_NE(suite_error(R"({"name": "t", "self_test": {"before": "long"}, "tests": [{"id": "a", "workloads": [{}]}]})").find("self_test.before: 'long' is not a self-test"),
            std::string::npos)
      << suite_error(R"({"name": "t", "self_test": {"before": "long"}, "tests": [{"id": "a", "workloads": [{}]}]})");
}

TEST(SuiteLoader, RefusesBrokenJsonNamingTheLine) {
  std::string e = suite_error("{\n\"name\": \"t\",\n\"tests\": [\n}");
  EXPECT_NE(e.find("bad.json:4"), std::string::npos) << e;
}

TEST(SuiteLoader, AcceptsAMinimalSuiteWithEngineDefaults) {
  auto s = parse_suite(kMinimal, "t.json");
  ASSERT_TRUE(s.ok()) << s.error().message();
  EXPECT_EQ(s->tests[0].workloads[0].bs_bytes, 4096u);
}

TEST(SuiteLoader, ShippedLatencyTestsPollTheirCompletions) {
  for (const char* name : {"quick", "acceptance"}) {
    auto s = builtin_suite(name);
    ASSERT_TRUE(s.ok()) << s.error().message();
    for (const auto& t : s->tests)
      for (const auto& w : t.workloads) EXPECT_EQ(w.spin_us != 0, t.id == "latency-qd1") << name << " " << t.id;
  }
}

TEST(SuiteLoader, ReadsJobPlacementAndCompletionPollingInFiosNames) {
  auto s = parse_suite(R"({"name": "t", "defaults": {"cpus_allowed": "0-1,3", "cpus_allowed_policy": "split"},
                           "tests": [{"id": "a", "workloads": [{"rw": "randread", "spin": "20us"}]}]})", "t.json");
  ASSERT_TRUE(s.ok()) << s.error().message();
  const auto& w = s->tests[0].workloads[0];
  EXPECT_EQ(w.cpus.cpus, (std::vector<uint32_t>{0, 1, 3}));
  EXPECT_EQ(w.cpus_policy, runner::CpuPolicy::split);
  EXPECT_EQ(w.spin_us, 20u);
  EXPECT_NE(suite_error(R"({"name": "t", "tests": [{"id": "a", "workloads": [{"cpus_allowed": "two"}]}]})").find("tests[0].workloads[0].cpus_allowed"),
            std::string::npos);
  EXPECT_NE(suite_error(R"({"name": "t", "tests": [{"id": "a", "workloads": [{"cpus_allowed_policy": "spread"}]}]})").find("not a policy"),
            std::string::npos);
  EXPECT_NE(suite_error(R"({"name": "t", "tests": [{"id": "a", "workloads": [{"spin": "2s"}]}]})").find("spin"), std::string::npos);
}

TEST(SuiteLoader, ReadsPolledCompletionsInFiosName) {
  auto s = parse_suite(R"({"name": "t", "tests": [{"id": "a", "workloads": [{"rw": "randread", "hipri": true}, {"rw": "randread"}]}]})",
                       "t.json");
  ASSERT_TRUE(s.ok()) << s.error().message();
  EXPECT_TRUE(s->tests[0].workloads[0].hipri);
  EXPECT_FALSE(s->tests[0].workloads[1].hipri);
  EXPECT_NE(suite_error(R"({"name": "t", "tests": [{"id": "a", "workloads": [{"hipri": "yes"}]}]})").find("hipri"), std::string::npos);
}

// A workload may name NVMe passthrough (the plan check refuses it on a device without it); the
// fast path is a suite's own key, on in acceptance only.
TEST(SuiteLoader, ReadsNvmePassthroughPerWorkloadAndTheFastPath) {
  auto s = parse_suite(R"({"name": "t", "fast_path": {"enabled": true, "compare_block_path": false},
                           "tests": [{"id": "a", "workloads": [{"engine": "io_uring_cmd"}, {}]}]})",
                       "t.json");
  ASSERT_TRUE(s.ok()) << s.error().message();
  EXPECT_EQ(s->tests[0].workloads[0].engine, runner::BackendKind::io_uring_cmd);
  EXPECT_EQ(s->tests[0].workloads[1].engine, runner::BackendKind::io_uring);
  EXPECT_TRUE(s->fast_path.enabled);
  EXPECT_FALSE(s->fast_path.compare_block_path);
  EXPECT_NE(suite_error(R"({"name": "t", "fast_path": {"enabled": true, "polled": true}, "tests": [{"id": "a", "workloads": [{}]}]})")
                .find("fast_path.polled"),
            std::string::npos);
  for (const char* name : {"quick", "burnin"}) {
    auto b = builtin_suite(name);
    ASSERT_TRUE(b.ok()) << b.error().message();
    EXPECT_FALSE(b->fast_path.enabled) << name;
  }
  auto acceptance = builtin_suite("acceptance");
  ASSERT_TRUE(acceptance.ok()) << acceptance.error().message();
  EXPECT_TRUE(acceptance->fast_path.enabled);
  EXPECT_TRUE(acceptance->fast_path.compare_block_path);
}

// Found while fuzzing: names were matched with std::regex, which recurses once per character in
// libstdc++, so a suite file with a long name crashed diskvet (stack overflow) instead of loading.
TEST(SuiteLoader, LongNamesAndIdsAreCheckedWithoutOverflowingTheStack) {
  std::string name(200000, 'a');
  auto s = parse_suite(R"({"name": ")" + name + R"(", "tests": [{"id": "a", "workloads": [{}]}]})", "long.json");
  ASSERT_TRUE(s.ok()) << s.error().message();
  EXPECT_EQ(s->name, name);
  std::string bad_id(200000, 'b');
  bad_id += 'B';
  EXPECT_NE(suite_error(R"({"name": "t", "tests": [{"id": ")" + bad_id + R"(", "workloads": [{}]}]})").find("is not a test id"), std::string::npos);
}

TEST(ProfileLoader, RefusesAModelPatternLongerThanAnyModel) {
  // Tens of thousands of nested groups overflowed libstdc++'s recursive regex compiler.
  std::string nested = std::string(50000, '(') + "a" + std::string(50000, ')');
  std::string e = profile_error(R"({"name": "p", "match": {"model": ")" + nested + R"("}, "limits": {}})");
  EXPECT_NE(e.find("match.model"), std::string::npos) << e.substr(0, 200);
  EXPECT_NE(e.find("more than 256"), std::string::npos) << e.substr(0, 200);
  std::string longest = "^" + std::string(254, 'x') + "$";
  EXPECT_TRUE(parse_profile(R"({"name": "p", "match": {"model": ")" + longest + R"("}, "limits": {}})", "ok.json").ok());
}

TEST(ProfileLoader, RefusesBackReferencesAndHugeRepeatCountsBeforeTheRegexCompilerOverflows) {
  // libstdc++ reads `\5555...` (a back-reference) and `{N}` into a long unchecked: fuzz_profile found
  // the signed overflow (undefined behaviour) with a 110-digit back-reference.
  const std::string backref = profile_error(R"({"name": "p", "match": {"model": "^Q\\55555555555555555555555$"}, "limits": {}})");
  EXPECT_NE(backref.find("back-references"), std::string::npos) << backref;
  const std::string count = profile_error(R"({"name": "p", "match": {"model": "^a{1,99999999999999999999}$"}, "limits": {}})");
  EXPECT_NE(count.find("more than four digits"), std::string::npos) << count;
  // `\cX` takes the character after it, a backslash too: `\c\\5...` is a control character, then a
  // back-reference (fuzz_profile, after the first fix: the pairs of backslashes after it shift).
  const std::string control = profile_error(R"({"name": "p", "match": {"model": "^Q\\c\\\\5555555555555555555555$"}, "limits": {}})");
  EXPECT_NE(control.find("back-references"), std::string::npos) << control;
  // An escaped backslash before digits is a literal, and short counts and \d still load.
  EXPECT_TRUE(parse_profile(R"({"name": "p", "match": {"model": "^A\\\\5{2}\\d{1,4}$"}, "limits": {}})", "ok.json").ok());
}

TEST(ProfileLoader, LoadsTheShippedProfiles) {
  auto all = builtin_profiles();
  ASSERT_TRUE(all.ok()) << all.error().message();
  bool qemu = false, tmpl = false;
  for (const auto& p : *all) {
    EXPECT_FALSE(p.source.empty()) << p.name << " must say where its numbers come from";
    if (p.name == "qemu-nvme") qemu = std::regex_match(std::string("QEMU NVMe Ctrl"), std::regex(p.match.model_regex));
    if (p.name == "template") tmpl = p.template_only;
  }
  EXPECT_TRUE(qemu);
  EXPECT_TRUE(tmpl);
}

TEST(ProfileLoader, ReadsBurninLimitsAndRefusesAnUnknownOne) {
  auto p = parse_profile(R"({"name": "p", "burnin": {"max_slowdown_pct": 40, "max_temp_c": 70}, "limits": {}})", "p.json");
  ASSERT_TRUE(p.ok()) << p.error().message();
  EXPECT_EQ(p->burnin.max_slowdown_pct, 40.0);
  EXPECT_EQ(p->burnin.max_temp_c, 70.0);
  auto none = parse_profile(R"({"name": "p", "limits": {}})", "p.json");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->burnin.max_slowdown_pct);
  EXPECT_NE(profile_error(R"({"name": "p", "burnin": {"max_temp": 70}, "limits": {}})").find("burnin.max_temp"), std::string::npos);
}

TEST(ProfileLoader, RefusesABlankName) {
  // Found by fuzz_profile: an empty name loaded, and a report named its verdict's profile "".
  for (const char* name : {"", "   ", "p\\u0007"})
    EXPECT_NE(profile_error(fmt::format(R"({{"name": "{}", "limits": {{}}}})", name)).find("name"), std::string::npos) << name;
  EXPECT_TRUE(parse_profile(R"({"name": "vendor-model 1.92TB", "limits": {}})", "ok.json").ok());
}

TEST(ProfileLoader, RefusesAnUnknownMetric) {
  std::string e = profile_error(R"({"name": "p", "limits": {"max-iops": {"read.iopz": {"min": 1}}}})");
  EXPECT_NE(e.find("limits.max-iops.read.iopz"), std::string::npos) << e;
  EXPECT_NE(e.find("not a known metric"), std::string::npos) << e;
}

TEST(ProfileLoader, RefusesAMinimumOnLatencyAndBothBounds) {
  EXPECT_NE(profile_error(R"({"name": "p", "limits": {"t": {"lat_p99_us": {"min": 1}}}})").find("lower is better"), std::string::npos);
  EXPECT_NE(profile_error(R"({"name": "p", "limits": {"t": {"iops": {"min": 1, "max": 2}}}})").find("exactly one"), std::string::npos);
  EXPECT_NE(profile_error(R"({"name": "p", "limits": {"t": {"iops": {"min": -5}}}})").find("outside"), std::string::npos);
  EXPECT_NE(profile_error(R"({"name": "p", "limits": {"t": {"iops": {"min": 5, "tolerance": 3}}}})").find("tolerance"), std::string::npos);
  EXPECT_NE(profile_error(R"({"name": "p", "match": {"model": "(("}, "limits": {}})").find("regular expression"), std::string::npos);
}

TEST(SuiteLoader, RateIopsAndDataPatternKeysTakeFiosForms) {
  auto s = parse_suite(R"({"name": "t", "tests": [{"id": "a", "workloads": [
      {"rw": "randrw", "rate_iops": "800,200", "buffer_compress_percentage": 50, "dedupe_percentage": 25},
      {"rw": "randread", "rate_iops": 1000}]}]})", "t.json");
  ASSERT_TRUE(s.ok()) << s.error().message();
  const auto& a = s->tests[0].workloads[0];
  EXPECT_EQ(a.rate_iops, (std::array<uint64_t, runner::kDirections>{800, 200}));
  EXPECT_EQ(a.data.compress_pct, 50u);
  EXPECT_EQ(a.data.dedupe_pct, 25u);
  EXPECT_EQ(s->tests[0].workloads[1].rate_iops, (std::array<uint64_t, runner::kDirections>{1000, 1000}));
  EXPECT_NE(suite_error(R"({"name": "t", "tests": [{"id": "a", "workloads": [{"rw": "randrw", "rate_iops": "1,2,3"}]}]})").find("rate_iops"),
            std::string::npos);
  EXPECT_NE(suite_error(R"({"name": "t", "tests": [{"id": "a", "workloads": [{"rw": "write", "dedupe_percentage": 101}]}]})")
                .find("dedupe_percentage"),
            std::string::npos);
}

// Boost.JSON keeps the last of two equal keys; a suite or profile giving one twice is refused instead
// (which was meant?), naming the key and its line, at any depth.
TEST(SuiteLoader, RefusesAKeyGivenTwiceInOneObject) {
  std::string e = suite_error(R"({"name": "t",
    "tests": [{"id": "a", "workloads": [{"rw": "randwrite"}]}],
    "tests": [{"id": "b", "workloads": [{"rw": "randread"}]}]})");
  EXPECT_NE(e.find("bad.json:3"), std::string::npos) << e;
  EXPECT_NE(e.find("\"tests\" twice"), std::string::npos) << e;
  e = suite_error(R"({"name": "t", "tests": [{"id": "a", "workloads": [{"rw": "randread", "bs": "4k", "bs": "512"}]}]})");
  EXPECT_NE(e.find("\"bs\" twice"), std::string::npos) << e;
  // The same key in two objects is no duplicate.
  EXPECT_TRUE(parse_suite(R"({"name": "t", "tests": [{"id": "a", "workloads": [{"rw": "randread"}, {"rw": "read"}]}]})", "ok.json").ok());
  std::string p = profile_error(R"({"name": "p", "name": "q", "source": "test", "limits": {}})");
  EXPECT_NE(p.find("\"name\" twice"), std::string::npos) << p;
}

// Suite files are read as every input is: a FIFO or a device is refused by type, never waited on
// or read whole.
TEST(SuiteLoader, RefusesAFifoOrADeviceAsASuiteFile) {
  const std::string fifo = ::testing::TempDir() + "/diskvet-suite-fifo-" + std::to_string(::getpid());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto s = load_suite_file(fifo);
  ::unlink(fifo.c_str());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().exit_code(), 2);
  EXPECT_NE(s.error().message().find("a FIFO"), std::string::npos) << s.error().message();
  auto z = load_suite_file("/dev/zero");
  ASSERT_FALSE(z.ok());
  EXPECT_NE(z.error().message().find("character device"), std::string::npos) << z.error().message();
}

TEST(CapacityProbeRun, TheShippedWritingSuitesProbeAddressesFirst) {
  for (const char* name : {"quick", "acceptance", "burnin"}) {
    auto s = suites::builtin_suite(name);
    ASSERT_TRUE(s) << name;
    EXPECT_TRUE(s->address_probe.enabled) << name;
  }
  auto s = suites::parse_suite(R"({"name": "x", "address_probe": {"enabled": true, "budget": "64m", "flush": "1g"},
    "tests": [{"id": "r", "workloads": [{"rw": "randread", "bs": "4k", "runtime": "1s"}]}]})", "x.json");
  ASSERT_TRUE(s) << s.error().message();
  EXPECT_EQ(s->address_probe.budget_bytes, 64u << 20);
  EXPECT_EQ(s->address_probe.flush_bytes, 1u << 30);
  EXPECT_TRUE(suites::suite_writes(*s)) << "probing addresses writes: it needs consent";
  EXPECT_FALSE(suites::parse_suite(R"({"name": "x", "address_probe": {"enabled": true, "budjet": "1m"},
    "tests": [{"id": "r", "workloads": [{"rw": "randread", "bs": "4k", "runtime": "1s"}]}]})", "x.json"));
}
