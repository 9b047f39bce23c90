// The engine on an O_DIRECT file: counts add up, backends agree, jobs aggregate, ramp is not counted.
#include <gtest/gtest.h>

#include <liburing.h>

#include "runner/io/engine.hpp"
#include "tests/support/lab.hpp"
#include "tests/support/pausing_clock.hpp"

using namespace diskvet::runner;
using diskvet::testing::ScratchFile;

namespace {

Measurement run_on(const Target& t, Workload w) {
  auto v = validate(w, t.info().size_bytes, t.info().logical_block_size);
  EXPECT_TRUE(v) << (v ? "" : v.error().message());
  auto m = run_workload(*v, t);
  EXPECT_TRUE(m) << (m ? "" : m.error().message());
  return std::move(*m);
}

Workload limited(Pattern rw, BackendKind engine, uint64_t bytes) {
  Workload w;
  w.rw = rw;
  w.engine = engine;
  w.iodepth = 16;
  w.io_limit_bytes = bytes;
  w.runtime_s = 600;
  return w;
}

}  // namespace

TEST(EngineOnFile, MissingFileIsCreatedAndFilledSoReadsNeverHitHoles) {
  ScratchFile f("engine-create");
  auto t = Target::open(f.path(), false, 8 << 20);
  ASSERT_TRUE(t) << t.error().message();
  EXPECT_EQ(t->info().size_bytes, 8u << 20);
  EXPECT_FALSE(t->info().block_device);
}

TEST(EngineOnFile, IoUringAndPsyncAgreeOnCountsAndBytes) {
  ScratchFile f("engine-agree");
  auto t = Target::open(f.path(), true, 16 << 20);
  ASSERT_TRUE(t) << t.error().message();
  for (auto rw : {Pattern::randread, Pattern::randwrite, Pattern::read}) {
    Measurement a = run_on(*t, limited(rw, BackendKind::io_uring, 4 << 20));
    Measurement b = run_on(*t, limited(rw, BackendKind::psync, 4 << 20));
    EXPECT_EQ(a.total_ios(), 1024u) << to_string(rw);
    EXPECT_EQ(b.total_ios(), 1024u) << to_string(rw);
    Direction d = writes(rw) ? Direction::write : Direction::read;
    EXPECT_EQ(a.of(d).bytes, 4u << 20);
    EXPECT_EQ(b.of(d).bytes, 4u << 20);
    EXPECT_EQ(a.of(d).lat.count(), a.of(d).ios);
    EXPECT_EQ(a.io_errors, 0u);
    EXPECT_EQ(b.io_errors, 0u);
    EXPECT_TRUE(a.io_limit_reached);
  }
}

TEST(EngineOnFile, NumjobsAggregateIntoOneMeasurement) {
  ScratchFile f("engine-jobs");
  auto t = Target::open(f.path(), true, 16 << 20);
  ASSERT_TRUE(t);
  Workload w = limited(Pattern::randrw, BackendKind::io_uring, 8 << 20);
  w.numjobs = 4;
  w.rwmixread_pct = 70;
  Measurement m = run_on(*t, w);
  EXPECT_EQ(m.total_ios(), 2048u);
  EXPECT_EQ(m.of(Direction::read).bytes + m.of(Direction::write).bytes, 8u << 20);
  EXPECT_NEAR(static_cast<double>(m.of(Direction::read).ios) / 2048.0, 0.70, 0.05);
  EXPECT_EQ(m.of(Direction::read).lat.count() + m.of(Direction::write).lat.count(), 2048u);
}

TEST(EngineOnFile, RampIsRunButNotCountedAndIntervalsAddUpToTheTotal) {
  ScratchFile f("engine-ramp");
  auto t = Target::open(f.path(), false, 16 << 20);
  ASSERT_TRUE(t);
  Workload w;
  w.rw = Pattern::randread;
  w.iodepth = 4;
  w.ramp_s = 0.5;
  w.runtime_s = 1.0;
  w.interval_s = 0.25;
  Measurement m = run_on(*t, w);
  EXPECT_GT(m.ios_issued, m.total_ios());  // the ramp's I/Os were issued, not counted
  uint64_t in_intervals = 0;
  for (const auto& s : m.intervals.samples()) in_intervals += s.ios[0];
  EXPECT_EQ(in_intervals, m.total_ios());
  EXPECT_GE(m.intervals.size(), 3u);
  // The measured window is the runtime by the engine's own clock, the ramp not in it, however long a
  // loaded machine took to get through either (no assertion on the test's clock).
  EXPECT_NEAR(m.elapsed_s, w.runtime_s, 1e-6);
}

