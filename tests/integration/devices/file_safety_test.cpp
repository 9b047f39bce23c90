// Files diskvet writes, end to end with the real binary: a symlink to a loop device holding a known
// pattern is planted at every path diskvet writes (io --filename, run --device, --out, report --html,
// tui --report-dir, the report's temporary file); each is refused or harmless and the loop device is
// unchanged byte for byte. An existing file is data: written only with --destroy-data naming it.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <fstream>
#include <sstream>
#include <thread>

#include "device_lab.hpp"
#include "runner/report/report_file.hpp"
#include "tests/support/loop_lab.hpp"

namespace {

namespace fs = std::filesystem;
using diskvet::testing::LoopDevice;

constexpr uint64_t kLoopBytes = 8ull << 20;

// A pattern no write of diskvet's reproduces: each 512-byte sector names its own offset.
void fill_pattern(const std::string& path, uint64_t size_bytes) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0) << path;
  std::string sector(512, '\0');
  for (uint64_t off = 0; off < size_bytes; off += sector.size()) {
    std::string tag = fmt::format("diskvet-pattern@{:012x};", off);
    for (size_t i = 0; i < sector.size(); ++i) sector[i] = tag[i % tag.size()];
    ASSERT_EQ(::pwrite(fd, sector.data(), sector.size(), static_cast<off_t>(off)), static_cast<ssize_t>(sector.size()));
  }
  ASSERT_EQ(::fsync(fd), 0);
  ::close(fd);
}

std::string file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

constexpr const char* kWriteSuite =
    R"({"name": "tiny-write", "tests": [{"id": "latency-qd1", "workloads": [{"rw": "randwrite", "bs": "4k", "iodepth": 1, "runtime": "0.3s"}]}]})";
constexpr const char* kReadSuite =
    R"({"name": "tiny-read", "tests": [{"id": "latency-qd1", "workloads": [{"rw": "randread", "bs": "4k", "iodepth": 1, "runtime": "0.3s"}]}]})";
constexpr const char* kProfile = R"({"name": "easy", "limits": {"latency-qd1": {"iops": {"min": 1}}}})";

