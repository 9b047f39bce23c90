// File targets on a mounted volume, end to end with the real binary: `run --directory` and
// `io --directory` on an ext4 loop mount create a file of their own, fill it, name the file system
// in the report, and remove the file afterwards (--keep-file keeps it); nothing else in the
// directory is touched. NFS needs a kernel with nfs and nfsd: this test machine's has neither.
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "device_lab.hpp"
#include "tests/support/loop_lab.hpp"

namespace {

namespace fs = std::filesystem;
using diskvet::testing::LoopDevice;

constexpr uint64_t kVolumeBytes = 256ull << 20;
constexpr const char* kSuite =
    R"({"name": "tiny-file", "tests": [{"id": "mixed-70-30", "workloads": [{"rw": "randrw", "rwmixread": 70, "bs": "4k", "iodepth": 4, "runtime": "0.3s"}]}]})";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// An ext4 file system on a loop device over /dev/shm, mounted read-write in a fresh directory
// that holds one file of someone else's (data.bin).
class FileTarget : public ::testing::Test {
 protected:
  void SetUp() override {
    if (auto why = diskvet::testing::loop_devices_unavailable(); !why.empty()) GTEST_SKIP() << why;
    if (!diskvet::testing::have_program("mkfs.ext4")) GTEST_SKIP() << "needs mkfs.ext4 (package e2fsprogs)";
    loop_ = std::make_unique<LoopDevice>("i16-fs", kVolumeBytes, diskvet::devices::LoopOptions{}, "mkfs.ext4 -q -F");
    ASSERT_TRUE(loop_->valid()) << loop_->why();
    std::string tmpl = "/tmp/diskvet-file-target-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    mnt_ = tmpl;
    auto m = diskvet::test::run_command({"mount", "-o", "rw,noatime", loop_->path(), mnt_.string()});
    ASSERT_EQ(m.exit_code, 0) << m.out;
    mounted_ = true;
    data_ = std::string(1 << 20, 'D');
    std::ofstream(mnt_ / "data.bin", std::ios::binary) << data_;
    work_ = fs::current_path() / fmt::format("diskvet-file-target-{}", ::getpid());
    fs::create_directories(work_);
    std::ofstream(work_ / "suite.json") << kSuite;
  }
  void TearDown() override {
    // Unmounted before loop_ goes: a loop device under a mount is only detached when the mount goes.
    std::string why;
    if (mounted_) {
      EXPECT_TRUE(diskvet::test::unmount(mnt_.string(), &why)) << why;
    }
    if (!why.empty()) std::cout << why << "\n";
    loop_.reset();
    std::error_code ec;
    if (!mnt_.empty()) fs::remove(mnt_, ec);
    if (!work_.empty()) fs::remove_all(work_, ec);
  }
  diskvet::test::CommandResult diskvet(const std::string& args) const {
    auto argv = diskvet::testing::words(args);
    argv.insert(argv.begin(), {"timeout", "120", DISKVET_BINARY});
    return diskvet::testing::run_command(argv, {.merge_output = true, .working_dir = work_.string()});
  }
  void expect_only_data_left() const {
    EXPECT_EQ(names_in(mnt_), (std::vector<std::string>{"data.bin", "lost+found"}));
    EXPECT_TRUE(slurp(mnt_ / "data.bin") == data_) << "someone else's file was changed";
  }

