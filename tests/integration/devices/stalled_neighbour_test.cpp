// A stalled device anywhere on the host (here a loop device over a FUSE file whose every request is
// held) never hangs the look at the others: `diskvet list` finishes and says which device did not
// answer, and a write to an unrelated disk goes through its gate and runs. Each command runs under
// `timeout` so a regression fails with evidence instead of hanging the suite.
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "device_lab.hpp"
#include "tests/integration/burnin/stall_lab.hpp"
#include "tests/support/loop_lab.hpp"

namespace diskvet::devices {
namespace {

using ::diskvet::testing::LoopDevice;

TEST(StalledNeighbour, AHeldLoopDeviceNeverHangsListOrAWriteToAnotherDisk) {
  SKIP_UNLESS_LOOP_DEVICES();
  const std::filesystem::path dir = fmt::format("/tmp/diskvet-devices-stall-{}", ::getpid());
  {
    burnin_lab::StallLoop stalled(dir, 64ull << 20);
    if (!stalled.valid()) GTEST_SKIP() << stalled.why();
    LoopDevice target("devices-stall", 32ull << 20);
    ASSERT_TRUE(target.valid()) << target.why();
    // Nothing of the stalled device may come from a cache: every read reaches the held file system.
    test::run_command({"blockdev", "--flushbufs", stalled.path()});
    stalled.hold();
    auto list = test::run_command({"timeout", "-k", "10", "120", DISKVET_BINARY, "list"});
    EXPECT_EQ(list.exit_code, 0) << list.out;
    EXPECT_NE(list.out.find(stalled.path()), std::string::npos) << list.out;
    EXPECT_NE(list.out.find("did not answer"), std::string::npos) << "the held device was never read, so this proved nothing:\n" << list.out;
    auto io = test::run_command({"timeout", "-k", "10", "120", DISKVET_BINARY, "io", "--filename", target.path(), "--rw", "randwrite", "--bs", "4k",
                                 "--runtime", "1s", "--quiet", "--destroy-data", target.path()});
    EXPECT_EQ(io.exit_code, 0) << io.out;
    auto refused = test::run_command({"timeout", "-k", "10", "120", DISKVET_BINARY, "io", "--filename", stalled.path(), "--rw", "randwrite", "--bs", "4k",
                                      "--runtime", "1s", "--quiet", "--destroy-data", stalled.path()});
    EXPECT_EQ(refused.exit_code, 2) << "a device that does not answer is protected:\n" << refused.out;
    stalled.release();
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

// A loop device whose FUSE file system died (its connection aborted: the kernel answers ENOTCONN for
// its backing file) cannot be backed by a file diskvet just examined on a working file system: it
// must not make every existing file unwritable. The dead device itself stays protected.
TEST(StalledNeighbour, ALoopDeviceOverADeadFileSystemDoesNotBlockWritingAFileElsewhere) {
  SKIP_UNLESS_LOOP_DEVICES();
  const std::filesystem::path dir = fmt::format("/tmp/diskvet-devices-dead-{}", ::getpid());
  {
    burnin_lab::StallLoop dead(dir, 16ull << 20);
    if (!dead.valid()) GTEST_SKIP() << dead.why();
    struct stat mnt{};
    ASSERT_EQ(::stat((dir / "mnt").c_str(), &mnt), 0);
    const std::string abort_file = fmt::format("/sys/fs/fuse/connections/{}/abort", minor(mnt.st_dev));
    if (!std::filesystem::exists(abort_file)) test::run_command({"mount", "-t", "fusectl", "fusectl", "/sys/fs/fuse/connections"});
    if (!std::filesystem::exists(abort_file)) GTEST_SKIP() << "no " << abort_file << " (fusectl not mounted)";
    std::ofstream(abort_file) << "1\n";
    // Lazily unmounted too, as a crashed daemon's mount often is: the kernel then names the backing
    // file "/disk.img", as if it were on the root file system.
    ::umount2((dir / "mnt").c_str(), MNT_DETACH);
    const std::string file = (dir / "someones-file.bin").string();
    std::ofstream(file, std::ios::binary) << std::string(1 << 20, 'x');
    auto io = test::run_command({"timeout", "-k", "10", "120", DISKVET_BINARY, "io", "--filename", file, "--rw", "randwrite", "--bs", "4k",
                                 "--runtime", "1s", "--quiet", "--destroy-data", file});
    EXPECT_EQ(io.exit_code, 0) << io.out;
    auto refused = test::run_command({"timeout", "-k", "10", "120", DISKVET_BINARY, "io", "--filename", dead.path(), "--rw", "randwrite",
                                      "--bs", "4k", "--runtime", "1s", "--quiet", "--destroy-data", dead.path()});
    EXPECT_EQ(refused.exit_code, 2) << refused.out;
    EXPECT_NE(refused.out.find("cannot tell what backs it"), std::string::npos) << refused.out;
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

}  // namespace
}  // namespace diskvet::devices
