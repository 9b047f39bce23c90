// The gate's two rules against the attacks a careless operator on a shared host makes (issue 22),
// through the real binary: loop devices stacked on what is in use, writers through nodes outside
// /dev and through shared mappings, a /dev in another mount namespace naming another disk, hard
// links to a loop's backing file, /proc/self/fd as consent, a report written over a backing file.
// Each plants data, tries the write, and checks exit 2 and every byte still there.
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "device_lab.hpp"
#include "tests/support/lab.hpp"
#include "tests/support/loop_lab.hpp"

namespace diskvet::devices {
namespace {

using ::diskvet::testing::LoopDevice;
using test::TempMount;
namespace fs = std::filesystem;

constexpr uint64_t kLoopBytes = 64ull << 20;
constexpr const char* kLab = "devices-stack";  // backing files /dev/shm/diskvet-devices-stack-*

// A loop device attached by losetup over a device or file this test does not own (at an offset),
// detached on every path.
class StackedLoop {
 public:
  StackedLoop(const std::string& backing, uint64_t offset_bytes) {
    auto r = test::run_command({"losetup", "-f", "--show", "-o", std::to_string(offset_bytes), backing});
    if (r.exit_code == 0) path_ = r.out.substr(0, r.out.find('\n'));
    why_ = r.out;
  }
  ~StackedLoop() {
    if (!path_.empty()) test::run_command({"losetup", "-d", path_});
  }
  StackedLoop(const StackedLoop&) = delete;
  StackedLoop& operator=(const StackedLoop&) = delete;
  bool valid() const { return !path_.empty(); }
  const std::string& path() const { return path_; }
  const std::string& why() const { return why_; }

 private:
  std::string path_, why_;
};

test::CommandResult randwrite(const std::string& path, const std::vector<std::string>& consent, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> argv{DISKVET_BINARY, "io", "--filename", path, "--rw", "randwrite", "--bs", "4k", "--iodepth", "4", "--runtime", "1s", "--quiet"};
  for (const auto& id : consent) argv.insert(argv.end(), {"--destroy-data", id});
  argv.insert(argv.end(), extra.begin(), extra.end());
  return test::run_command(argv);
}

// The write to `target` is refused (exit 2, naming `reason`) under each consent, and `victim` (the
// device whose data a write would reach) keeps every byte.
void expect_refused(const std::string& target, const std::string& victim, const std::vector<std::vector<std::string>>& consents,
                    const std::string& reason) {
  std::string before = test::device_bytes(victim);
  ASSERT_FALSE(before.empty()) << "cannot read " << victim;
  for (const auto& consent : consents) {
    auto r = randwrite(target, consent);
    EXPECT_EQ(r.exit_code, 2) << fmt::format("consent {}: {}", fmt::join(consent, " "), r.out);
    EXPECT_NE(r.out.find(reason), std::string::npos) << fmt::format("consent {}: {}", fmt::join(consent, " "), r.out);
  }
  EXPECT_TRUE(test::device_bytes(victim) == before) << victim << " was written";
}

std::string mkfs() { return "mkfs.ext4 -q -F"; }

TEST(StackSafety, ALoopDeviceAtAnOffsetOverAMountedDiskIsNeverWritten) {
  SKIP_UNLESS_LOOP_DEVICES();
  SKIP_WITHOUT("mkfs.ext4", "e2fsprogs");
  LoopDevice disk(kLab, kLoopBytes, {}, mkfs());
  ASSERT_TRUE(disk.valid()) << disk.why();
  TempMount mount(disk.path());
  ASSERT_TRUE(mount.ok());
  StackedLoop over(disk.path(), 16ull << 20);
  ASSERT_TRUE(over.valid()) << over.why();
  expect_refused(over.path(), disk.path(), {{over.path()}, {"all-unprotected"}},
                 fmt::format("is backed by {} at offset 16MiB; {}: is mounted at {}", disk.name(), disk.name(), mount.dir()));
}

TEST(StackSafety, ASecondLoopDeviceOverTheImageOfAMountedLoopDeviceIsNeverWritten) {
  SKIP_UNLESS_LOOP_DEVICES();
  SKIP_WITHOUT("mkfs.ext4", "e2fsprogs");
  LoopDevice disk(kLab, kLoopBytes, {}, mkfs());
  ASSERT_TRUE(disk.valid()) << disk.why();
  TempMount mount(disk.path());
  ASSERT_TRUE(mount.ok());
  StackedLoop twin(disk.backing(), 0);
  ASSERT_TRUE(twin.valid()) << twin.why();
  expect_refused(twin.path(), disk.path(), {{twin.path()}, {"all-unprotected"}},
                 fmt::format("with {}; {}: is mounted at {}", disk.name(), disk.name(), mount.dir()));
  // And the mounted one's own listing names the twin standing on its file.
  auto list = test::run_command({DISKVET_BINARY, "list", "--json"});
  EXPECT_NE(list.out.find("shares its backing file"), std::string::npos) << list.out;
}

TEST(StackSafety, ALoopDeviceOverAPartitionWhoseSiblingIsMountedIsNeverWritten) {
  SKIP_UNLESS_LOOP_DEVICES();
  SKIP_WITHOUT("sfdisk", "fdisk");
  SKIP_WITHOUT("mkfs.ext4", "e2fsprogs");
  LoopDevice disk(kLab, kLoopBytes, {.partscan = true},
                  "sh -c 'printf \"label: gpt\\nstart=2048,size=32768\\nstart=34816,size=16384\\n\" | sfdisk -q \"$0\" && "
                  "mkfs.ext4 -q -F -E offset=1048576 \"$0\" 16M'");
  ASSERT_TRUE(disk.valid()) << disk.why();
  std::string p1 = disk.first_partition();
  ASSERT_FALSE(p1.empty());
  std::string p2 = p1.substr(0, p1.size() - 1) + "2";
  if (!fs::exists(p2)) test::run_command({"partx", "-a", disk.path()});
  ASSERT_TRUE(fs::exists(p2)) << "no second partition node for " << disk.path();
  TempMount mount(p1);
  ASSERT_TRUE(mount.ok());
  StackedLoop over(p2, 0);
  ASSERT_TRUE(over.valid()) << over.why();
  expect_refused(over.path(), disk.path(), {{over.path()}, {"all-unprotected"}},
                 fmt::format("partition {}p1 is mounted at {}", disk.name(), mount.dir()));
}

// A device node of the disk made outside /dev (a chroot's, a container's, a VM manager's).
class ForeignNode {
 public:
  explicit ForeignNode(const std::string& device) {
    struct stat st{};
    std::string tmpl = "/tmp/diskvet-devices-node-XXXXXX";
    if (::stat(device.c_str(), &st) != 0 || !::mkdtemp(tmpl.data())) return;
    dir_ = tmpl;
    node_ = dir_ + "/vdisk";
    if (::mknod(node_.c_str(), S_IFBLK | 0600, st.st_rdev) != 0) node_.clear();
  }
  ~ForeignNode() {
    if (!node_.empty()) ::unlink(node_.c_str());
    if (!dir_.empty()) ::rmdir(dir_.c_str());
  }
  ForeignNode(const ForeignNode&) = delete;
  ForeignNode& operator=(const ForeignNode&) = delete;
  const std::string& node() const { return node_; }

