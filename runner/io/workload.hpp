// Workload: one fio-style job description, a plain value validated before anything touches a device.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/error.hpp"
#include "runner/io/cpu_set.hpp"
#include "runner/io/write_data.hpp"

namespace diskvet::runner {

enum class Direction : uint8_t { read = 0, write = 1 };
inline constexpr unsigned kDirections = 2;

enum class Pattern : uint8_t { read, write, randread, randwrite, rw, randrw };
// io_uring_cmd: fio's name for NVMe passthrough, commands on the namespace's generic char device.
enum class BackendKind : uint8_t { io_uring, psync, null, io_uring_cmd };

std::string_view to_string(Pattern p);
std::string_view to_string(BackendKind b);
std::string_view to_string(Direction d);
std::optional<Pattern> parse_pattern(std::string_view s);
std::optional<BackendKind> parse_backend(std::string_view s);

bool uses_ring(BackendKind b);  // io_uring or io_uring_cmd: batched submission through a ring

bool is_random(Pattern p);
bool reads(Pattern p);   // the pattern issues reads
bool writes(Pattern p);  // the pattern issues writes

struct Workload {
  Pattern rw = Pattern::randread;
  uint32_t bs_bytes = 4096;
  uint32_t iodepth = 1;
  uint32_t numjobs = 1;
  uint32_t rwmixread_pct = 50;  // only for rw/randrw
  double runtime_s = 10;        // measured window, after the ramp
  double ramp_s = 0;            // run but not counted
  uint64_t offset_bytes = 0;    // start of the region
  uint64_t size_bytes = 0;      // length of the region; 0 = to the end of the target
  // fio's rate_iops=R,W: each job issues at most R reads and W writes per second (a single value
  // caps both directions); 0 = no cap for that direction.
  std::array<uint64_t, kDirections> rate_iops{};
  // I/Os staged before they are submitted, fio's iodepth_batch_submit (1: each I/O goes to the
  // device as soon as its slot is free, fio's default and `diskvet io`'s); 0: everything staged goes
  // with the wait for completions, one system call per reap batch (suites, unless they say).
  uint32_t iodepth_batch_submit = 0;
  // Stop once this many bytes were transferred in total (split over the jobs), even before
  // runtime_s; 0 = time-based only. Used for preconditioning passes (2x capacity).
  uint64_t io_limit_bytes = 0;
  BackendKind engine = BackendKind::io_uring;
  double interval_s = 1.0;  // interval series resolution
  // Offsets, mix and write data of every job derive from it (runner/io/seed.hpp). Front ends give
  // each run, and each engine run of a suite, its own: a fixed value repeats the run's data exactly.
  uint64_t seed = 0x6469736b766574;  // "diskvet"
  // fio's random map (its default): a random job touches every block of its region once per pass.
  // false is fio's norandommap: each offset drawn independently, some blocks twice, others not at all.
  bool random_map = true;
  // Writes carry verification blocks and reads check them (needs a VerifyState from the caller);
  // each job then owns its own share of the region, random or not.
  bool verify = false;
  // Job thread placement, fio's cpus_allowed / cpus_allowed_policy; empty = the scheduler's choice.
  CpuSet cpus;
  CpuPolicy cpus_policy = CpuPolicy::shared;
  // io_uring: poll the completion ring this long before sleeping in the kernel; 0 = sleep at once.
  // Spares the wake-up (a cross-CPU one costs microseconds) from low-depth latency, at the price of
  // the job's CPU while it spins.
  uint32_t spin_us = 0;
  // fio's hipri: the ring polls the device's queue for completions (IORING_SETUP_IOPOLL) instead of
  // waiting for its interrupt; only where the driver has poll queues (runner/io/poll_queues.hpp).
  bool hipri = false;
  // Every I/O has a deadline (DESIGN.md "Engine"). One out longer than io_timeout_s is a stall,
  // recorded and judged (30 s: the Linux NVMe driver's own timeout, nvme_core.io_timeout). One out
  // longer than io_timeout_s + io_grace_s is given up on: its job is abandoned and the run goes on
  // without it (the grace leaves the kernel's own timeout, abort and reset time to finish it).
  double io_timeout_s = 30;
  double io_grace_s = 30;

  // What writes carry that are not verification blocks: unique per write by default (fio's
  // scramble/refill behaviour); fio's buffer_compress_percentage and dedupe_percentage.
  DataPattern data;

  uint32_t read_pct() const;
  bool rate_capped() const { return rate_iops[0] || rate_iops[1]; }  // share of reads, 0..100, derived from rw and rwmixread_pct
};

// The longest runtime plus ramp a workload may ask for (a year).
inline constexpr double kMaxRunS = 366 * 86400.0;

// Checks a workload against the target it will run on (size and logical block size); the error
// names the option and how to fix it. Resolves size_bytes == 0 to "the rest of the target".
Result<Workload> validate(Workload w, uint64_t target_size_bytes, uint32_t logical_block_size);

// fio's rate_iops value: "R" (both directions), "R,W", ",W" (writes only) or "R," (reads only);
// 0 or empty means no cap. Nothing on failure.
std::optional<std::array<uint64_t, kDirections>> parse_rate_iops(std::string_view s);
// The same in fio's form ("1000", "1000,500", ",500"); empty for no cap.
std::string format_rate_iops(const std::array<uint64_t, kDirections>& r);

// Caps a workload's total IOPS (over all jobs, both directions) at total_iops, split over the
// jobs and over the directions by the read/write mix (a lab option emulating a slower device).
void cap_total_iops(Workload& w, uint64_t total_iops);

// One job's consecutive share of a region of `blocks` blocks split over `numjobs` jobs: the shares
// tile the region exactly (the first blocks % numjobs jobs take one block more), so a pass of every
// share is one pass of every block.
struct JobShare {
  uint64_t first_block = 0;
  uint64_t blocks = 0;
};
JobShare job_share(uint64_t blocks, uint32_t numjobs, uint32_t job);

// Whether the jobs split the region into consecutive shares (sequential or verifying workloads) or
// each range over all of it (random ones).
bool splits_region(const Workload& w);

// Job `job`'s part of the workload's io limit, in I/Os (0: no limit). The parts add up to the limit:
// in proportion to each job's share of the region when the jobs split it (a pass of the region is a
// pass of each share), evenly when they share it; every job does at least one I/O.
uint64_t job_limit_ios(const Workload& w, uint32_t job);

// A duration in the unit fio parses exactly: "2s", "500ms", "1500us" (a bare "0.5" is 0 to fio).
std::string fio_time(double seconds);

// The equivalent fio command line, for reports and for anyone who wants to check us with fio.
std::string fio_command_line(const Workload& w, std::string_view filename);

// What the fio line cannot say, in words (empty when it says everything): why fio's numbers for the
// same line may differ, e.g. a --spin that fio has no option for.
std::string fio_command_notes(const Workload& w);

}  // namespace diskvet::runner
