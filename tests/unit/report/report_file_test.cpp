// The report file: SHA-256 seal, atomic replacement, and an interrupted write leaving the old report.
#include "runner/report/report_file.hpp"
#include "runner/report/report_schema.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "runner/report/sha256.hpp"

using namespace diskvet::runner;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class ReportFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("diskvet-suites-report-test-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

boost::json::object report(const std::string& verdict, size_t padding = 0) {
  boost::json::object o;
  o["schema"] = kReportSchema;
  o["verdict"] = verdict;
  o["padding"] = std::string(padding, 'x');
  return o;
}

}  // namespace

TEST(Sha256, MatchesTheFipsTestVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// The whole view is hashed, NUL bytes included (a length, not a C string, goes to libcrypto).
TEST(Sha256, HashesEmbeddedNulBytes) {
  using namespace std::string_view_literals;
  EXPECT_EQ(sha256_hex("\0"sv), "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d");
  EXPECT_EQ(sha256_hex("ab\0cd"sv), "1bd95cf6379b94fd3b6ceb1390b70b822c76442c4bfb8273b941e09d8dfd9b56");
}

TEST_F(ReportFile, SealMatchesUntilTheContentChanges) {
  std::string sealed = seal_report(report("PASS"));
  EXPECT_TRUE(seal_matches(sealed));
  EXPECT_TRUE(seal_matches(sealed + "\n"));
  std::string tampered = sealed;
  tampered.replace(tampered.find("PASS"), 4, "FAIL");
  EXPECT_FALSE(seal_matches(tampered));
}

TEST_F(ReportFile, LoadReportsTheSealReadsEarlierSchemasAndRefusesNewerOnes) {
  fs::path p = dir_ / "r.json";
  ASSERT_TRUE(write_file_atomic(p, seal_report(report("PASS")) + "\n").ok());
  auto r = load_report(p);
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_TRUE(r->seal_ok);
  EXPECT_EQ(r->doc.at("verdict").as_string(), "PASS");
  boost::json::object older = report("PASS");
  older["schema"] = "diskvet-report/1";
  ASSERT_TRUE(write_file_atomic(p, seal_report(older)).ok());
  EXPECT_TRUE(load_report(p).ok()) << "a report of the first release still opens";
  boost::json::object newer = report("PASS");
  newer["schema"] = "diskvet-report/" + std::to_string(kReportSchemaVersion + 1);
  ASSERT_TRUE(write_file_atomic(p, seal_report(newer)).ok());
  auto refused = load_report(p);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message().find("newer than this diskvet reads"), std::string::npos) << refused.error().message();
  for (const char* bad : {"diskvet-report/0", "diskvet-report/", "diskvet-report/1x", "diskvet-report/-1"}) {
    older["schema"] = bad;
    ASSERT_TRUE(write_file_atomic(p, seal_report(older)).ok());
    EXPECT_FALSE(load_report(p).ok()) << bad;
  }
  ASSERT_TRUE(write_file_atomic(p, "{\"hello\": 1}").ok());
  EXPECT_FALSE(load_report(p).ok());
}

TEST_F(ReportFile, AnInterruptedWriteLeavesThePreviousReportIntact) {
  fs::path p = dir_ / "report.json";
  std::string previous = seal_report(report("PASS")) + "\n";
  ASSERT_TRUE(write_file_atomic(p, previous).ok());
  // A child process dies (SIGKILL: no cleanup of any kind) after the first chunk of a large report.
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::string big = seal_report(report("FAIL", 1 << 20));
    (void)write_file_atomic(p, big, [](size_t written) {
      if (written > 0) raise(SIGKILL);
    });
    _exit(0);  // not reached
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the child was meant to die mid-write";
  EXPECT_EQ(slurp(p), previous);
  auto r = load_report(p);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->seal_ok);
  // The half-written temporary file is beside it, never in its place.
  bool saw_tmp = false;
  for (const auto& e : fs::directory_iterator(dir_))
    if (e.path().filename().string().starts_with(".report.json.tmp.")) saw_tmp = fs::file_size(e.path()) < (1u << 20);
  EXPECT_TRUE(saw_tmp);
}

