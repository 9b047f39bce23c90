// Workload validation, and the fio command line and notes that say the same workload.
#include "runner/io/workload.hpp"

#include <gtest/gtest.h>

#include "common/units.hpp"
#include "runner/io/engine.hpp"

using namespace diskvet;
using namespace diskvet::runner;

TEST(Workload, BlockSizeMustBeAMultipleOfTheLogicalBlockSize) {
  Workload w;
  w.bs_bytes = 6144;
  auto r = validate(w, 1 << 30, 4096);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().subject, "--bs");
  EXPECT_NE(r.error().what.find("4096"), std::string::npos);
  EXPECT_EQ(r.error().exit_code(), 2);
  w.bs_bytes = 8192;
  EXPECT_TRUE(validate(w, 1 << 30, 4096));
}

TEST(Workload, RegionPastTheEndIsRefused) {
  Workload w;
  w.offset_bytes = 1 << 20;
  w.size_bytes = 1 << 30;
  auto r = validate(w, 1 << 30, 512);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().subject, "--size");
  w.offset_bytes = 1 << 30;
  w.size_bytes = 0;
  r = validate(w, 1 << 30, 512);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().subject, "--offset");
}

TEST(Workload, ZeroSizeMeansTheRestOfTheTargetInWholeBlocks) {
  Workload w;
  w.offset_bytes = 4096;
  w.bs_bytes = 65536;
  auto r = validate(w, (1 << 20) + 4096 + 100, 512);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->size_bytes, 1u << 20);
}

TEST(Workload, ImpossibleValuesNameTheirOption) {
  Workload w;
  w.iodepth = 0;
  EXPECT_EQ(validate(w, 1 << 30, 512).error().subject, "--iodepth");
  w = {};
  w.numjobs = 0;
  EXPECT_EQ(validate(w, 1 << 30, 512).error().subject, "--numjobs");
  w = {};
  w.rwmixread_pct = 101;
  EXPECT_EQ(validate(w, 1 << 30, 512).error().subject, "--rwmixread");
  w = {};
  w.runtime_s = 0;
  EXPECT_EQ(validate(w, 1 << 30, 512).error().subject, "--runtime");
}

// `diskvet io --runtime 99999999999h` parses (a finite duration) but its nanoseconds do not fit the
// engine's 64-bit deadlines: refused, not wrapped into a run that ends at once or never.
TEST(Workload, RuntimeOrRampPastAYearIsRefused) {
  Workload w;
  w.runtime_s = *parse_duration_s("99999999999h");
  EXPECT_EQ(validate(w, 1 << 30, 512).error().subject, "--runtime");
  w = {};
  w.ramp_s = 400 * 86400.0;
  EXPECT_EQ(validate(w, 1 << 30, 512).error().subject, "--ramp-time");
  w = {};
  w.runtime_s = 30 * 86400.0;  // a full-pass test's cap: still fine
  w.ramp_s = 86400;
  EXPECT_TRUE(validate(w, 1 << 30, 512).ok());
}

TEST(Workload, ReadShareFollowsThePattern) {
  Workload w;
  w.rwmixread_pct = 70;
  w.rw = Pattern::randread;
  EXPECT_EQ(w.read_pct(), 100u);
  w.rw = Pattern::write;
  EXPECT_EQ(w.read_pct(), 0u);
  w.rw = Pattern::randrw;
  EXPECT_EQ(w.read_pct(), 70u);
}

TEST(Workload, FioCommandLineCarriesTheSameParameters) {
  Workload w;
  w.rw = Pattern::randrw;
  w.rwmixread_pct = 70;
  w.bs_bytes = 8192;
  w.iodepth = 16;
  w.runtime_s = 60;
  std::string cmd = fio_command_line(w, "/dev/nvme0n1");
  for (const char* part : {"--filename=/dev/nvme0n1", "--direct=1", "--rw=randrw", "--bs=8192", "--iodepth=16",
                           "--rwmixread=70", "--runtime=60", "--ioengine=io_uring"})
    EXPECT_NE(cmd.find(part), std::string::npos) << part;
}

TEST(Workload, FioCommandLineGivesSplitSequentialJobsTheirShareEach) {
  Workload w;
  w.rw = Pattern::write;
  w.numjobs = 4;
  w.size_bytes = 4096 * 100;
  std::string cmd = fio_command_line(w, "/dev/sdx");
  EXPECT_NE(cmd.find("--name=diskvet --numjobs=4 --offset=0 --size=102400 --offset_increment=102400"), std::string::npos) << cmd;
  EXPECT_EQ(cmd.find("--size=409600"), std::string::npos) << cmd;
  EXPECT_EQ(cmd.find("diskvet-rest"), std::string::npos) << cmd;
  w.rw = Pattern::randread;
  cmd = fio_command_line(w, "/dev/sdx");
  EXPECT_NE(cmd.find("--size=409600"), std::string::npos) << cmd;
  EXPECT_EQ(cmd.find("offset_increment"), std::string::npos) << cmd;
}

