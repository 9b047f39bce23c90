// Protection end to end: loop devices in each protected state, the real `diskvet io` binary with
// every form of consent, exit code 2 and every byte of the device unchanged.
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>

#include <cstddef>
#include <functional>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <boost/json.hpp>

#include <iostream>

#include "devices/discovery.hpp"
#include "devices/sysfs.hpp"
#include "devices/host_state.hpp"
#include "devices/write_gate.hpp"
#include "device_lab.hpp"
#include "tests/support/lab.hpp"
#include "tests/support/loop_lab.hpp"

namespace diskvet::devices {
namespace {

using test::ExclusiveHolder;
using ::diskvet::testing::LoopDevice;
using test::TempMount;

constexpr uint64_t kLoopBytes = 32ull << 20;
constexpr const char* kLab = "devices-test";  // backing files /dev/shm/diskvet-devices-test-*

test::CommandResult diskvet_randwrite(const std::string& path, const std::vector<std::string>& consent) {
  std::vector<std::string> argv{DISKVET_BINARY, "io", "--filename", path, "--rw", "randwrite", "--bs", "4k", "--iodepth", "4", "--runtime", "1s", "--quiet"};
  for (const auto& id : consent) argv.insert(argv.end(), {"--destroy-data", id});
  return test::run_command(argv);
}

test::CommandResult diskvet_run_quick(const std::string& path, const std::vector<std::string>& consent) {
  std::string report = fmt::format("/tmp/diskvet-devices-report-{}.json", ::getpid());
  std::vector<std::string> argv{DISKVET_BINARY, "run", "--suite", "quick", "--device", path, "--quiet", "--out", report};
  for (const auto& id : consent) argv.insert(argv.end(), {"--destroy-data", id});
  auto r = test::run_command(argv);
  std::error_code ec;
  std::filesystem::remove(report, ec);
  return r;
}

// Every consent form a loop device can be named by (it has no serial or WWN).
std::vector<std::vector<std::string>> consent_forms(const LoopDevice& loop) {
  return {{}, {loop.path()}, {loop.name()}, {"all-unprotected"}, {loop.path(), "all-unprotected"}};
}

// Runs the write with each consent form; each must exit 2 naming the device and `reason`, and the
// device must be byte-for-byte what it was.
void expect_refused_whatever_the_consent(const LoopDevice& loop, const std::string& reason) {
  std::string before = test::device_bytes(loop.path());
  ASSERT_EQ(before.size(), kLoopBytes) << "cannot read " << loop.path();
  for (const auto& consent : consent_forms(loop)) {
    std::string ids = consent.empty() ? "(none)" : fmt::format("{}", fmt::join(consent, " "));
    auto r = diskvet_randwrite(loop.path(), consent);
    EXPECT_EQ(r.exit_code, 2) << "consent " << ids << ": " << r.out;
    EXPECT_NE(r.out.find(loop.path()), std::string::npos) << r.out;
    if (!consent.empty()) {
      EXPECT_NE(r.out.find(reason), std::string::npos) << "consent " << ids << ": " << r.out;
    }
    // diskvet run goes through the same gate before any I/O.
    auto run = diskvet_run_quick(loop.path(), consent);
    EXPECT_EQ(run.exit_code, 2) << "run, consent " << ids << ": " << run.out;
    if (!consent.empty()) {
      EXPECT_NE(run.out.find(reason), std::string::npos) << "run, consent " << ids << ": " << run.out;
    }
  }
  EXPECT_TRUE(test::device_bytes(loop.path()) == before) << loop.path() << " was written";
}

TEST(Protection, WritesABlankLoopDeviceNamedByPath) {
  SKIP_UNLESS_LOOP_DEVICES();
  LoopDevice loop(kLab, kLoopBytes);
  ASSERT_TRUE(loop.valid());
  std::string before = test::device_bytes(loop.path());
  auto r = diskvet_randwrite(loop.path(), {loop.path()});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_FALSE(test::device_bytes(loop.path()) == before) << "the consented write did not reach the device";
}

TEST(Protection, WritesABlankLoopDeviceUnderAllUnprotected) {
  SKIP_UNLESS_LOOP_DEVICES();
  LoopDevice loop(kLab, kLoopBytes);
  ASSERT_TRUE(loop.valid());
  auto r = diskvet_randwrite(loop.path(), {"all-unprotected"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

TEST(Protection, RefusesABlankLoopDeviceWithoutConsent) {
  SKIP_UNLESS_LOOP_DEVICES();
  LoopDevice loop(kLab, kLoopBytes);
  ASSERT_TRUE(loop.valid());
  std::string before = test::device_bytes(loop.path());
  auto r = diskvet_randwrite(loop.path(), {});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("needs consent"), std::string::npos) << r.out;
  auto other = diskvet_randwrite(loop.path(), {"/dev/loop-not-this-one", "SOME-SERIAL"});
  EXPECT_EQ(other.exit_code, 2) << other.out;
  EXPECT_TRUE(test::device_bytes(loop.path()) == before);
}

TEST(Protection, RefusesWriteToDeviceWithGptPartitionTable) {
  SKIP_UNLESS_LOOP_DEVICES();
  SKIP_WITHOUT("sfdisk", "fdisk");
  LoopDevice loop(kLab, kLoopBytes, {}, "printf 'label: gpt\\n,8M\\n' | sfdisk -q");
  ASSERT_TRUE(loop.valid());
  expect_refused_whatever_the_consent(loop, "gpt partition table");
}

TEST(Protection, RefusesWriteToDeviceWithExt4Filesystem) {
  SKIP_UNLESS_LOOP_DEVICES();
  SKIP_WITHOUT("mkfs.ext4", "e2fsprogs");
  LoopDevice loop(kLab, kLoopBytes, {}, "mkfs.ext4 -q -F");
  ASSERT_TRUE(loop.valid());
  expect_refused_whatever_the_consent(loop, "filesystem signature (ext4");
}

TEST(Protection, RefusesWriteToMountedDevice) {
  SKIP_UNLESS_LOOP_DEVICES();
  SKIP_WITHOUT("mkfs.ext4", "e2fsprogs");
  LoopDevice loop(kLab, kLoopBytes, {}, "mkfs.ext4 -q -F");
  ASSERT_TRUE(loop.valid());
  TempMount mount(loop.path());
  ASSERT_TRUE(mount.ok()) << "cannot mount " << loop.path();
  expect_refused_whatever_the_consent(loop, "is mounted at " + mount.dir());
}

// A self-test writes no user data: `diskvet selftest` asks for no consent and tests a mounted device
// too. A loop device has no self-test: that is stated and never passed (NOT-JUDGED, exit 4).
TEST(Protection, SelfTestNeedsNoConsentAndNeverPassesADeviceWithoutOne) {
  SKIP_UNLESS_LOOP_DEVICES();
  SKIP_WITHOUT("mkfs.ext4", "e2fsprogs");
  LoopDevice loop(kLab, kLoopBytes, {}, "mkfs.ext4 -q -F");
  ASSERT_TRUE(loop.valid());
  TempMount mount(loop.path());
  ASSERT_TRUE(mount.ok()) << "cannot mount " << loop.path();
  const std::string report = fmt::format("/tmp/diskvet-selftest-report-{}.json", ::getpid());
  auto r = test::run_command({DISKVET_BINARY, "selftest", "--device", loop.path(), "--out", report});
  std::error_code ec;
  std::filesystem::remove(report, ec);
  EXPECT_EQ(r.exit_code, 4) << r.out;
  EXPECT_NE(r.out.find("self-test before (short): NOT SUPPORTED (not counted as passed)"), std::string::npos) << r.out;
}

TEST(Protection, RefusesWriteToDiskWhosePartitionIsMounted) {
  SKIP_UNLESS_LOOP_DEVICES();
  SKIP_WITHOUT("sfdisk", "fdisk");
  SKIP_WITHOUT("mkfs.ext4", "e2fsprogs");
  // The partition starts at 1 MiB and is formatted inside the backing file before partscan.
  LoopDevice loop(kLab, kLoopBytes, {.partscan = true},
                  "sh -c 'printf \"label: gpt\\nstart=2048,size=16384\\n\" | sfdisk -q \"$0\" && "
                  "mkfs.ext4 -q -F -E offset=1048576 \"$0\" 8M'");
  ASSERT_TRUE(loop.valid());
  std::string part = loop.first_partition();
  ASSERT_FALSE(part.empty()) << "no partition node appeared for " << loop.path();
  TempMount mount(part);
  ASSERT_TRUE(mount.ok()) << "cannot mount " << part;
  expect_refused_whatever_the_consent(loop, "partition " + loop.name() + "p1 is mounted at " + mount.dir());
}

TEST(Protection, RefusesWriteToDeviceWithSwapSignature) {
  SKIP_UNLESS_LOOP_DEVICES();
  SKIP_WITHOUT("mkswap", "util-linux");
  LoopDevice loop(kLab, kLoopBytes, {}, "mkswap -q");
  ASSERT_TRUE(loop.valid());
  expect_refused_whatever_the_consent(loop, "swap signature");
}

TEST(Protection, RefusesWriteToReadOnlyDevice) {
  SKIP_UNLESS_LOOP_DEVICES();
  LoopDevice loop(kLab, kLoopBytes, {.read_only = true});
  ASSERT_TRUE(loop.valid());
  expect_refused_whatever_the_consent(loop, "is read-only");
}

TEST(Protection, RefusesWriteToDeviceHeldExclusivelyByAnotherProcess) {
  SKIP_UNLESS_LOOP_DEVICES();
  LoopDevice loop(kLab, kLoopBytes);
  ASSERT_TRUE(loop.valid());
  ExclusiveHolder holder(loop.path());
  ASSERT_TRUE(holder.ok()) << "the child could not open " << loop.path() << " O_EXCL";
  expect_refused_whatever_the_consent(loop, "held open exclusively");
}

TEST(Protection, RefusesWriteToAPartitionNode) {
  SKIP_UNLESS_LOOP_DEVICES();
  SKIP_WITHOUT("sfdisk", "fdisk");
  LoopDevice loop(kLab, kLoopBytes, {.partscan = true}, "printf 'label: gpt\\n,8M\\n' | sfdisk -q");
  ASSERT_TRUE(loop.valid());
  std::string part = loop.first_partition();
  ASSERT_FALSE(part.empty()) << "no partition node appeared for " << loop.path();
  auto r = diskvet_randwrite(part, {part, "all-unprotected"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("is a partition of " + loop.name()), std::string::npos) << r.out;
}

TEST(Protection, GrantHoldsTheDeviceExclusivelyWhileItLives) {
  SKIP_UNLESS_LOOP_DEVICES();
  LoopDevice loop(kLab, kLoopBytes);
  ASSERT_TRUE(loop.valid());
  auto grant = open_for_write(loop.path(), Consent{{loop.path()}});
  ASSERT_TRUE(grant) << grant.error().message();
  EXPECT_TRUE(grant->block_device);
  EXPECT_EQ(grant->device.name, loop.name());
  // Discovery leaves out this process's own hold (a running suite), and never claims the device.
  // (Before the fork below: the child inherits the grant's descriptor and is another writer.)
  auto listed = find_device(loop.path());
  ASSERT_TRUE(listed) << listed.error().message();
  EXPECT_FALSE(listed->is_protected) << listed->protection_reasons.at(0);
  ExclusiveHolder second(loop.path());
  EXPECT_FALSE(second.ok()) << "another process got O_EXCL while the grant was held";
  auto again = open_for_write(loop.path(), Consent{{loop.path()}});
  EXPECT_FALSE(again) << "a second grant was given while the first was held";
}

TEST(Protection, ListShowsAnotherProgramWritingTheDevice) {
  SKIP_UNLESS_LOOP_DEVICES();
  LoopDevice loop(kLab, kLoopBytes);
  ASSERT_TRUE(loop.valid());
  test::OpenHolder writer(loop.path(), O_RDWR);
  ASSERT_TRUE(writer.ok());
  auto listed = find_device(loop.path());
  ASSERT_TRUE(listed) << listed.error().message();
  EXPECT_TRUE(listed->is_protected);
  std::string want = fmt::format("is open for writing by pid {}", writer.pid());
  EXPECT_TRUE(std::any_of(listed->protection_reasons.begin(), listed->protection_reasons.end(),
                          [&](const std::string& r) { return r.starts_with(want); }))
      << (listed->protection_reasons.empty() ? "no reason" : listed->protection_reasons.front());
  std::string before = test::device_bytes(loop.path());
  auto r = diskvet_randwrite(loop.path(), {loop.path()});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find(want), std::string::npos) << r.out;
  EXPECT_TRUE(test::device_bytes(loop.path()) == before) << loop.path() << " was written";
}

// Runs `body` in a child process where an exclusive device open (O_EXCL without O_CREAT, the
// block-device claim; open and openat) kills the process with SIGSYS (seccomp, inherited by
// every program it starts). Returns the child's wait status.
int run_where_exclusive_opens_kill(const std::function<int()>& body) {
  pid_t pid = ::fork();
  if (pid != 0) {
    int status = 0;
    if (pid < 0 || ::waitpid(pid, &status, 0) != pid) return -1;
    return status;
  }
  constexpr uint32_t kArgs = offsetof(struct seccomp_data, args);
  struct sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 9),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 0, 2),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kArgs + 2 * 8),  // openat's flags (low word)
      BPF_STMT(BPF_JMP | BPF_JA, 2),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_open, 0, 4),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kArgs + 1 * 8),  // open's flags
      BPF_STMT(BPF_ALU | BPF_AND | BPF_K, O_EXCL | O_CREAT),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, O_EXCL, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog{static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) ::_exit(90);
  ::_exit(body());
}