TEST_F(ReportFile, RefusesADeviceNodeADirectoryOrALinkToEitherAndWritesNothing) {
  fs::create_directory(dir_ / "sub");
  fs::create_symlink("/dev/null", dir_ / "to-null");
  fs::create_symlink(dir_ / "sub", dir_ / "to-dir");
  for (const std::string& out : {std::string("/dev/null"), (dir_ / "sub").string(), (dir_ / "to-null").string(), (dir_ / "to-dir").string()}) {
    auto w = write_file_atomic(out, seal_report(report("PASS")));
    ASSERT_FALSE(w) << out;
    EXPECT_EQ(w.error().exit_code(), 2) << w.error().message();
    EXPECT_EQ(w.error().message().find('\n'), std::string::npos);
  }
  EXPECT_TRUE(fs::is_symlink(dir_ / "to-null"));
  EXPECT_TRUE(fs::is_symlink(dir_ / "to-dir"));
  EXPECT_TRUE(fs::is_empty(dir_ / "sub"));
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++entries;
  EXPECT_EQ(entries, 3u) << "a temporary file was left behind";
}

// A link at the report's own name is replaced by the report; the file it pointed to is not touched.
TEST_F(ReportFile, ALinkAtTheReportPathIsReplacedNotFollowed) {
  std::ofstream(dir_ / "someone.txt") << "theirs";
  fs::create_symlink(dir_ / "someone.txt", dir_ / "report.json");
  ASSERT_TRUE(write_file_atomic((dir_ / "report.json").string(), seal_report(report("PASS"))));
  EXPECT_FALSE(fs::is_symlink(dir_ / "report.json"));
  EXPECT_TRUE(seal_matches(slurp(dir_ / "report.json")));
  EXPECT_EQ(slurp(dir_ / "someone.txt"), "theirs");
}

// The temporary file's old name was predictable (.NAME.tmp.PID) and opened with O_TRUNC through any
// link planted there. Links planted at every name the old scheme could use for this process are
// never followed now: the files they point to keep their content.
TEST_F(ReportFile, APlantedLinkAtATemporaryNameIsNeverFollowed) {
  std::ofstream(dir_ / "victim.bin") << "precious";
  fs::create_symlink(dir_ / "victim.bin", dir_ / (".report.json.tmp." + std::to_string(getpid())));
  ASSERT_TRUE(write_file_atomic((dir_ / "report.json").string(), seal_report(report("PASS"))));
  EXPECT_EQ(slurp(dir_ / "victim.bin"), "precious");
  EXPECT_TRUE(seal_matches(slurp(dir_ / "report.json")));
}

TEST_F(ReportFile, RefusesAPathWhoseDirectoryDoesNotExist) {
  auto w = write_file_atomic((dir_ / "missing" / "report.json").string(), "{}");
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().exit_code(), 2);
}

// Issue 23: the report's temporary file is created when the run is planned and held; an output that
// cannot be created is refused then (exit 2, one line naming it), with nothing left behind.
TEST_F(ReportFile, AClaimCreatesTheTemporaryFileAtOnceAndTheCommitPutsTheReportInPlace) {
  const fs::path p = dir_ / "report.json";
  auto claim = claim_output(p.string());
  ASSERT_TRUE(claim.ok()) << claim.error().message();
  EXPECT_TRUE(fs::exists(dir_ / claim->temporary_name())) << "the temporary file exists from the claim on";
  EXPECT_TRUE(claim->temporary_name().starts_with(".report.json.tmp."));
  EXPECT_FALSE(fs::exists(p));
  ASSERT_TRUE(claim->commit(seal_report(report("PASS"))).ok());
  EXPECT_TRUE(seal_matches(slurp(p)));
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++entries;
  EXPECT_EQ(entries, 1u) << "only the report";
  EXPECT_FALSE(claim->commit("again").ok()) << "a claim is spent by its commit";
}