// A working directory on the build tree's file system (O_DIRECT works there, not on tmpfs) with
// the suites, and a loop device (the victim) filled with the pattern.
class FileSafety : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::current_path() / fmt::format("diskvet-file-safety-{}-{}", ::getpid(),
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    std::ofstream(dir_ / "write.json") << kWriteSuite;
    std::ofstream(dir_ / "read.json") << kReadSuite;
    std::ofstream(dir_ / "profile.json") << kProfile;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  // The victim loop device, its pattern read back with O_DIRECT.
  bool make_victim() {
    victim_ = std::make_unique<LoopDevice>("devices-test", kLoopBytes);
    if (!victim_->valid()) return false;
    fill_pattern(victim_->path(), kLoopBytes);
    pattern_ = diskvet::test::device_bytes(victim_->path());
    return pattern_.size() == kLoopBytes && pattern_.starts_with("diskvet-pattern@");
  }
  void expect_victim_unchanged() const {
    EXPECT_TRUE(diskvet::test::device_bytes(victim_->path()) == pattern_) << victim_->path() << " was written";
  }
  // A block device node for the victim, made in the working directory (a /dev node is not ours to risk).
  std::string victim_node() const {
    struct stat st{};
    if (::stat(victim_->path().c_str(), &st) != 0) return {};
    std::string node = (dir_ / "node").string();
    if (::mknod(node.c_str(), S_IFBLK | 0600, st.st_rdev) != 0) return {};
    return node;
  }
  std::string link_to_victim(const std::string& name) const {
    fs::create_symlink(victim_->path(), dir_ / name);
    return (dir_ / name).string();
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  // diskvet with `args` (words separated by spaces) in the scratch directory, stopped after 60 s.
  diskvet::test::CommandResult run_diskvet(const std::string& args) const {
    auto argv = diskvet::testing::words(args);
    argv.insert(argv.begin(), {"timeout", "60", DISKVET_BINARY});
    return diskvet::testing::run_command(argv, {.merge_output = true, .working_dir = dir_.string()});
  }
  // A data file of 8 MiB carrying the pattern.
  std::string make_data_file(const std::string& name) const {
    std::string p = path(name);
    std::ofstream(p, std::ios::binary) << std::string(kLoopBytes, '\0');
    fill_pattern(p, kLoopBytes);
    return p;
  }

  fs::path dir_;
  std::unique_ptr<LoopDevice> victim_;
  std::string pattern_;
};

bool is_block_node(const std::string& p) {
  struct stat st{};
  return ::lstat(p.c_str(), &st) == 0 && S_ISBLK(st.st_mode);
}

TEST_F(FileSafety, IoNeverWritesALoopDeviceThroughALinkNamedAsAScratchFile) {
  SKIP_UNLESS_LOOP_DEVICES();
  ASSERT_TRUE(make_victim());
  std::string link = link_to_victim("scratch.img");
  // A link to a disk names the disk: without consent naming that disk it is refused.
  for (std::string consent : {std::string(), " --destroy-data " + path("other.img")}) {
    auto r = run_diskvet("io --filename " + link + " --size 4m --rw randwrite --runtime 0.3s --quiet" + consent);
    EXPECT_EQ(r.exit_code, 2) << r.out;
  }
  expect_victim_unchanged();
}

TEST_F(FileSafety, RunNeverWritesALoopDeviceThroughALinkNamedAsItsDevice) {
  SKIP_UNLESS_LOOP_DEVICES();
  ASSERT_TRUE(make_victim());
  std::string link = link_to_victim("file.dat");
  auto r = run_diskvet("run -q --suite write.json --profile profile.json --device " + link + " --out r.json");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  expect_victim_unchanged();
}

TEST_F(FileSafety, OutThatIsALinkToALoopDeviceIsRefusedBeforeAnythingRuns) {
  SKIP_UNLESS_LOOP_DEVICES();
  ASSERT_TRUE(make_victim());
  LoopDevice tested("devices-test", kLoopBytes);
  ASSERT_TRUE(tested.valid());
  std::string tested_before = diskvet::test::device_bytes(tested.path());
  std::string link = link_to_victim("out.json");
  auto r = run_diskvet(fmt::format("run -q --suite write.json --profile profile.json --device {0} --destroy-data {0} --out {1}", tested.path(), link));
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_NE(r.out.find("symbolic link to a block device"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::is_symlink(link)) << "the link was replaced";
  expect_victim_unchanged();
  EXPECT_TRUE(diskvet::test::device_bytes(tested.path()) == tested_before) << "the run started although its report could not be written";
}

TEST_F(FileSafety, OutThatIsADeviceNodeIsNeitherWrittenNorReplaced) {
  SKIP_UNLESS_LOOP_DEVICES();
  ASSERT_TRUE(make_victim());
  std::string node = victim_node();
  ASSERT_FALSE(node.empty()) << "cannot mknod in " << dir_;
  auto r = run_diskvet("run -q --suite read.json --profile profile.json --device " + victim_->path() + " --out " + node);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("is a block device node"), std::string::npos) << r.out;
  EXPECT_TRUE(is_block_node(node)) << "a file was renamed over the device node";
  expect_victim_unchanged();
}

TEST_F(FileSafety, HtmlOutputThatIsALinkToALoopDeviceOrANodeIsRefused) {
  SKIP_UNLESS_LOOP_DEVICES();
  ASSERT_TRUE(make_victim());
  // A report to render: a read-only run on the victim (reads need no consent).
  auto run = run_diskvet("run -q --suite read.json --profile profile.json --device " + victim_->path() + " --out r.json");
  ASSERT_NE(run.exit_code, 2) << run.out;
  ASSERT_TRUE(fs::exists(dir_ / "r.json")) << run.out;
  std::string link = link_to_victim("page.html");
  std::string node = victim_node();
  ASSERT_FALSE(node.empty());
  for (const auto& out : {link, node}) {
    auto r = run_diskvet("report r.json --html " + out);
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  }
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_TRUE(is_block_node(node));
  expect_victim_unchanged();
  // A plain path still gets its page.
  auto ok = run_diskvet("report r.json --html page2.html");
  EXPECT_EQ(ok.exit_code, 0) << ok.out;
  EXPECT_TRUE(fs::is_regular_file(dir_ / "page2.html"));
}

TEST_F(FileSafety, TuiRefusesAReportDirThatIsALinkToALoopDevice) {
  SKIP_UNLESS_LOOP_DEVICES();
  ASSERT_TRUE(make_victim());
  std::string link = link_to_victim("reports");
  auto r = run_diskvet("tui --report-dir " + link);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("--report-dir"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("is not a directory"), std::string::npos) << r.out;
  expect_victim_unchanged();
}

// What the TUI does at the end of a run (write_file_atomic into --report-dir), with links to the
// victim planted at the old predictable temporary name and at the report's own name.
TEST_F(FileSafety, AReportNeverReachesALoopDeviceThroughAPlantedLink) {
  SKIP_UNLESS_LOOP_DEVICES();
  ASSERT_TRUE(make_victim());
  link_to_victim(".a.json.tmp." + std::to_string(::getpid()));
  auto a = diskvet::runner::write_file_atomic(path("a.json"), "{\"report\": 1}\n");
  EXPECT_TRUE(a) << a.error().message();
  expect_victim_unchanged();
  std::string b = link_to_victim("b.json");
  auto refused = diskvet::runner::write_file_atomic(b, "{\"report\": 2}\n");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().exit_code(), 2);
  EXPECT_TRUE(fs::is_symlink(b));
  expect_victim_unchanged();
}