bool killed_by_sigsys(int status) { return WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS; }

// Issue 11, part 5: a program that opens a disk O_EXCL over and over (as mkfs, mdadm or a mount do
// once) while diskvet lists devices and the TUI refreshes (the same discover() call): diskvet never
// claims the disk. Proof that holds on a shared machine: all that looking runs where an exclusive
// open would kill it (seccomp), so no EBUSY the helper sees can be diskvet's.
TEST(Protection, LookingNeverMakesAnotherProgramsExclusiveOpenFail) {
  SKIP_UNLESS_LOOP_DEVICES();
  LoopDevice loop(kLab, kLoopBytes);
  ASSERT_TRUE(loop.valid());
  // The filter works: an exclusive open under it is fatal.
  int control = run_where_exclusive_opens_kill([&] {
    int fd = ::open(loop.path().c_str(), O_RDONLY | O_EXCL | O_CLOEXEC);
    return fd >= 0 ? 0 : 1;
  });
  ASSERT_TRUE(killed_by_sigsys(control)) << "the seccomp filter did not stop an O_EXCL open (status " << control << ")";

  test::ExclusiveOpener opener(loop.path());
  ASSERT_TRUE(opener.ok()) << "the helper could not open " << loop.path() << " O_EXCL";
  int looked = run_where_exclusive_opens_kill([&] {
    // run_command says 128+SIGSYS for a diskvet the filter killed.
    auto list_code = [](const std::string& args) {
      auto argv = testing::words(args);
      argv.insert(argv.begin(), {DISKVET_BINARY, "list"});
      int code = test::run_command(argv).exit_code;
      return code == 128 + SIGSYS || code == -1 ? 10 : code;
    };
    for (int i = 0; i < 15; ++i) {
      if (int code = list_code(i % 2 ? " --json" : ""); code != 0) return code;
      if (!discover()) return 20;  // what the TUI's refresh calls
      if (int code = list_code(" --all --json"); code != 0) return code;
    }
    return 0;
  });
  auto counts = opener.stop();
  EXPECT_TRUE(WIFEXITED(looked) && WEXITSTATUS(looked) == 0)
      << (killed_by_sigsys(looked)                             ? "discover() opened a device O_EXCL while only looking"
          : WIFEXITED(looked) && WEXITSTATUS(looked) == 10     ? "diskvet list opened a device O_EXCL while only looking"
          : WIFEXITED(looked) && WEXITSTATUS(looked) == 20     ? "discover() failed"
                                                               : "diskvet list failed")
      << " (status " << looked << ")";
  EXPECT_GT(counts.opens, 100u) << "the helper barely ran; the test proves nothing";
  if (counts.busy > 0) {
    // Not diskvet's (the filter above would have killed it): another program on this machine.
    std::cout << "note: the helper's O_EXCL open failed with EBUSY " << counts.busy << " times in " << counts.opens
              << ", none of them diskvet's; holding it right after: " << (counts.holders[0] ? counts.holders : "nobody seen")
              << "\n";
  }
  // The gate still refuses a device someone else holds O_EXCL, whatever the consent.
  ExclusiveHolder holder(loop.path());
  ASSERT_TRUE(holder.ok());
  expect_refused_whatever_the_consent(loop, "held open exclusively");
}