TEST(Workload, FioCommandLineCoversTheTailOfAnUnevenSplitWithASecondJobDefinition) {
  // 10 blocks over 3 jobs, as plan_jobs splits them: one job of 4 blocks, then two of 3.
  Workload w;
  w.rw = Pattern::write;
  w.numjobs = 3;
  w.offset_bytes = 8192;
  w.size_bytes = 4096 * 10;
  w.io_limit_bytes = w.size_bytes;
  std::string cmd = fio_command_line(w, "/dev/sdx");
  EXPECT_NE(cmd.find("--name=diskvet --numjobs=1 --offset=8192 --size=16384 --offset_increment=16384 --io_size=16384"), std::string::npos)
      << cmd;
  EXPECT_NE(cmd.find("--name=diskvet-rest --numjobs=2 --offset=24576 --size=12288 --offset_increment=12288 --io_size=12288"),
            std::string::npos)
      << cmd;
  // Global options come before the first job definition, so both definitions take them.
  EXPECT_LT(cmd.find("--rw=write"), cmd.find("--name="));
  EXPECT_LT(cmd.find("--group_reporting"), cmd.find("--name="));
}

TEST(Workload, VerifyingRandomWorkloadWithFewerBlocksThanJobsIsRefused) {
  Workload w;
  w.rw = Pattern::randrw;
  w.verify = true;
  w.numjobs = 4;
  w.size_bytes = 3 * 4096;
  auto r = validate(w, 1 << 20, 512);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().subject, "numjobs");
  EXPECT_NE(r.error().what.find("3 blocks"), std::string::npos) << r.error().what;
  w.size_bytes = 4 * 4096;
  EXPECT_TRUE(validate(w, 1 << 20, 512).ok());
  w.verify = false;  // jobs that do not verify may share a small region
  w.size_bytes = 3 * 4096;
  EXPECT_TRUE(validate(w, 1 << 20, 512).ok());
}

TEST(Workload, RateIopsTakesFiosFormPerDirection) {
  using R = std::array<uint64_t, kDirections>;
  EXPECT_EQ(parse_rate_iops("1000"), (R{1000, 1000}));
  EXPECT_EQ(parse_rate_iops("800,200"), (R{800, 200}));
  EXPECT_EQ(parse_rate_iops(",200"), (R{0, 200}));
  EXPECT_EQ(parse_rate_iops("800,"), (R{800, 0}));
  EXPECT_EQ(parse_rate_iops("0"), (R{0, 0}));
  EXPECT_FALSE(parse_rate_iops("1,2,3"));  // fio's third value (trim) has no meaning here
  EXPECT_FALSE(parse_rate_iops("10k"));
  EXPECT_FALSE(parse_rate_iops("-5"));
  EXPECT_FALSE(parse_rate_iops("99999999999999999999999"));
  EXPECT_EQ(format_rate_iops({800, 200}), "800,200");
  EXPECT_EQ(format_rate_iops({0, 200}), ",200");
  EXPECT_EQ(format_rate_iops({1000, 1000}), "1000");
}

TEST(Workload, ADeviceWideCapSplitsOverJobsAndTheMix) {
  Workload w;
  w.rw = Pattern::randrw;
  w.rwmixread_pct = 70;
  w.numjobs = 2;
  cap_total_iops(w, 10000);
  EXPECT_EQ(w.rate_iops, (std::array<uint64_t, kDirections>{3500, 1500}));
  w.rw = Pattern::randread;
  cap_total_iops(w, 10000);
  EXPECT_EQ(w.rate_iops, (std::array<uint64_t, kDirections>{5000, 0}));
}

TEST(Workload, FioCommandLineStatesRatesAndWriteData) {
  Workload w;
  w.rw = Pattern::randwrite;
  w.rate_iops = {0, 500};
  w.data = {50, 20};
  std::string cmd = fio_command_line(w, "/dev/sdx");
  for (const char* part : {"--rate_iops=,500", "--buffer_compress_percentage=50", "--dedupe_percentage=20", "--refill_buffers"})
    EXPECT_NE(cmd.find(part), std::string::npos) << part << " in " << cmd;
  w.verify = true;
  w.data = {};
  EXPECT_EQ(fio_command_line(w, "/dev/sdx").find("refill_buffers"), std::string::npos);
}