TEST_F(FileSafety, IoWritesAnExistingFileOnlyWithConsentNamingIt) {
  std::string data = make_data_file("data.bin");
  std::string before = file_bytes(data);
  std::string io = "io --filename " + data + " --rw randwrite --bs 4k --runtime 0.3s --quiet";
  for (std::string consent : {std::string(), std::string(" --destroy-data all-unprotected"), " --destroy-data " + path("other.bin")}) {
    auto r = run_diskvet(io + consent);
    EXPECT_EQ(r.exit_code, 2) << consent << ": " << r.out;
    EXPECT_NE(r.out.find("add --destroy-data " + data), std::string::npos) << r.out;
  }
  EXPECT_TRUE(file_bytes(data) == before) << "written without consent";
  // Reads need no consent.
  auto read = run_diskvet("io --filename " + data + " --rw randread --bs 4k --runtime 0.3s --quiet");
  EXPECT_EQ(read.exit_code, 0) << read.out;
  EXPECT_TRUE(file_bytes(data) == before);
  auto r = run_diskvet(io + " --destroy-data " + data);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_FALSE(file_bytes(data) == before) << "consent was given and nothing was written";
}

TEST_F(FileSafety, RunWritesAnExistingFileOnlyWithConsentNamingIt) {
  std::string data = make_data_file("file.dat");
  std::string before = file_bytes(data);
  std::string run = "run -q --suite write.json --profile profile.json --device file.dat --out r.json";
  for (std::string consent : {std::string(), std::string(" --destroy-data all-unprotected")}) {
    auto r = run_diskvet(run + consent);
    EXPECT_EQ(r.exit_code, 2) << consent << ": " << r.out;
    EXPECT_NE(r.out.find("add --destroy-data file.dat"), std::string::npos) << r.out;
  }
  EXPECT_TRUE(file_bytes(data) == before) << "written without consent";
  // Consent by the canonical path is as good as the path as given.
  auto r = run_diskvet(run + " --destroy-data " + fs::canonical(data).string());
  EXPECT_NE(r.exit_code, 2) << r.out;
  EXPECT_FALSE(file_bytes(data) == before) << "consent was given and nothing was written";
}

TEST_F(FileSafety, NeverWritesAFileThroughALinkWhateverTheConsent) {
  std::string data = make_data_file("data.bin");
  std::string before = file_bytes(data);
  fs::create_symlink(data, dir_ / "link.bin");
  std::string link = path("link.bin");
  auto io = run_diskvet("io --filename " + link + " --rw randwrite --bs 4k --runtime 0.3s --quiet --destroy-data " + link + " --destroy-data " + data);
  EXPECT_EQ(io.exit_code, 2) << io.out;
  EXPECT_NE(io.out.find("symbolic link"), std::string::npos) << io.out;
  auto run = run_diskvet("run -q --suite write.json --profile profile.json --device " + link + " --out r.json --destroy-data " + link +
                     " --destroy-data " + data);
  EXPECT_EQ(run.exit_code, 2) << run.out;
  EXPECT_TRUE(file_bytes(data) == before);
}

}  // namespace