TEST_F(ReportFile, AClaimNeverCommittedLeavesNothing) {
  { auto claim = claim_output((dir_ / "report.json").string()); ASSERT_TRUE(claim.ok()); }
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(ReportFile, AClaimLeavesAFileSwappedInAtItsTemporaryNameAlone) {
  std::string tmp;
  {
    auto claim = claim_output((dir_ / "report.json").string());
    ASSERT_TRUE(claim.ok());
    tmp = claim->temporary_name();
    fs::remove(dir_ / tmp);
    std::ofstream(dir_ / tmp) << "someone else's";
  }
  EXPECT_EQ(slurp(dir_ / tmp), "someone else's");
}

TEST_F(ReportFile, OutputsThatCannotBeCreatedAreRefusedAtClaimTime) {
  std::ofstream(dir_ / "plain.txt") << "a file";
  for (const std::string& out : {std::string("/proc/diskvet-r.json"), std::string("/sys/kernel/diskvet-r.json"),
                                 (dir_ / "plain.txt" / "r.json").string(), (dir_ / (std::string(300, 'n') + ".json")).string()}) {
    auto claim = claim_output(out, "--out");
    ASSERT_FALSE(claim.ok()) << out;
    EXPECT_EQ(claim.error().exit_code(), 2) << claim.error().message();
    EXPECT_EQ(claim.error().message().find('\n'), std::string::npos);
    EXPECT_NE(claim.error().message().find(out.substr(0, 30)), std::string::npos) << claim.error().message();
  }
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++entries;
  EXPECT_EQ(entries, 1u) << "nothing but plain.txt";
}

// A name as long as a file system takes still gets a temporary name within NAME_MAX.
TEST_F(ReportFile, ALongButValidNameStillGetsATemporaryFile) {
  const fs::path p = dir_ / (std::string(250, 'l') + ".json");
  auto claim = claim_output(p.string());
  ASSERT_TRUE(claim.ok()) << claim.error().message();
  ASSERT_TRUE(claim->commit("{}").ok());
  EXPECT_EQ(slurp(p), "{}");
}

TEST_F(ReportFile, AppendedTextGoesAheadOfTheCommitAndNothingIsInPlaceUntilThen) {
  // A log streamed while the run goes on (fio's histogram log): appended pieces, then the rest.
  const fs::path p = dir_ / "job_clat_hist.1.log";
  auto claim = claim_output(p.string(), "--write_hist_log");
  ASSERT_TRUE(claim.ok()) << claim.error().message();
  ASSERT_TRUE(claim->append("first\n").ok());
  ASSERT_TRUE(claim->append("second\n").ok());
  EXPECT_FALSE(fs::exists(p)) << "appending puts nothing in place";
  EXPECT_EQ(slurp(dir_ / claim->temporary_name()), "first\nsecond\n");
  ASSERT_TRUE(claim->commit("last\n").ok());
  EXPECT_EQ(slurp(p), "first\nsecond\nlast\n");
}

TEST_F(ReportFile, AnOutputDirectoryMustTakeANewFileAndIsLeftAsItWas) {
  EXPECT_TRUE(check_output_dir(dir_.string(), "--logs").ok());
  EXPECT_TRUE(fs::is_empty(dir_)) << "the probe file is removed";
  std::ofstream(dir_ / "plain") << "x";
  for (const fs::path& bad : {dir_ / "plain", dir_ / "missing", fs::path("/proc")}) {
    auto ok = check_output_dir(bad.string(), "--logs");
    ASSERT_FALSE(ok.ok()) << bad;
    EXPECT_EQ(ok.error().kind, diskvet::ErrorKind::usage) << bad;
  }
}