TEST(Workload, AVerifyingWorkloadTakesNoDataPattern) {
  Workload w;
  w.rw = Pattern::randwrite;
  w.verify = true;
  w.data.dedupe_pct = 10;
  auto v = validate(w, 1 << 20, 512);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().message().find("--dedupe-percentage"), std::string::npos) << v.error().message();
  w.verify = false;
  w.data.compress_pct = 101;
  EXPECT_FALSE(validate(w, 1 << 20, 512).ok());
}

TEST(Workload, FioTimeIsInAUnitFioParsesExactly) {
  EXPECT_EQ(fio_time(2), "2s");
  EXPECT_EQ(fio_time(0.5), "500ms");  // a bare 0.5 is 0 to fio: no ramp at all
  EXPECT_EQ(fio_time(0.0015), "1500us");
  EXPECT_EQ(fio_time(90), "90s");
}

TEST(Workload, FioCommandLineStatesEveryDurationInFioUnits) {
  Workload w;
  w.runtime_s = 2.25;
  w.ramp_s = 0.5;
  std::string cmd = fio_command_line(w, "/dev/sdx");
  EXPECT_NE(cmd.find(" --time_based --runtime=2250ms"), std::string::npos) << cmd;
  EXPECT_NE(cmd.find(" --ramp_time=500ms"), std::string::npos) << cmd;
}

TEST(Workload, FioCommandLineKeepsTheRuntimeBesideAnIoLimit) {
  Workload w;
  w.rw = Pattern::randread;
  w.size_bytes = 64 << 20;
  w.io_limit_bytes = 64 << 20;
  w.runtime_s = 2;
  std::string cmd = fio_command_line(w, "/dev/sdx");
  EXPECT_NE(cmd.find(" --io_size=67108864"), std::string::npos) << cmd;
  EXPECT_NE(cmd.find(" --runtime=2s"), std::string::npos) << cmd;  // whichever comes first ends the run, as in diskvet
  EXPECT_EQ(cmd.find("time_based"), std::string::npos) << cmd;
}

namespace {

// The bytes fio moves for a line's job definitions: numjobs x io_size of each.
uint64_t fio_io_bytes(const std::string& cmd) {
  uint64_t total = 0;
  for (size_t at = cmd.find(" --name="); at != std::string::npos; at = cmd.find(" --name=", at + 1)) {
    const size_t next = cmd.find(" --name=", at + 1);
    const std::string def = cmd.substr(at, next == std::string::npos ? std::string::npos : next - at);
    const size_t j = def.find("--numjobs="), s = def.find("--io_size=");
    if (j == std::string::npos || s == std::string::npos) return 0;
    total += std::stoull(def.substr(j + 10)) * std::stoull(def.substr(s + 10));
  }
  return total;
}

}  // namespace

TEST(Workload, FioMovesTheBytesOfEveryJobsIoLimit) {
  // The case: a 3-job sequential read of 30m over 64m (16384 blocks: shares of 5462, 5461,
  // 5461) printed --io_size=10485760 for the longer share and 10481664 for the others, 8 KiB short.
  Workload w;
  w.rw = Pattern::read;
  w.numjobs = 3;
  w.size_bytes = 64 << 20;
  w.io_limit_bytes = 30 << 20;
  uint64_t planned = 0;
  for (const JobPlan& p : plan_jobs(w)) planned += p.io_limit_bytes;
  ASSERT_EQ(planned, 30u << 20);
  EXPECT_EQ(fio_io_bytes(fio_command_line(w, "/dev/sdx")), planned) << fio_command_line(w, "/dev/sdx");
  // Random jobs share the region; 10 I/Os over 3 jobs are 3, 3 and 4.
  w.rw = Pattern::randread;
  w.io_limit_bytes = 10 * 4096;
  const std::string cmd = fio_command_line(w, "/dev/sdx");
  EXPECT_EQ(fio_io_bytes(cmd), 10u * 4096) << cmd;
  EXPECT_NE(cmd.find("--size=67108864"), std::string::npos) << cmd;
}

TEST(Workload, FioCommandLineCarriesTheSeedAndTheRandomMap) {
  Workload w;
  w.rw = Pattern::randwrite;
  w.seed = 12345;
  std::string cmd = fio_command_line(w, "/dev/sdx");
  EXPECT_NE(cmd.find(" --randseed=12345"), std::string::npos) << cmd;
  EXPECT_EQ(cmd.find("norandommap"), std::string::npos) << cmd;  // fio's default: the random map
  w.random_map = false;
  EXPECT_NE(fio_command_line(w, "/dev/sdx").find(" --norandommap"), std::string::npos);
}