// Without root, `run` with no device makes a scratch file in the working directory and removes it at
// the end, but only while the name still holds the file it created: a file put under that name
// meanwhile (a user's, or one planted to be deleted) is left alone, byte for byte.
TEST_F(FileSafety, ANonRootRunRemovesOnlyTheScratchFileItCreated) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root, to run diskvet as nobody (setpriv)";
  if (::access("/usr/bin/setpriv", X_OK) != 0) GTEST_SKIP() << "setpriv not installed (util-linux)";
  // nobody may create files in the working directory, and reach it.
  ASSERT_EQ(::chown(dir_.c_str(), 65534, 65534), 0);
  for (fs::path p = dir_.parent_path(); p != p.root_path(); p = p.parent_path()) {
    struct stat st{};
    ASSERT_EQ(::stat(p.c_str(), &st), 0);
    if (!(st.st_mode & S_IXOTH)) GTEST_SKIP() << p << " is not searchable by other users";
  }
  std::ofstream(dir_ / "slow.json")
      << R"({"name": "slow-read", "tests": [{"id": "latency-qd1", "workloads": [{"rw": "randread", "bs": "4k", "iodepth": 1, "runtime": "4s"}]}]})";
  diskvet::test::CommandResult r;
  std::thread run([&] {
    r = diskvet::testing::run_command({"timeout", "120", "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", DISKVET_BINARY, "run", "-q",
                                       "--suite", "slow.json", "--profile", "profile.json", "--scratch-size", "64m", "--out", "r.json"},
                                      {.merge_output = true, .working_dir = dir_.string()});
  });
  // Wait for the scratch file, then for the tests to start on it (the report's notes name it).
  fs::path scratch;
  for (int i = 0; i < 600 && scratch.empty(); ++i) {
    for (const auto& e : fs::directory_iterator(dir_))
      if (e.path().filename().string().starts_with("diskvet-scratch-")) scratch = e.path();
    if (scratch.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  bool swapped = false;
  std::string planted;
  if (!scratch.empty()) {
    // Swapped once the run has laid the whole file out (its blocks reach --scratch-size): the tests
    // then read it, and the name no longer holds it when the run ends.
    constexpr uint64_t kScratchBytes = 64ull << 20;
    struct stat st{};
    for (int i = 0; i < 1200 && !(::stat(scratch.c_str(), &st) == 0 && static_cast<uint64_t>(st.st_blocks) * 512 >= kScratchBytes); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    fs::rename(scratch, dir_ / "moved.img");
    planted = make_data_file(scratch.filename().string());
    swapped = true;
  }
  run.join();
  ASSERT_TRUE(swapped) << "no scratch file appeared: " << r.out;
  EXPECT_EQ(r.exit_code, 0) << r.out;
  ASSERT_TRUE(fs::exists(planted)) << "the file put under the scratch file's name was removed: " << r.out;
  std::string bytes = file_bytes(planted);
  EXPECT_TRUE(bytes.size() == kLoopBytes && bytes.starts_with("diskvet-pattern@")) << "the planted file was changed";
  // And without a swap the scratch file is gone after the run.
  fs::remove(planted);
  fs::remove(dir_ / "moved.img");
  auto again = diskvet::testing::run_command({"timeout", "120", "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", DISKVET_BINARY, "run", "-q",
                                              "--suite", "read.json", "--profile", "profile.json", "--scratch-size", "64m", "--out", "r2.json"},
                                             {.merge_output = true, .working_dir = dir_.string()});
  EXPECT_EQ(again.exit_code, 0) << again.out;
  for (const auto& e : fs::directory_iterator(dir_)) EXPECT_FALSE(e.path().filename().string().starts_with("diskvet-scratch-")) << e.path();
}
