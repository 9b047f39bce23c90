// The suites' fast path (runner/run/fast_path): which workload each device runs, given what the
// device offers (pure: no device), and how the choice reads in the report.
#include "runner/run/fast_path.hpp"

#include <gtest/gtest.h>

#include "runner/run/workload_run.hpp"

using namespace diskvet;
using namespace diskvet::runner;

namespace {

TargetInfo nvme_info() {
  TargetInfo info;
  info.path = "/dev/nvme0n1";
  info.block_device = true;
  info.size_bytes = 64u << 20;
  info.logical_block_size = 512;
  info.passthrough_path = "/dev/ng0n1";
  return info;
}

FastPath offers(bool passthrough, bool polls) {
  FastPath fp;
  fp.asked = true;
  fp.passthrough = passthrough;
  fp.node = passthrough ? "/dev/ng0n1" : "";
  fp.no_passthrough = passthrough ? "" : "/dev/loop0 is not an NVMe namespace";
  fp.polls = polls;
  fp.no_poll = polls ? "" : "/sys/block/nvme0n1/queue/io_poll is 0";
  fp.polled_passthrough = passthrough && polls;
  return fp;
}

Workload qd1(uint32_t spin_us = 0) {
  Workload w;
  w.rw = Pattern::randread;
  w.iodepth = 1;
  w.spin_us = spin_us;
  return w;
}

}  // namespace

TEST(FastPath, NotAskedEveryWorkloadRunsAsWritten) {
  FastPath fp = offers(true, true);
  fp.asked = false;
  const Workload w = apply_fast_path(qd1(), fp, nvme_info());
  EXPECT_EQ(w.engine, BackendKind::io_uring);
  EXPECT_FALSE(w.hipri);
  EXPECT_EQ(describe(fp), "");
}

TEST(FastPath, BothTakeEveryWorkloadOnTheBlockPathAndPollingReplacesTheSpin) {
  const FastPath fp = offers(true, true);
  for (uint32_t spin : {0u, 100u}) {
    const Workload w = apply_fast_path(qd1(spin), fp, nvme_info());
    EXPECT_EQ(w.engine, BackendKind::io_uring_cmd) << spin;
    EXPECT_TRUE(w.hipri) << spin;
    EXPECT_EQ(w.spin_us, 0u) << spin;
  }
  EXPECT_EQ(describe(fp), "NVMe passthrough /dev/ng0n1, polled completions");
}

// A kernel that does passthrough but cannot poll it (5.19, 6.0): the polled probe said so at plan
// time; a workload that spins keeps polling on the block path, one that does not takes passthrough.
TEST(FastPath, PassthroughThatCannotBePolledSplitsTheWorkloadsAndSaysWhy) {
  FastPath fp = offers(true, true);
  fp.polled_passthrough = false;
  fp.no_polled_passthrough = "/dev/ng0n1 refused a polled NVMe read command";
  const Workload plain = apply_fast_path(qd1(), fp, nvme_info());
  EXPECT_EQ(plain.engine, BackendKind::io_uring_cmd);
  EXPECT_FALSE(plain.hipri);
  const Workload spinning = apply_fast_path(qd1(100), fp, nvme_info());
  EXPECT_EQ(spinning.engine, BackendKind::io_uring);
  EXPECT_TRUE(spinning.hipri);
  EXPECT_EQ(describe(fp), "NVMe passthrough /dev/ng0n1, polled completions (passthrough not polled: /dev/ng0n1 refused a polled NVMe read command)");
}