 private:
  std::string dir_, node_;
};

TEST(StackSafety, AProgramWritingTheDiskThroughANodeOutsideDevProtectsIt) {
  SKIP_UNLESS_LOOP_DEVICES();
  LoopDevice disk(kLab, kLoopBytes);
  ASSERT_TRUE(disk.valid()) << disk.why();
  ForeignNode node(disk.path());
  ASSERT_FALSE(node.node().empty());
  test::OpenHolder writer(node.node(), O_RDWR);
  ASSERT_TRUE(writer.ok());
  expect_refused(disk.path(), disk.path(), {{disk.path()}, {"all-unprotected"}},
                 fmt::format("is open for writing by pid {}", writer.pid()));
}

// A child that maps the device shared and writable, closes its descriptor, and waits.
class SharedMapper {
 public:
  explicit SharedMapper(const std::string& device) {
    int ready[2];
    if (::pipe(ready) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(ready[0]);
      int fd = ::open(device.c_str(), O_RDWR | O_CLOEXEC);
      void* m = fd >= 0 ? ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
      if (fd >= 0) ::close(fd);
      char c = m != MAP_FAILED ? 'y' : 'n';
      (void)!::write(ready[1], &c, 1);
      for (;;) ::pause();
    }
    ::close(ready[1]);
    char c = 0;
    mapped_ = pid_ > 0 && ::read(ready[0], &c, 1) == 1 && c == 'y';
    ::close(ready[0]);
  }
  ~SharedMapper() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  SharedMapper(const SharedMapper&) = delete;
  SharedMapper& operator=(const SharedMapper&) = delete;
  bool ok() const { return mapped_; }
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  bool mapped_ = false;
};

TEST(StackSafety, ASharedWritableMappingWithItsDescriptorClosedProtectsTheDisk) {
  SKIP_UNLESS_LOOP_DEVICES();
  LoopDevice disk(kLab, kLoopBytes);
  ASSERT_TRUE(disk.valid()) << disk.why();
  SharedMapper mapper(disk.path());
  ASSERT_TRUE(mapper.ok());
  expect_refused(disk.path(), disk.path(), {{disk.path()}, {"all-unprotected"}},
                 fmt::format("is mapped shared and writable by pid {}", mapper.pid()));
}

// `docker run --device /dev/sdb:/dev/sdc`: in the container's mount namespace the kernel name of the
// formatted disk is a node of another, blank disk. The formatted disk, opened by a node of its
// own, must be judged as itself.
TEST(StackSafety, ADevInAnotherMountNamespaceGivingTheDisksNameToABlankDiskIsNotBelieved) {
  SKIP_UNLESS_LOOP_DEVICES();
  SKIP_WITHOUT("mkfs.ext4", "e2fsprogs");
  SKIP_WITHOUT("unshare", "util-linux");
  LoopDevice formatted(kLab, kLoopBytes, {}, mkfs());
  LoopDevice blank(kLab, kLoopBytes);
  ASSERT_TRUE(formatted.valid() && blank.valid());
  struct stat f{}, b{};
  ASSERT_EQ(::stat(formatted.path().c_str(), &f), 0);
  ASSERT_EQ(::stat(blank.path().c_str(), &b), 0);
  std::string before = test::device_bytes(formatted.path());
  std::string script = fmt::format(
      "mount -t tmpfs tmpfs /dev && mknod /dev/null c 1 3 && chmod 666 /dev/null && mknod /dev/{} b {} {} && mknod /dev/victim b {} {} && "
      "exec {} io --filename /dev/victim --rw randwrite --bs 4k --iodepth 4 --runtime 1s --quiet --destroy-data all-unprotected "
      "--destroy-data /dev/victim",
      formatted.name(), major(b.st_rdev), minor(b.st_rdev), major(f.st_rdev), minor(f.st_rdev), DISKVET_BINARY);
  auto r = test::run_command({"unshare", "--mount", "--propagation", "private", "sh", "-c", script});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("another device has that name in this mount namespace"), std::string::npos) << r.out;
  EXPECT_TRUE(test::device_bytes(formatted.path()) == before) << "the formatted disk was written";
}

TEST(StackSafety, AHardLinkToAMountedLoopDevicesBackingFileIsNeverWritten) {
  SKIP_UNLESS_LOOP_DEVICES();
  SKIP_WITHOUT("mkfs.ext4", "e2fsprogs");
  LoopDevice disk(kLab, kLoopBytes, {}, mkfs());
  ASSERT_TRUE(disk.valid()) << disk.why();
  TempMount mount(disk.path());
  ASSERT_TRUE(mount.ok());
  std::string link = disk.backing() + ".link";
  ASSERT_EQ(::link(disk.backing().c_str(), link.c_str()), 0);
  ASSERT_EQ(::unlink(disk.backing().c_str()), 0) << "the name the loop device shows is gone; the inode is not";
  std::string before = testing::sha256_of(link);
  auto r = randwrite(link, {link});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("backs loop device " + disk.path()), std::string::npos) << r.out;
  EXPECT_EQ(testing::sha256_of(link), before);
  ::link(link.c_str(), disk.backing().c_str());  // the lab removes its file by its own name
  ::unlink(link.c_str());
}

