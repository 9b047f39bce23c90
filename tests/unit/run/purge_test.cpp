// The purge obeys the same consent as every write: a target not opened for writing through the
// protection gate is never purged, and the NVMe purge is not even asked.
#include "runner/run/purge.hpp"

#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "tests/support/lab.hpp"

using namespace diskvet;
using namespace diskvet::runner;

namespace {

class NoEvents final : public RunEvents {};

using diskvet::testing::ScratchFile;

DevicePlan plan_for(Target t) {
  devices::Device dev;
  dev.path = t.info().path;
  dev.kind = devices::DeviceKind::nvme;  // as if it were a namespace: only consent may stop the purge
  return DevicePlan{dev, std::move(t), std::nullopt, {}, 0};
}

}  // namespace

TEST(Purge, IsNotIssuedOnADeviceOpenedWithoutConsent) {
  ScratchFile f("purge", 1 << 20);
  auto t = Target::open(f.path(), /*writable=*/false);
  ASSERT_TRUE(t.ok()) << t.error().message();
  int asked = 0;
  RunHooks hooks;
  hooks.nvme_purge = [&](const devices::Device&, const Target&, const PurgeProgress&) {
    ++asked;
    return NvmePurgeAnswer{PurgeRecord{true, "nvme-format-user-data-erase", "", 0, false}, ""};
  };
  NoEvents ev;
  PurgeRecord r = purge(plan_for(std::move(*t)), Region{0, 1 << 20}, hooks, ev);
  EXPECT_EQ(asked, 0);
  EXPECT_TRUE(r.requested);
  EXPECT_EQ(r.method, "none");
  EXPECT_NE(r.detail.find("not opened for writing"), std::string::npos) << r.detail;
}

TEST(Purge, TheHookRefusesATargetWithoutConsent) {
  ScratchFile f("purge", 1 << 20);
  auto t = Target::open(f.path(), /*writable=*/false);
  ASSERT_TRUE(t.ok()) << t.error().message();
  NvmePurgeAnswer a = purge_nvme(devices::Device{}, *t, {});
  EXPECT_FALSE(a.record);
  EXPECT_NE(a.why_not.find("not opened for writing"), std::string::npos) << a.why_not;
}

TEST(Purge, AWritableRegularFileIsNeitherFormattedNorDiscarded) {
  ScratchFile f("purge", 1 << 20);
  auto t = Target::open(f.path(), /*writable=*/true);
  ASSERT_TRUE(t.ok()) << t.error().message();
  int asked = 0;
  RunHooks hooks;
  hooks.nvme_purge = [&](const devices::Device&, const Target&, const PurgeProgress&) {
    ++asked;
    return NvmePurgeAnswer{};
  };
  NoEvents ev;
  PurgeRecord r = purge(plan_for(std::move(*t)), Region{0, 1 << 20}, hooks, ev);
  EXPECT_EQ(asked, 0);
  EXPECT_EQ(r.method, "none");
  EXPECT_NE(r.detail.find("regular file"), std::string::npos) << r.detail;
}