TEST(EngineOnFile, IntervalP99sCoverEveryMeasuredIoExactlyOnce) {
  ScratchFile f("engine-p99");
  auto t = Target::open(f.path(), false, 16 << 20);
  ASSERT_TRUE(t);
  Workload w;
  w.rw = Pattern::randrw;
  w.engine = BackendKind::null;
  w.numjobs = 2;
  w.iodepth = 4;
  w.ramp_s = 0.1;
  w.runtime_s = 0.6;
  w.interval_s = 0.02;  // many flips
  Measurement m = run_on(*t, w);
  ASSERT_GE(m.intervals.size(), 10u);
  for (size_t d = 0; d < kDirections; ++d) {
    uint64_t covered = 0;
    for (const auto& s : m.intervals.samples()) {
      covered += s.lat_samples[d];
      if (s.lat_samples[d]) {
        EXPECT_GT(s.lat_p99_ns[d], 0u);
        EXPECT_LE(s.lat_p99_ns[d], m.dir[d].lat.max_ns() + m.dir[d].lat.max_ns() / 128);
        EXPECT_GE(s.total_lat_p99_ns, std::min(s.lat_p99_ns[0], s.lat_p99_ns[1]));
      }
    }
    EXPECT_EQ(covered, m.dir[d].lat.count()) << d;
  }
}

TEST(EngineOnFile, WriteWorkloadOnReadOnlyTargetIsRefused) {
  ScratchFile f("engine-ro");
  auto t = Target::open(f.path(), false, 1 << 20);
  ASSERT_TRUE(t);
  Workload w = limited(Pattern::randwrite, BackendKind::io_uring, 1 << 20);
  auto v = validate(w, t->info().size_bytes, 512);
  ASSERT_TRUE(v);
  auto m = run_workload(*v, *t);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().exit_code(), 2);
}

TEST(EngineOnFile, StopFlagEndsTheRunEarlyAndMarksItInterrupted) {
  ScratchFile f("engine-stop");
  auto t = Target::open(f.path(), false, 4 << 20);
  ASSERT_TRUE(t);
  Workload w;
  w.runtime_s = 600;
  auto v = validate(w, t->info().size_bytes, 512);
  // Stopped once the engine has reported its first interval with I/O done (an event of the run, not a
  // moment on the test's clock); 60 s of a 600 s run only catches a stop flag that was never seen.
  std::atomic<bool> stop{false};
  struct StopOnFirstIo final : EngineObserver {
    std::atomic<bool>* stop;
    explicit StopOnFirstIo(std::atomic<bool>* s) : stop(s) {}
    void on_interval(const IntervalSample& s, double) override {
      if (s.ios[0] + s.ios[1] > 0) *stop = true;
    }
  } observer(&stop);
  auto m = run_workload(*v, *t, RunControl{&stop, &observer});
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->interrupted);
  EXPECT_LT(m->elapsed_s, 60.0);
  EXPECT_GT(m->total_ios(), 0u);
}

TEST(EngineOnFile, SplitPolicyPinsEachJobToItsCpu) {
  CpuSet now = CpuSet::allowed_now();
  if (now.cpus.size() < 2) GTEST_SKIP() << "needs two CPUs this process may use, has " << now.to_string();
  Workload w;
  w.engine = BackendKind::null;
  w.numjobs = 4;
  w.io_limit_bytes = 64 << 20;
  w.runtime_s = 600;
  w.cpus = CpuSet{{now.cpus[0], now.cpus[1]}};
  w.cpus_policy = CpuPolicy::split;
  auto v = validate(w, 1ull << 30, 512);
  ASSERT_TRUE(v) << v.error().message();
  auto m = run_workload(*v, Target::null(1ull << 30));
  ASSERT_TRUE(m) << m.error().message();
  ASSERT_EQ(m->job_cpus.size(), 4u);
  for (uint32_t j = 0; j < 4; ++j) EXPECT_EQ(m->job_cpus[j], static_cast<int>(now.cpus[j % 2])) << "job " << j;
}

TEST(EngineOnFile, PollingRingCountsEveryIoAndShowsCompletionsToUserSpace) {
  ScratchFile f("engine-spin");
  auto t = Target::open(f.path(), true, 16 << 20);
  ASSERT_TRUE(t) << t.error().message();
  for (uint32_t depth : {1u, 8u}) {
    Workload w = limited(Pattern::randread, BackendKind::io_uring, 4 << 20);
    w.iodepth = depth;
    w.spin_us = 100;
    Measurement m = run_on(*t, w);
    EXPECT_EQ(m.total_ios(), 1024u) << "depth " << depth;
    EXPECT_EQ(m.of(Direction::read).lat.count(), 1024u);
    EXPECT_EQ(m.io_errors, 0u);
    // Deferred task work only with the flag word the spin watches; never cooperative (that would
    // leave completions unposted until the job enters the kernel).
    if (m.uring_setup_flags & IORING_SETUP_DEFER_TASKRUN) {
      EXPECT_TRUE(m.uring_setup_flags & IORING_SETUP_TASKRUN_FLAG);
    }
    EXPECT_EQ(m.uring_setup_flags & IORING_SETUP_COOP_TASKRUN, 0u);
  }
}