TEST(StackSafety, ProcSelfFdAsConsentConsentsToNothing) {
  SKIP_UNLESS_LOOP_DEVICES();
  LoopDevice disk(kLab, kLoopBytes);
  ASSERT_TRUE(disk.valid()) << disk.why();
  expect_refused(disk.path(), disk.path(), {{"/proc/self/fd/3"}, {"/dev/fd/3"}, {"/proc/self/fd/4", "/proc/self/fd/3"}},
                 "resolves through /proc/PID/fd or /dev/fd");
}

TEST(StackSafety, AReportIsNeverWrittenOverALoopDevicesBackingFile) {
  SKIP_UNLESS_LOOP_DEVICES();
  LoopDevice disk(kLab, kLoopBytes);
  ASSERT_TRUE(disk.valid()) << disk.why();
  std::string before = testing::sha256_of(disk.backing());
  testing::ScratchFile scratch("stack-iolog");
  auto r = test::run_command({DISKVET_BINARY, "io", "--filename", scratch.path() + ".img", "--size", "4m", "--rw", "randwrite", "--bs", "4k",
                              "--runtime", "1s", "--quiet", "--write-iolog", disk.backing()});
  std::error_code ec;
  fs::remove(scratch.path() + ".img", ec);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("backs loop device " + disk.path()), std::string::npos) << r.out;
  EXPECT_EQ(testing::sha256_of(disk.backing()), before);
  // The same for a report page and a run's report: one check for every path a report is written to.
  auto page = test::run_command({DISKVET_BINARY, "report", DISKVET_TEST_DATA "/report-schema1-quick.json", "--html", disk.backing()});
  EXPECT_EQ(page.exit_code, 2) << page.out;
  EXPECT_NE(page.out.find("backs loop device " + disk.path()), std::string::npos) << page.out;
  std::string dir = scratch.path() + ".d";
  fs::create_directories(dir);
  auto run = test::run_command({DISKVET_BINARY, "run", "--suite", "quick", "--directory", dir, "--size", "64m", "--profile", "none",
                                "--quiet", "--out", disk.backing()});
  fs::remove_all(dir, ec);
  EXPECT_EQ(run.exit_code, 2) << run.out;
  EXPECT_NE(run.out.find("backs loop device " + disk.path()), std::string::npos) << run.out;
  EXPECT_EQ(testing::sha256_of(disk.backing()), before);
  struct stat st{};
  EXPECT_EQ(::stat(disk.backing().c_str(), &st), 0) << "the backing file's name was replaced";
}

}  // namespace
}  // namespace diskvet::devices
