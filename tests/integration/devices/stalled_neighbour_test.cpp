// A stalled device anywhere on the host (here a loop device over a FUSE file whose every request is
// held) never hangs the look at the others: `diskvet list` finishes and says which device did not
// answer, and a write to an unrelated disk goes through its gate and runs. Each command runs under
// `timeout` so a regression fails with evidence instead of hanging the suite.
#include <unistd.h>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>

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

}  // namespace
}  // namespace diskvet::devices