// Issue 11, part 3: a diskvet stick (GPT, a DISKVET FAT partition carrying the per-build marker, as
// image/build.sh makes it) is the boot medium when nothing of it is mounted: no consent writes it,
// the refusal says why, and listing says so without mounting it.
TEST(Protection, RefusesAnUnmountedStickCarryingTheMediumMarker) {
  SKIP_UNLESS_LOOP_DEVICES();
  SKIP_WITHOUT("sfdisk", "fdisk");
  SKIP_WITHOUT("mcopy", "mtools");
  std::string fat = fmt::format("/dev/shm/diskvet-devices-fat-{}.img", ::getpid());
  // Partition 1 (1 MiB..17 MiB) is the DISKVET FAT, made and filled apart, then copied in place.
  std::string prepare = fmt::format(
      "sh -c 'printf \"label: gpt\\nstart=2048,size=32768\\n\" | sfdisk -q \"$0\" && "
      "truncate -s 16M {0} && MTOOLS_SKIP_CHECK=1 mformat -i {0} -v DISKVET -N 0123abcd :: && "
      "printf \"0123abcd4567ef89\\n\" > {0}.id && MTOOLS_SKIP_CHECK=1 mcopy -i {0} {0}.id ::/diskvet-medium-id && "
      "dd if={0} of=\"$0\" bs=1M seek=1 conv=notrunc status=none; rc=$?; rm -f {0} {0}.id; exit $rc'",
      fat);
  LoopDevice loop(kLab, kLoopBytes, {.partscan = true}, prepare);
  ASSERT_TRUE(loop.valid());
  ASSERT_FALSE(loop.first_partition().empty()) << "no partition node appeared for " << loop.path();
  auto listed = find_device(loop.path());
  ASSERT_TRUE(listed) << listed.error().message();
  EXPECT_TRUE(listed->is_protected);
  EXPECT_FALSE(listed->protection_overridable) << "a serial or WWN consent could have written the boot stick";
  std::string why = "holds the boot medium (diskvet medium marker 0123abcd4567ef89 on partition " + loop.name() + "p1)";
  EXPECT_NE(std::find(listed->protection_reasons.begin(), listed->protection_reasons.end(), why),
            listed->protection_reasons.end())
      << fmt::format("{}", fmt::join(listed->protection_reasons, " | "));
  expect_refused_whatever_the_consent(loop, why);
}

