// The NVMe purge (devices/nvme_purge.hpp): waiting out a sanitize on the Sanitize Status log, progress
// on the way, the end, a failure or the time limit, each said in words (the log is scripted: no
// device); and a descriptor not opened for writing through the gate is refused before any command.
#include "devices/nvme_purge.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <deque>
#include <filesystem>
#include <string>

#include "common/fd.hpp"
#include "tests/support/lab.hpp"

namespace diskvet::devices {
namespace {

const uint32_t kIssued = sanitize_cdw10(kSanitizeBlockErase, true, false);

NvmeSanitizeStatus status(uint8_t state, uint16_t progress = 0xffff, uint32_t cdw10 = kIssued) {
  NvmeSanitizeStatus s;
  s.state = state;
  s.progress = progress;
  s.cdw10 = cdw10;
  return s;
}

// Answers with the scripted logs in turn, then repeats the last one.
struct ScriptedLog {
  std::deque<std::optional<NvmeSanitizeStatus>> logs;
  std::optional<NvmeSanitizeStatus> operator()() {
    auto s = logs.front();
    if (logs.size() > 1) logs.pop_front();
    return s;
  }
};

TEST(SanitizeWait, ReportsProgressUntilTheIssuedSanitizeIsDone) {
  ScriptedLog log{{status(2, 0x4000), std::nullopt, status(2, 0x8000), status(1)}};
  std::vector<double> seen;
  std::string failed = wait_for_sanitize(std::ref(log), kIssued, 60, 0, [&](double f, std::optional<double>, const std::string&) {
    seen.push_back(f);
  });
  EXPECT_EQ(failed, "");
  EXPECT_EQ(seen, (std::vector<double>{0.25, 0.5}));
}

TEST(SanitizeWait, SaysWhenTheControllerReportsAFailure) {
  ScriptedLog log{{status(2, 0x1000), status(3)}};
  std::string failed = wait_for_sanitize(std::ref(log), kIssued, 60, 0, {});
  EXPECT_NE(failed.find("sanitize operation failed"), std::string::npos) << failed;
}

TEST(SanitizeWait, GivesUpAtTheTimeLimitAndSaysTheDriveMayStillBeSanitizing) {
  ScriptedLog log{{status(2, 0x0100)}};
  std::string failed = wait_for_sanitize(std::ref(log), kIssued, 0.05, 0.01, {});
  EXPECT_NE(failed.find("not finished after"), std::string::npos) << failed;
  EXPECT_NE(failed.find("may still be sanitizing"), std::string::npos) << failed;
}

TEST(SanitizeWait, SaysWhenTheLogCouldNeverBeRead) {
  ScriptedLog log{{std::nullopt}};
  std::string failed = wait_for_sanitize(std::ref(log), kIssued, 0.05, 0.01, {});
  EXPECT_NE(failed.find("could not be read"), std::string::npos) << failed;
}

}  // namespace
}  // namespace diskvet::devices

namespace diskvet {

using diskvet::testing::ScratchFile;

TEST(Purge, TheDevicesLibraryRefusesADescriptorWithoutWriteAccess) {
  ScratchFile f("purge", 1 << 20);
  UniqueFd fd(::open(f.path().c_str(), O_RDONLY | O_CLOEXEC));
  ASSERT_TRUE(fd.valid());
  devices::NvmePurgeOutcome o = devices::nvme_purge(fd.get(), f.path());
  EXPECT_FALSE(o.method);
  EXPECT_FALSE(o.ok);
  EXPECT_NE(o.detail.find("not opened for writing through the protection gate"), std::string::npos) << o.detail;
}

}  // namespace diskvet