TEST(Workload, HipriIsTheRingEnginesAloneAndNeedsNoSpin) {
  Workload w;
  w.hipri = true;
  auto v = validate(w, 1 << 20, 512);
  ASSERT_TRUE(v) << v.error().message();
  EXPECT_TRUE(v->hipri);
  EXPECT_NE(fio_command_line(*v, "/dev/nvme0n1").find(" --hipri"), std::string::npos);
  w.engine = BackendKind::psync;
  auto psync = validate(w, 1 << 20, 512);
  ASSERT_FALSE(psync);
  EXPECT_EQ(psync.error().subject, "--hipri");
  w.engine = BackendKind::io_uring;
  w.spin_us = 20;
  auto spin = validate(w, 1 << 20, 512);
  ASSERT_FALSE(spin);
  EXPECT_EQ(spin.error().subject, "--spin");
  w.hipri = false;
  EXPECT_EQ(fio_command_line(w, "/dev/nvme0n1").find("hipri"), std::string::npos);
}

TEST(Workload, NvmePassthroughIsFiosIoUringCmdWithNvmeCommandsOnTheGenericNode) {
  EXPECT_EQ(parse_backend("io_uring_cmd"), BackendKind::io_uring_cmd);
  Workload w;
  w.engine = BackendKind::io_uring_cmd;
  w.iodepth = 8;
  auto v = validate(w, 1 << 20, 512);
  ASSERT_TRUE(v) << v.error().message();
  const std::string cmd = fio_command_line(*v, "/dev/ng0n1");
  EXPECT_NE(cmd.find(" --filename=/dev/ng0n1 --ioengine=io_uring_cmd "), std::string::npos) << cmd;
  EXPECT_EQ(cmd.find("--direct"), std::string::npos) << cmd;  // fio cannot open a char device O_DIRECT
  EXPECT_NE(cmd.find(" --cmd_type=nvme"), std::string::npos) << cmd;
  EXPECT_NE(cmd.find(" --fixedbufs --registerfiles"), std::string::npos) << cmd;
  EXPECT_NE(cmd.find(" --iodepth_batch_complete_max=8"), std::string::npos) << cmd;
  // Spinning in user space is the io_uring engine's alone; polled completions (fio's hipri on its
  // io_uring_cmd engine) are both ring engines', and fio's line and ours say so the same way.
  w.spin_us = 20;
  EXPECT_FALSE(validate(w, 1 << 20, 512));
  w.spin_us = 0;
  w.hipri = true;
  auto polled = validate(w, 1 << 20, 512);
  ASSERT_TRUE(polled) << polled.error().message();
  const std::string polled_cmd = fio_command_line(*polled, "/dev/ng0n1");
  EXPECT_NE(polled_cmd.find(" --ioengine=io_uring_cmd "), std::string::npos) << polled_cmd;
  EXPECT_NE(polled_cmd.find(" --cmd_type=nvme --fixedbufs --registerfiles --hipri"), std::string::npos) << polled_cmd;
  w.spin_us = 20;
  auto spin = validate(w, 1 << 20, 512);
  ASSERT_FALSE(spin);
  EXPECT_EQ(spin.error().subject, "--spin");
  w.spin_us = 0;
  w.engine = BackendKind::io_uring;
  w.hipri = false;
  EXPECT_EQ(fio_command_line(w, "/dev/nvme0n1").find("cmd_type"), std::string::npos);
}

TEST(Workload, FioNotesSayWhatTheLineCannot) {
  Workload w;
  w.rw = Pattern::randread;
  w.iodepth_batch_submit = 1;
  EXPECT_EQ(fio_command_notes(w), "");
  w.spin_us = 100;
  EXPECT_NE(fio_command_notes(w).find("100us"), std::string::npos) << fio_command_notes(w);
}

TEST(Workload, FioReapsEveryCompletionPerWaitAsDiskvetDoes) {
  // fio's default iodepth_batch_complete_max is its min (1): one completion per wait, one refill, so
  // iodepth_batch_submit=8 rarely forms a batch. diskvet reaps all there are and refills every slot.
  Workload w;
  w.iodepth = 32;
  w.iodepth_batch_submit = 8;
  const std::string cmd = fio_command_line(w, "/dev/sdx");
  EXPECT_NE(cmd.find(" --iodepth_batch_submit=8"), std::string::npos) << cmd;
  EXPECT_NE(cmd.find(" --iodepth_batch_complete_max=32"), std::string::npos) << cmd;
  w.iodepth = 1;
  EXPECT_EQ(fio_command_line(w, "/dev/sdx").find("iodepth_batch_complete_max"), std::string::npos);
}