TEST(EngineOnFile, OnOneCpuAJobSleepsInsteadOfSpinningAndTheOptionsSaySo) {
  ScratchFile f("engine-spin-one-cpu");
  auto t = Target::open(f.path(), true, 16 << 20);
  ASSERT_TRUE(t) << t.error().message();
  Workload w = limited(Pattern::randread, BackendKind::io_uring, 1 << 20);
  w.iodepth = 1;
  w.spin_us = 100;
  w.cpus = CpuSet{{CpuSet::allowed_now().cpus.front()}};
  Measurement m = run_on(*t, w);
  EXPECT_EQ(m.total_ios(), 256u);
  EXPECT_EQ(m.workload.spin_us, 0u) << "a spinning job would keep the completion path off its only CPU";
}

TEST(EngineOnFile, EachIoSubmittedAloneOrInBatchesCountsTheSameAndSubmitsAsAsked) {
  ScratchFile f("engine-batch");
  auto t = Target::open(f.path(), true, 16 << 20);
  ASSERT_TRUE(t) << t.error().message();
  for (uint32_t batch : {0u, 1u, 4u, 64u}) {
    Workload w = limited(Pattern::randread, BackendKind::io_uring, 4 << 20);
    w.iodepth = 16;
    w.iodepth_batch_submit = batch;
    Measurement m = run_on(*t, w);
    EXPECT_EQ(m.total_ios(), 1024u) << "batch " << batch;
    EXPECT_EQ(m.io_errors, 0u);
    // One I/O per submit: at least one system call per I/O, whatever the waits add.
    if (batch == 1) {
      EXPECT_GE(m.syscalls, m.ios_issued);
    }
  }
}

// A ramp of 10 s or more keeps its own series (counts per bucket from the workload's start), so a
// burst spent there can be shown; none of it is in the measurement.
// diskvet stopped for two minutes, again and again, with I/Os out each time: a watchdog that took
// its own pause for the device's would give up on the device (an I/O out past io_timeout + io_grace)
// and count stalls. The pauses are recorded instead, and nothing is blamed on the device.
TEST(EngineOnFile, DiskvetsOwnPausesAreRecordedAndNeverTakenForTheDevicesStalls) {
  auto t = Target::null(64 << 20);
  Workload w;
  w.rw = Pattern::randread;
  w.engine = BackendKind::null;
  w.iodepth = 4;
  w.runtime_s = 1;
  w.io_timeout_s = 30;
  w.io_grace_s = 30;
  auto v = validate(w, t.info().size_bytes, t.info().logical_block_size);
  ASSERT_TRUE(v);
  diskvet::testing::PausingClock clock(120'000'000'000, 4);
  RunControl control;
  control.sampler_clock = &clock;
  auto m = run_workload(*v, t, control);
  ASSERT_TRUE(m) << m.error().message();
  EXPECT_FALSE(m->abandoned) << "diskvet's own pause was taken for the device's stall";
  EXPECT_EQ(m->stall_count, 0u);
  ASSERT_GE(clock.jumps, 3) << "the sampler looked too few times to pause";
  ASSERT_EQ(m->pauses.size(), static_cast<size_t>(clock.jumps));
  for (const Pause& p : m->pauses) EXPECT_GE(p.dur_s, 120);
  EXPECT_GT(m->total_ios(), 0u);
}

TEST(EngineOnFile, ALongRampKeepsItsOwnSeriesOutsideTheMeasurement) {
  auto t = Target::null(64 << 20);
  Workload w;
  w.rw = Pattern::randread;
  w.engine = BackendKind::null;
  w.iodepth = 1;
  w.rate_iops = {1000, 0};
  w.ramp_s = 10;
  w.runtime_s = 0.3;
  Measurement m = run_on(t, w);
  EXPECT_DOUBLE_EQ(m.ramp_bucket_s, 1);
  ASSERT_EQ(m.ramp_intervals.size(), 10u);
  // The buckets tile the ramp one after another. Where each ends is when the sampler woke, which a
  // machine whose cores another load keeps busy delays: a bucket a tenth of a second late is the
  // machine, one a whole bucket off is the code. Per bucket the rate is not asserted (a job starved
  // in one bucket catches up in the next: fio's token bucket counts from the start), the whole
  // ramp's count is.
  double dur = 0;
  uint64_t ios = 0;
  for (size_t i = 0; i < m.ramp_intervals.size(); ++i) {
    const IntervalSample& s = m.ramp_intervals[i];
    EXPECT_NEAR(s.t_s, dur, 1e-6) << i << ": the buckets follow each other without a gap";
    EXPECT_NEAR(s.t_s, static_cast<double>(i), 0.5) << i;
    EXPECT_EQ(s.bytes[0], s.ios[0] * 4096) << i;
    dur += s.dur_s;
    ios += s.ios[0];
  }
  EXPECT_NEAR(dur, 10, 1e-6) << "the last bucket ends where the ramp does";
  EXPECT_LE(ios, 10001u) << "the rate's tokens over 10 s";
  EXPECT_GE(ios, 9000u);
  EXPECT_NEAR(static_cast<double>(m.total_ios()), 300, 40) << "the ramp is not measured";
  // A short ramp keeps none.
  w.ramp_s = 0.2;
  EXPECT_TRUE(run_on(t, w).ramp_intervals.empty());
}