TEST(Protection, FollowsASymlinkedNodeToTheDiskItNames) {
  SKIP_UNLESS_LOOP_DEVICES();
  LoopDevice loop(kLab, kLoopBytes);
  ASSERT_TRUE(loop.valid());
  std::string link = "/tmp/diskvet-devices-link-" + std::to_string(::getpid());
  std::filesystem::create_symlink(loop.path(), link);
  auto by_link = diskvet_randwrite(link, {loop.path()});
  auto consent_by_link = diskvet_randwrite(loop.path(), {link});
  std::filesystem::remove(link);
  EXPECT_EQ(by_link.exit_code, 0) << by_link.out;
  EXPECT_EQ(consent_by_link.exit_code, 0) << consent_by_link.out;
}

TEST(Protection, ListReportsAFormattedLoopDeviceAsProtectedBySignature) {
  SKIP_UNLESS_LOOP_DEVICES();
  SKIP_WITHOUT("mkfs.ext4", "e2fsprogs");
  LoopDevice loop(kLab, kLoopBytes, {}, "mkfs.ext4 -q -F");
  LoopDevice blank(kLab, kLoopBytes);
  ASSERT_TRUE(loop.valid() && blank.valid());
  auto all = discover();
  ASSERT_TRUE(all) << all.error().message();
  auto formatted = find_device(loop.path(), *all);
  ASSERT_TRUE(formatted) << formatted.error().message();
  EXPECT_EQ(formatted->kind, DeviceKind::loop);
  EXPECT_TRUE(formatted->backing_file.starts_with("/dev/shm/diskvet-devices-test-")) << formatted->backing_file;
  EXPECT_EQ(formatted->size_bytes, kLoopBytes);
  EXPECT_TRUE(formatted->is_protected);
  EXPECT_TRUE(formatted->protection_overridable);
  auto unformatted = find_device(blank.path(), *all);
  ASSERT_TRUE(unformatted);
  EXPECT_FALSE(unformatted->is_protected) << unformatted->protection_reasons.at(0);
}

