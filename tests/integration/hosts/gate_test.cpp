// `diskvet gate`, the host side of a multi-host run, on loop devices: it holds what may be written
// open O_EXCL until its stdin closes, refuses a protected device whatever the consent and leaves it
// unchanged byte for byte, and holds nothing it was not asked to write.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>

#include "common/child_process.hpp"
#include "runner/hosts/host_gate.hpp"
#include "tests/support/lab.hpp"
#include "tests/support/loop_lab.hpp"

namespace diskvet::testing {
namespace {

// Whether something else holds the device O_EXCL (the open fails with EBUSY).
bool held_exclusively(const std::string& dev) {
  const int fd = ::open(dev.c_str(), O_RDONLY | O_EXCL | O_CLOEXEC);
  if (fd >= 0) {
    ::close(fd);
    return false;
  }
  return errno == EBUSY;
}

struct Gate {
  ChildProcess child;
  std::vector<runner::GateDevice> devices;
};

Gate start_gate(const std::vector<std::string>& args) {
  std::vector<std::string> argv{DISKVET_BIN, "gate"};
  argv.insert(argv.end(), args.begin(), args.end());
  SpawnOptions o;
  o.pipe_stdin = true;
  o.pipe_stdout = true;
  auto c = ChildProcess::spawn(argv, o);
  EXPECT_TRUE(c.ok());
  auto line = c->read_line(30000);
  EXPECT_TRUE(line.has_value()) << "the gate printed nothing";
  auto devs = runner::parse_gate_json(line.value_or(""), "local");
  EXPECT_TRUE(devs.ok()) << (devs.ok() ? "" : devs.error().message());
  return Gate{std::move(*c), devs.ok() ? *devs : std::vector<runner::GateDevice>{}};
}

TEST(HostGate, HoldsAConsentedDeviceExclusivelyUntilStdinCloses) {
  SKIP_UNLESS_LOOP_DEVICES();
  LoopDevice disk("i15-gate-free", 32 << 20);
  ASSERT_TRUE(disk.valid()) << disk.why();
  Gate g = start_gate({"--device", disk.path(), "--destroy-data", disk.path()});
  ASSERT_EQ(g.devices.size(), 1u);
  EXPECT_TRUE(g.devices[0].held);
  EXPECT_EQ(g.devices[0].path, disk.path());
  EXPECT_EQ(g.devices[0].size_bytes, 32u << 20);
  EXPECT_TRUE(held_exclusively(disk.path())) << "the gate said held but the device can be claimed";
  EXPECT_FALSE(g.child.wait_for(300).has_value()) << "the gate let go before its stdin closed";
  EXPECT_TRUE(held_exclusively(disk.path()));
  g.child.close_stdin();
  auto rc = g.child.wait_for(10000);
  ASSERT_TRUE(rc.has_value());
  EXPECT_EQ(*rc, 0);
  EXPECT_FALSE(held_exclusively(disk.path())) << "the hold outlived the gate";
}

TEST(HostGate, RefusesAProtectedDeviceEvenWithAllUnprotectedAndLeavesItUnchanged) {
  SKIP_UNLESS_LOOP_DEVICES();
  if (!have_program("mkfs.ext4")) GTEST_SKIP() << "mkfs.ext4 (e2fsprogs) is not installed";
  LoopDevice formatted("i15-gate-ext4", 32 << 20, {}, "mkfs.ext4 -q -F");
  LoopDevice free_disk("i15-gate-free2", 32 << 20);
  ASSERT_TRUE(formatted.valid()) << formatted.why();
  ASSERT_TRUE(free_disk.valid()) << free_disk.why();
  const std::string before = sha256_of(formatted.path());
  Gate g = start_gate({"--device", free_disk.path(), "--device", formatted.path(), "--destroy-data", "all-unprotected",
                       "--destroy-data", formatted.path()});
  ASSERT_EQ(g.devices.size(), 2u);
  EXPECT_TRUE(g.devices[0].held);
  EXPECT_FALSE(g.devices[1].held);
  EXPECT_TRUE(g.devices[1].write_asked);
  EXPECT_NE(g.devices[1].refusal.find("PROTECTED"), std::string::npos) << g.devices[1].refusal;
  EXPECT_FALSE(held_exclusively(formatted.path()));
  g.child.close_stdin();
  auto rc = g.child.wait_for(10000);
  ASSERT_TRUE(rc.has_value());
  EXPECT_EQ(*rc, 2) << "a refused device must fail the gate";
  EXPECT_EQ(sha256_of(formatted.path()), before) << "the protected device changed";
}

TEST(HostGate, HoldsNothingItWasNotAskedToWrite) {
  SKIP_UNLESS_LOOP_DEVICES();
  LoopDevice disk("i15-gate-ro", 32 << 20);
  ASSERT_TRUE(disk.valid()) << disk.why();
  Gate g = start_gate({"--device", disk.path()});
  ASSERT_EQ(g.devices.size(), 1u);
  EXPECT_FALSE(g.devices[0].write_asked);
  EXPECT_FALSE(g.devices[0].held);
  EXPECT_TRUE(g.devices[0].refusal.empty());
  EXPECT_EQ(g.devices[0].path, disk.path());
  EXPECT_FALSE(held_exclusively(disk.path()));
  g.child.close_stdin();
  EXPECT_EQ(g.child.wait_for(10000).value_or(-1), 0);
}

TEST(HostGate, NamesADeviceItCannotFind) {
  Gate g = start_gate({"--device", "NO-SUCH-SERIAL-i15", "--destroy-data", "NO-SUCH-SERIAL-i15"});
  ASSERT_EQ(g.devices.size(), 1u);
  EXPECT_TRUE(g.devices[0].path.empty());
  EXPECT_FALSE(g.devices[0].refusal.empty());
  g.child.close_stdin();
  EXPECT_EQ(g.child.wait_for(10000).value_or(-1), 2);
}

}  // namespace
}  // namespace diskvet::testing