  std::unique_ptr<LoopDevice> loop_;
  fs::path mnt_, work_;
  bool mounted_ = false;
  std::string data_;
};

TEST_F(FileTarget, RunCreatesItsOwnFileNamesTheFileSystemAndRemovesTheFile) {
  auto r = diskvet("run -q --suite suite.json --profile none --directory " + mnt_.string() + " --size 64m --out r.json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("file system: ext4 " + loop_->path() + " at " + mnt_.string()), std::string::npos) << r.out;
  auto doc = boost::json::parse(slurp(work_ / "r.json")).as_object();
  const auto& dev = doc.at("devices").as_array().at(0).as_object();
  EXPECT_EQ(dev.at("size_bytes").to_number<uint64_t>(), 64ull << 20);
  const auto& fsys = dev.at("identity").at("file_system").as_object();
  EXPECT_EQ(fsys.at("fstype").as_string(), "ext4");
  EXPECT_EQ(fsys.at("mountpoint").as_string(), mnt_.string());
  EXPECT_NE(std::string(fsys.at("mount_options").as_string()).find("noatime"), std::string::npos);
  EXPECT_TRUE(fsys.at("direct_io").as_bool());
  EXPECT_FALSE(dev.at("probe").at("unwritten").as_bool()) << "the file was not filled before reading";
  expect_only_data_left();
}

TEST_F(FileTarget, IoKeepsItsFilledFileOnlyWhenAsked) {
  auto r = diskvet("io --directory " + mnt_.string() + " --size 8m --rw randread --runtime 0.3s");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("ext4"), std::string::npos) << r.out;
  expect_only_data_left();

  r = diskvet("io --directory " + mnt_.string() + " --size 8m --rw randwrite --runtime 0.3s --keep-file --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto names = names_in(mnt_);
  ASSERT_EQ(names.size(), 3u);
  // --json names the volume as run's report does.
  r = diskvet("io --directory " + mnt_.string() + " --size 8m --rw randread --runtime 0.3s --json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto io = boost::json::parse(r.out).as_object();
  ASSERT_TRUE(io.contains("file_system")) << r.out;
  EXPECT_EQ(io.at("file_system").at("fstype").as_string(), "ext4");
  EXPECT_EQ(io.at("file_system").at("mountpoint").as_string(), fs::canonical(mnt_).string());
  EXPECT_TRUE(io.at("file_system").at("direct_io").as_bool());
  fs::path kept = mnt_ / names[1];
  EXPECT_TRUE(names[1].starts_with("diskvet-io-")) << names[1];
  EXPECT_EQ(fs::file_size(kept), 8ull << 20);
  std::string bytes = slurp(kept);
  EXPECT_EQ(bytes.find_first_not_of('\0'), 0u) << "the kept file holds no data";
  EXPECT_TRUE(slurp(mnt_ / "data.bin") == data_);
}

TEST_F(FileTarget, RefusesWhatIsNotADirectoryAndTargetsNamedTwice) {
  auto r = diskvet("io --directory " + (mnt_ / "data.bin").string() + " --size 8m --rw randwrite --runtime 0.3s --quiet");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  r = diskvet("run -q --suite suite.json --profile none --directory " + mnt_.string() + " --device " + (mnt_ / "data.bin").string());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  r = diskvet("run -q --suite suite.json --profile none --directory " + (mnt_ / "missing").string());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  expect_only_data_left();
}

}  // namespace

namespace {

// ramfs has no direct I/O: a --directory file there runs buffered, and the report says so.
TEST(FileTargetBuffered, AFileSystemWithoutODirectRunsBufferedAndSaysSo) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to mount ramfs";
  std::string tmpl = "/tmp/diskvet-ramfs-XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
  fs::path mnt = tmpl;
  auto m = diskvet::test::run_command({"mount", "-t", "ramfs", "ramfs", mnt.string()});
  if (m.exit_code != 0) {
    fs::remove(mnt);
    GTEST_SKIP() << "cannot mount ramfs: " << m.out;
  }
  fs::path work = fs::current_path() / fmt::format("diskvet-ramfs-work-{}", ::getpid());
  fs::create_directories(work);
  std::ofstream(work / "suite.json") << kSuite;
  auto r = diskvet::testing::run_command(
      {"timeout", "120", DISKVET_BINARY, "run", "-q", "--suite", "suite.json", "--profile", "none", "--directory", mnt.string(), "--size", "64m",
       "--out", "r.json"},
      {.merge_output = true, .working_dir = work.string()});
  std::vector<std::string> left = names_in(mnt);
  std::string report = slurp(work / "r.json");
  std::string why;
  EXPECT_TRUE(diskvet::test::unmount(mnt.string(), &why)) << why;
  fs::remove(mnt);
  fs::remove_all(work);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("O_DIRECT REFUSED: buffered I/O, page cache included"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the run used buffered I/O"), std::string::npos) << r.out;
  auto doc = boost::json::parse(report).as_object();
  const auto& fsys = doc.at("devices").as_array().at(0).at("identity").at("file_system").as_object();
  EXPECT_EQ(fsys.at("fstype").as_string(), "ramfs");
  EXPECT_FALSE(fsys.at("direct_io").as_bool());
  EXPECT_TRUE(left.empty()) << "the test file was left behind";
}

}  // namespace