TEST(Protection, RefusesWriteToTheFileBehindALoopDevice) {
  SKIP_UNLESS_LOOP_DEVICES();
  SKIP_WITHOUT("mkfs.ext4", "e2fsprogs");
  LoopDevice loop(kLab, kLoopBytes, {}, "mkfs.ext4 -q -F");
  ASSERT_TRUE(loop.valid());
  std::string backing = read_attr("/sys/block/" + loop.name() + "/loop/backing_file").value_or("");
  ASSERT_FALSE(backing.empty());
  std::string before = test::device_bytes(loop.path());
  auto r = diskvet_randwrite(backing, {backing, "all-unprotected"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("backs loop device " + loop.path()), std::string::npos) << r.out;
  EXPECT_TRUE(test::device_bytes(loop.path()) == before);
}

TEST(Protection, ListJsonCarriesTheContractFields) {
  SKIP_UNLESS_LOOP_DEVICES();
  LoopDevice loop(kLab, kLoopBytes);
  ASSERT_TRUE(loop.valid());
  auto r = test::run_command({DISKVET_BINARY, "list", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto doc = boost::json::parse(r.out);
  const boost::json::object* mine = nullptr;
  for (const auto& v : doc.as_array())
    if (v.as_object().at("path").as_string() == loop.path()) mine = &v.as_object();
  ASSERT_NE(mine, nullptr) << loop.path() << " not listed";
  for (const char* key : {"path", "kind", "model", "serial", "wwn", "firmware", "size_bytes", "logical_block_size",
                          "physical_block_size", "rotational", "protected", "protection_reasons", "health"})
    EXPECT_TRUE(mine->contains(key)) << key;
  EXPECT_EQ(mine->at("kind").as_string(), "loop");
  EXPECT_EQ(mine->at("size_bytes").to_number<uint64_t>(), kLoopBytes);
  EXPECT_FALSE(mine->at("health").as_object().at("known").as_bool());
  EXPECT_FALSE(mine->at("health").as_object().contains("temperature_c"));
}

TEST(Protection, ListsTheDiskBackingTheRootFilesystemAsProtected) {
  struct stat st{};
  ASSERT_EQ(::stat("/", &st), 0);
  auto disks = backing_disks(fmt::format("{}:{}", major(st.st_dev), minor(st.st_dev)), HostPaths{});
  if (disks.empty()) GTEST_SKIP() << "the root filesystem is not on a block device here (overlay or tmpfs)";
  auto all = discover();
  ASSERT_TRUE(all) << all.error().message();
  bool seen = false;
  for (const auto& d : *all) {
    if (std::find(disks.begin(), disks.end(), d.name) == disks.end()) continue;
    seen = true;
    EXPECT_TRUE(d.is_protected) << d.path;
    EXPECT_FALSE(d.protection_overridable) << d.path;
    EXPECT_NE(std::find(d.protection_reasons.begin(), d.protection_reasons.end(), "backs the running root filesystem"),
              d.protection_reasons.end())
        << d.path;
  }
  EXPECT_TRUE(seen) << "discovery did not list the root disk " << disks.front();
}

}  // namespace
}  // namespace diskvet::devices