namespace diskvet::testing {
namespace {

// The probe (read only, beside a hold): a fresh device reads zeros, a written one does not.
TEST(HostGate, ProbesUnwrittenSpaceReadOnly) {
  SKIP_UNLESS_LOOP_DEVICES();
  LoopDevice fresh("i15-gate-fresh", 16 << 20);
  LoopDevice filled("i15-gate-filled", 16 << 20, {}, "sh -c 'dd if=/dev/urandom of=\"$0\" bs=1M count=16 conv=notrunc status=none'");
  ASSERT_TRUE(fresh.valid()) << fresh.why();
  ASSERT_TRUE(filled.valid()) << filled.why();
  const std::string before = sha256_of(filled.path());
  auto r = run_command({DISKVET_BIN, "gate", "--no-wait", "--probe", "32", "--device", fresh.path(), "--device", filled.path()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto devs = runner::parse_gate_json(r.out, "local");
  ASSERT_TRUE(devs.ok()) << r.out;
  ASSERT_EQ(devs->size(), 2u);
  EXPECT_TRUE((*devs)[0].probed);
  EXPECT_TRUE((*devs)[0].unwritten);
  EXPECT_EQ((*devs)[0].probe_zero_samples, (*devs)[0].probe_samples);
  EXPECT_TRUE((*devs)[1].probed);
  EXPECT_FALSE((*devs)[1].unwritten);
  EXPECT_EQ((*devs)[1].probe_zero_samples, 0u);
  EXPECT_EQ(sha256_of(filled.path()), before) << "the probe wrote";
}

}  // namespace
}  // namespace diskvet::testing

namespace diskvet::testing {
namespace {

// diskvet run --hosts refuses what it cannot do before touching any host (exit 2, the key named).
TEST(HostsCli, RefusesBadInventoriesAndOptionsBeforeAnyHost) {
  const std::string bad = std::string(::testing::TempDir()) + "/diskvet-i15-bad-hosts.json";
  std::ofstream(bad) << R"({"hosts": [{"name": "a", "ssh": "a", "devcies": []}]})";
  auto r = run_command({DISKVET_BIN, "run", "--suite", "quick", "--hosts", bad});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("hosts[0].devcies"), std::string::npos) << r.err;
  auto both = run_command({DISKVET_BIN, "run", "--suite", "quick", "--hosts", bad, "--device", "/dev/null"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--hosts"), std::string::npos) << both.err;
  auto engine = run_command({DISKVET_BIN, "run", "--suite", "quick", "--fio-engine", "null"});
  EXPECT_EQ(engine.exit_code, 2);
  auto timeout_alone = run_command({DISKVET_BIN, "run", "--suite", "quick", "--connect-timeout", "1m"});
  EXPECT_EQ(timeout_alone.exit_code, 2);
  EXPECT_NE(timeout_alone.err.find("--connect-timeout"), std::string::npos) << timeout_alone.err;
  std::ofstream(bad) << R"({"hosts": [{"name": "a", "ssh": "a"}]})";
  for (const char* t : {"0s", "2h", "soon"}) {
    auto bad_timeout = run_command({DISKVET_BIN, "run", "--suite", "quick", "--hosts", bad, "--connect-timeout", t});
    EXPECT_EQ(bad_timeout.exit_code, 2) << t;
    EXPECT_NE(bad_timeout.err.find("--connect-timeout"), std::string::npos) << bad_timeout.err;
  }
  auto burnin = run_command({DISKVET_BIN, "run", "--suite", "burnin", "--hosts", bad});
  EXPECT_EQ(burnin.exit_code, 2) << "a verifying suite must be refused before any host";
  EXPECT_NE(burnin.err.find("verifies data"), std::string::npos) << burnin.err;
  std::remove(bad.c_str());
}

}  // namespace
}  // namespace diskvet::testing
