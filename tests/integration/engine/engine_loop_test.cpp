// The engine and `diskvet io` on loop devices (root): device I/O, consent, nothing written when refused.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <array>
#include <fstream>

#include "devices/write_gate.hpp"
#include "runner/io/backend_uring.hpp"
#include "runner/io/engine.hpp"
#include "tests/support/lab.hpp"
#include "tests/support/loop_lab.hpp"

using namespace diskvet::runner;
using diskvet::testing::LoopDevice;
using diskvet::testing::run_command;
using diskvet::testing::sha256_of;

#define REQUIRE_LOOP(dev) \
  if (!(dev).valid()) GTEST_SKIP() << "loop device unavailable: " << (dev).why()

TEST(EngineOnLoop, ReadsABlockDeviceAndCountsEveryIo) {
  LoopDevice dev("engine-read", 64 << 20);
  REQUIRE_LOOP(dev);
  auto t = Target::open(dev.path(), false);
  ASSERT_TRUE(t) << t.error().message();
  EXPECT_TRUE(t->info().block_device);
  EXPECT_EQ(t->info().size_bytes, 64u << 20);
  Workload w;
  w.iodepth = 32;
  w.iodepth_batch_submit = 8;  // batched: fewer system calls than I/Os, whatever the waits add
  w.numjobs = 2;
  w.io_limit_bytes = 32 << 20;
  w.runtime_s = 600;
  auto v = validate(w, t->info().size_bytes, t->info().logical_block_size);
  ASSERT_TRUE(v);
  auto m = run_workload(*v, *t);
  ASSERT_TRUE(m) << m.error().message();
  EXPECT_EQ(m->total_ios(), (32u << 20) / 4096);
  EXPECT_EQ(m->io_errors, 0u);
  EXPECT_GT(m->ios_per_syscall(), 0.99);
}

TEST(EngineOnLoop, BlockDeviceIsNeverOpenedForWritingOutsideTheGate) {
  LoopDevice dev("engine-gate", 16 << 20);
  REQUIRE_LOOP(dev);
  auto t = Target::open(dev.path(), true);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().exit_code(), 2);
}