TEST(FastPath, PassthroughWithoutPollingTakesTheWorkloadsThatDoNotSpin) {
  const FastPath fp = offers(true, false);
  const Workload plain = apply_fast_path(qd1(), fp, nvme_info());
  EXPECT_EQ(plain.engine, BackendKind::io_uring_cmd);
  EXPECT_FALSE(plain.hipri);
  // A workload spinning on its completions keeps spinning on the block path: passthrough has no spin.
  const Workload spinning = apply_fast_path(qd1(100), fp, nvme_info());
  EXPECT_EQ(spinning.engine, BackendKind::io_uring);
  EXPECT_EQ(spinning.spin_us, 100u);
  EXPECT_FALSE(spinning.hipri);
  EXPECT_EQ(describe(fp), "NVMe passthrough /dev/ng0n1, completions by interrupt (no polling: /sys/block/nvme0n1/queue/io_poll is 0)");
}

TEST(FastPath, PollingWithoutPassthroughReplacesTheSpin) {
  const FastPath fp = offers(false, true);
  const Workload w = apply_fast_path(qd1(100), fp, nvme_info());
  EXPECT_EQ(w.engine, BackendKind::io_uring);
  EXPECT_TRUE(w.hipri);
  EXPECT_EQ(w.spin_us, 0u) << "a polled ring spins on the device itself";
  EXPECT_EQ(describe(fp), "block path, polled completions (no passthrough: /dev/loop0 is not an NVMe namespace)");
}

TEST(FastPath, WorkloadsOnAnotherEngineOrAlreadyPolledStayAsWritten) {
  const FastPath fp = offers(true, true);
  Workload psync = qd1();
  psync.engine = BackendKind::psync;
  EXPECT_EQ(apply_fast_path(psync, fp, nvme_info()).engine, BackendKind::psync);
  EXPECT_FALSE(apply_fast_path(psync, fp, nvme_info()).hipri);
  Workload polled = qd1();
  polled.hipri = true;
  EXPECT_EQ(apply_fast_path(polled, fp, nvme_info()).engine, BackendKind::io_uring);
}

TEST(FastPath, ADeviceWithNeitherRunsEveryWorkloadAsWritten) {
  const FastPath fp = offers(false, false);
  const Workload w = apply_fast_path(qd1(100), fp, nvme_info());
  EXPECT_EQ(w.engine, BackendKind::io_uring);
  EXPECT_EQ(w.spin_us, 100u);
  EXPECT_FALSE(w.hipri);
  EXPECT_EQ(describe(fp),
            "block path, completions by interrupt (no passthrough: /dev/loop0 is not an NVMe namespace; no polling: /sys/block/nvme0n1/queue/io_poll is 0)");
}

// The progress line and the fio line name the path a workload took: the generic node for passthrough.
TEST(FastPath, ProgressAndFioLinesSayHowAWorkloadRan) {
  Workload w = apply_fast_path(qd1(), offers(true, false), nvme_info());
  EXPECT_EQ(describe(w), "randread 4KiB QD1 x1, NVMe passthrough");
  EXPECT_EQ(io_path(nvme_info(), w), "/dev/ng0n1");
  EXPECT_EQ(io_path(nvme_info(), qd1()), "/dev/nvme0n1");
  Workload p = apply_fast_path(qd1(100), offers(false, true), nvme_info());
  EXPECT_EQ(describe(p), "randread 4KiB QD1 x1, polled");
}

TEST(FastPath, ASuiteThatNamesPassthroughOrAsksForTheFastPathNeedsTheNode) {
  suites::Suite s;
  s.tests.push_back({});
  s.tests[0].workloads.push_back(qd1());
  EXPECT_FALSE(suite_uses_passthrough(s));
  s.fast_path.enabled = true;
  EXPECT_TRUE(suite_uses_passthrough(s));
  s.fast_path.enabled = false;
  s.tests[0].workloads[0].engine = BackendKind::io_uring_cmd;
  EXPECT_TRUE(suite_uses_passthrough(s));
  // A target with no device behind it (the null engine's) is offered nothing and asked nothing.
  Target null = Target::null(64u << 20);
  s.fast_path.enabled = true;
  const FastPath fp = prepare_fast_path(null, s);
  EXPECT_TRUE(fp.asked);
  EXPECT_FALSE(fp.passthrough);
  EXPECT_FALSE(fp.polls);
}