TEST(EngineOnLoop, WriteWithoutConsentIsRefusedAndTheDeviceIsUnchanged) {
  LoopDevice dev("engine-consent", 16 << 20);
  REQUIRE_LOOP(dev);
  run_command({"dd", "if=/dev/urandom", "of=" + dev.path(), "bs=1M", "count=16", "oflag=direct", "status=none"});
  std::string before = sha256_of(dev.path());
  auto r = run_command({DISKVET_BIN, "io", "--filename", dev.path(), "--rw", "randwrite", "--runtime", "1"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--destroy-data"), std::string::npos) << r.err;
  EXPECT_EQ(sha256_of(dev.path()), before);
}

TEST(EngineOnLoop, WriteWithConsentByPathRuns) {
  LoopDevice dev("engine-write", 16 << 20);
  REQUIRE_LOOP(dev);
  std::string before = sha256_of(dev.path());
  auto r = run_command({DISKVET_BIN, "io", "--filename", dev.path(), "--rw", "randwrite", "--io-size", "4m",
                        "--runtime", "60", "--destroy-data", dev.path(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto doc = boost::json::parse(r.out);
  EXPECT_EQ(doc.at("jobs").at(0).at("write").at("io_bytes").to_number<uint64_t>(), 4u << 20);
  EXPECT_NE(sha256_of(dev.path()), before);
}

TEST(EngineOnLoop, DeviceIsHeldExclusivelyWhileWritten) {
  LoopDevice dev("engine-excl", 16 << 20);
  REQUIRE_LOOP(dev);
  auto grant = diskvet::devices::open_for_write(dev.path(), diskvet::devices::Consent{{dev.path()}});
  ASSERT_TRUE(grant) << grant.error().message();
  // A second writer (another diskvet) is refused while the first holds the device.
  auto r = run_command({DISKVET_BIN, "io", "--filename", dev.path(), "--rw", "randwrite", "--runtime", "1",
                        "--destroy-data", dev.path()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

TEST(EngineOnLoop, RateCapIsHonouredOnADevice) {
  LoopDevice dev("engine-rate", 16 << 20);
  REQUIRE_LOOP(dev);
  auto r = run_command({DISKVET_BIN, "io", "--filename", dev.path(), "--rw", "randread", "--iodepth", "8",
                        "--rate-iops", "500", "--runtime", "2s", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto doc = boost::json::parse(r.out);
  double iops = doc.at("jobs").at(0).at("read").at("iops").to_number<double>();
  EXPECT_LE(iops, 500 * 1.05);  // a cap, not a speed: the loop device does far more uncapped
  EXPECT_GT(iops, 0);  // how close to the cap a loaded machine gets is no property: JobLoop's tests pace it on a fake clock
}

namespace {
// Writes completed on a block device so far (/sys/block/NAME/stat's fifth field). Reads are no
// measure of "nothing reached the device": udev probes a device with blkid, on its own schedule,
// after anything that wrote to it closes it.
uint64_t completed_writes(const LoopDevice& dev) {
  std::ifstream in("/sys/block/" + dev.name() + "/stat");
  std::array<uint64_t, 5> f{};
  for (auto& v : f) in >> v;
  return f[4];
}

// What the engine says when it refuses `w` (made a random write, for 1 s) on the device opened for
// writing through the gate; checks that it refused with exit 2 before any write reached the device.
diskvet::Error engine_refusal(const LoopDevice& dev, Workload w) {
  auto grant = diskvet::devices::open_for_write(dev.path(), diskvet::devices::Consent{{dev.path()}});
  if (!grant) return grant.error();
  auto t = Target::adopt(std::move(grant->fd), dev.path(), true);
  if (!t) return t.error();
  w.rw = Pattern::randwrite;
  w.runtime_s = 1;
  auto v = validate(w, t->info().size_bytes, t->info().logical_block_size);
  if (!v) return v.error();
  const uint64_t before = completed_writes(dev);
  auto m = run_workload(*v, *t);
  EXPECT_EQ(completed_writes(dev), before);
  if (m) {
    ADD_FAILURE() << "the engine ran the workload";
    return {};
  }
  EXPECT_EQ(m.error().exit_code(), 2);
  return m.error();
}
}  // namespace

// A loop device has no poll queues: --hipri is refused before any I/O, naming the driver setting
// that gives NVMe its poll queues, by the engine (suites) and by `diskvet io`.
TEST(EngineOnLoop, PolledCompletionsAreRefusedBeforeAnyIoWhereTheQueueCannotPoll) {
  LoopDevice dev("engine-hipri", 16 << 20);
  REQUIRE_LOOP(dev);
  Workload w;
  w.hipri = true;
  const diskvet::Error refused = engine_refusal(dev, w);
  EXPECT_NE(refused.fix.find("nvme.poll_queues"), std::string::npos) << refused.message();

  run_command({"dd", "if=/dev/urandom", "of=" + dev.path(), "bs=1M", "count=16", "oflag=direct", "status=none"});
  const std::string content = sha256_of(dev.path());
  const uint64_t before_cli = completed_writes(dev);
  auto r = run_command({DISKVET_BIN, "io", "--filename", dev.path(), "--destroy-data", dev.path(), "--rw", "randwrite", "--runtime", "1",
                        "--hipri"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("io_poll is 0"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nvme.poll_queues"), std::string::npos) << r.err;
  EXPECT_EQ(completed_writes(dev), before_cli);
  EXPECT_EQ(sha256_of(dev.path()), content);
}

// NVMe passthrough needs a namespace's generic char device: on a loop device the engine (a target
// without one attached) and `diskvet io --engine io_uring_cmd` (even with consent) refuse before
// any I/O, and the device is unchanged. Polled passthrough (--hipri) is refused the same way: by the
// engine for the queue that cannot poll (naming nvme.poll_queues), by `diskvet io` for the device
// that is no namespace, never for the engine's combination of options.
TEST(EngineOnLoop, PassthroughIsRefusedBeforeAnyIoOnADeviceThatIsNoNvmeNamespace) {
  LoopDevice dev("engine-uring-cmd", 16 << 20);
  REQUIRE_LOOP(dev);
  run_command({"dd", "if=/dev/urandom", "of=" + dev.path(), "bs=1M", "count=16", "oflag=direct", "status=none"});
  const std::string content = sha256_of(dev.path());
  Workload w;
  w.engine = BackendKind::io_uring_cmd;
  const diskvet::Error refused = engine_refusal(dev, w);
  EXPECT_NE(refused.what.find("generic char device"), std::string::npos) << refused.message();
  auto t = Target::open(dev.path(), false);
  ASSERT_TRUE(t) << t.error().message();
  EXPECT_FALSE(t->attach_passthrough());
  // The gate reads the device to judge it (signatures); nothing may write to it.
  const uint64_t before = completed_writes(dev);

  auto r = run_command({DISKVET_BIN, "io", "--filename", dev.path(), "--destroy-data", dev.path(), "--rw", "randwrite", "--runtime", "1",
                        "--engine", "io_uring_cmd"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("not an NVMe namespace"), std::string::npos) << r.err;
  EXPECT_EQ(completed_writes(dev), before);
  EXPECT_EQ(sha256_of(dev.path()), content);

  w.hipri = true;
  const diskvet::Error polled = engine_refusal(dev, w);
  EXPECT_NE(polled.what.find("io_poll is 0"), std::string::npos) << polled.message();
  EXPECT_NE(polled.fix.find("nvme.poll_queues"), std::string::npos) << polled.message();
  const uint64_t before_polled = completed_writes(dev);
  auto p = run_command({DISKVET_BIN, "io", "--filename", dev.path(), "--destroy-data", dev.path(), "--rw", "randwrite", "--runtime", "1",
                        "--engine", "io_uring_cmd", "--hipri"});
  EXPECT_EQ(p.exit_code, 2) << p.err;
  EXPECT_NE(p.err.find("not an NVMe namespace"), std::string::npos) << p.err;
  EXPECT_EQ(p.err.find("cannot poll"), std::string::npos) << p.err;
  EXPECT_EQ(completed_writes(dev), before_polled);
  EXPECT_EQ(sha256_of(dev.path()), content);
}

// The polled ring itself (what --hipri runs on a device with poll queues), below the gate's check:
// set up with IOPOLL on this kernel, every read it submits reaped through the same submit-and-wait.
// A loop device's queue cannot poll: recent kernels fail each polled read with EOPNOTSUPP (what the
// check before any I/O spares a run), older ones complete it by interrupt. The VM lab's NVMe with
// poll queues is where polling itself is exercised.
TEST(EngineOnLoop, APolledRingReapsEveryReadItSubmits) {
  LoopDevice dev("engine-iopoll", 16 << 20);
  REQUIRE_LOOP(dev);
  auto t = Target::open(dev.path(), false);
  ASSERT_TRUE(t) << t.error().message();
  auto fd = t->reopen();
  ASSERT_TRUE(fd) << fd.error().message();
  auto ring = UringBackend::create(fd->get(), 4, 4096, 1, 0, /*iopoll=*/true);
  ASSERT_TRUE(ring) << ring.error().message();
  EXPECT_TRUE(ring->setup_flags() & IORING_SETUP_IOPOLL);
  uint32_t reaped = 0;
  for (int round = 0; round < 8; ++round) {
    for (uint32_t s = 0; s < 4; ++s) ring->stage(s, Direction::read, (round * 4 + s) * 4096ull, 4096);
    uint32_t got = 0;
    while (got < 4) {
      ASSERT_GE(ring->submit_and_wait(1), 0);
      ring->reap([&](Completion c) {
        EXPECT_TRUE(c.res == 4096 || c.res == -EOPNOTSUPP) << "slot " << c.slot << ": " << c.res;
        ++got;
      });
    }
    reaped += got;
  }
  EXPECT_EQ(reaped, 32u);
}

// A suite whose later test polls its completions is refused by the run plan's check, before its
// preconditioning writes anything, on a device whose queue cannot poll.
TEST(EngineOnLoop, ASuiteThatPollsIsRefusedBeforePreconditioningWhereTheQueueCannotPoll) {
  LoopDevice dev("engine-hipri-suite", 16 << 20);
  REQUIRE_LOOP(dev);
  diskvet::testing::ScratchFile suite("hipri-suite.json");
  std::ofstream(suite.path()) << R"({"name": "polled", "region": "8m", "probe": {"enabled": false},
    "precondition": {"enabled": true}, "steady_state": {"enabled": false}, "warmup": {"enabled": false},
    "defaults": {"runtime": "1s"},
    "tests": [{"id": "plain", "workloads": [{"rw": "randwrite", "bs": "4k"}]},
              {"id": "polled", "workloads": [{"rw": "randread", "bs": "4k", "hipri": true}]}]})";
  run_command({"dd", "if=/dev/urandom", "of=" + dev.path(), "bs=1M", "count=16", "oflag=direct", "status=none"});
  const std::string content = sha256_of(dev.path());
  auto r = run_command({DISKVET_BIN, "run", "-q", "--suite", suite.path(), "--profile", "none", "--device", dev.path(), "--destroy-data",
                        dev.path()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("test polled"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nvme.poll_queues"), std::string::npos) << r.err;
  EXPECT_EQ(sha256_of(dev.path()), content);
}

// A suite whose later test names NVMe passthrough is refused by the run plan's check on a device
// that is no NVMe namespace, before its preconditioning writes anything.
TEST(EngineOnLoop, ASuiteThatNamesPassthroughIsRefusedBeforePreconditioningOnANonNvmeDevice) {
  LoopDevice dev("engine-cmd-suite", 16 << 20);
  REQUIRE_LOOP(dev);
  diskvet::testing::ScratchFile suite("cmd-suite.json");
  std::ofstream(suite.path()) << R"({"name": "passthrough", "region": "8m", "probe": {"enabled": false},
    "precondition": {"enabled": true}, "steady_state": {"enabled": false}, "warmup": {"enabled": false},
    "defaults": {"runtime": "1s"},
    "tests": [{"id": "plain", "workloads": [{"rw": "randwrite", "bs": "4k"}]},
              {"id": "direct", "workloads": [{"rw": "randread", "bs": "4k", "engine": "io_uring_cmd"}]}]})";
  run_command({"dd", "if=/dev/urandom", "of=" + dev.path(), "bs=1M", "count=16", "oflag=direct", "status=none"});
  const std::string content = sha256_of(dev.path());
  const uint64_t writes_before = completed_writes(dev);
  auto r = run_command({DISKVET_BIN, "run", "-q", "--suite", suite.path(), "--profile", "none", "--device", dev.path(), "--destroy-data",
                        dev.path()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("test direct"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("generic char device"), std::string::npos) << r.err;
  EXPECT_EQ(completed_writes(dev), writes_before);
  EXPECT_EQ(sha256_of(dev.path()), content);
}

// A suite asking for the fast path runs on a device that has neither passthrough nor poll queues,
// as written, and its report says what the device lacks; nothing runs twice (no block-path rows:
// the fast path changed nothing).
TEST(EngineOnLoop, TheFastPathRunsAsWrittenWhereTheDeviceHasNeitherAndSaysWhy) {
  LoopDevice dev("engine-fast-path", 16 << 20);
  REQUIRE_LOOP(dev);
  diskvet::testing::ScratchFile suite("fast-suite.json"), out("fast-suite-report.json");
  std::ofstream(suite.path()) << R"({"name": "fast", "region": "8m", "probe": {"enabled": false}, "fast_path": {"enabled": true},
    "precondition": {"enabled": false}, "steady_state": {"enabled": false}, "warmup": {"enabled": false},
    "defaults": {"runtime": "1s"},
    "tests": [{"id": "latency", "workloads": [{"rw": "randread", "bs": "4k", "iodepth": 1, "spin": "50us"},
                                              {"rw": "randwrite", "bs": "4k", "iodepth": 1}]}]})";
  auto r = run_command({DISKVET_BIN, "run", "--suite", suite.path(), "--profile", "none", "--device", dev.path(), "--destroy-data", dev.path(),
                        "--out", out.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(out.path());
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const boost::json::value doc = boost::json::parse(text);
  const auto& d = doc.at("devices").at(0);
  const auto& fp = d.at("fast_path");
  EXPECT_FALSE(fp.at("passthrough").as_bool());
  EXPECT_FALSE(fp.at("polled").as_bool());
  EXPECT_NE(std::string(fp.at("no_passthrough").as_string()).find("not an NVMe namespace"), std::string::npos) << fp;
  EXPECT_NE(std::string(fp.at("no_poll").as_string()).find("io_poll is 0"), std::string::npos) << fp;
  const auto& t = d.at("tests").at(0);
  EXPECT_FALSE(t.as_object().contains("block_path")) << "nothing changed, nothing ran twice";
  for (const auto& w : t.at("workloads").as_array()) EXPECT_EQ(w.at("engine").as_string(), "io_uring");
  EXPECT_NE(r.out.find("fast path: block path, completions by interrupt (no passthrough: "), std::string::npos) << r.out;
}
