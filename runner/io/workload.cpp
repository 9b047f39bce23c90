// Workload names, validation and the fio command line equivalent.
#include "runner/io/workload.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/units.hpp"
#include "runner/io/rate_limit.hpp"

namespace diskvet::runner {

__extension__ typedef unsigned __int128 Uint128;  // exact products of 64-bit counts

std::string_view to_string(Pattern p) {
  switch (p) {
    case Pattern::read: return "read";
    case Pattern::write: return "write";
    case Pattern::randread: return "randread";
    case Pattern::randwrite: return "randwrite";
    case Pattern::rw: return "rw";
    case Pattern::randrw: return "randrw";
  }
  return "?";
}

std::string_view to_string(BackendKind b) {
  switch (b) {
    case BackendKind::io_uring: return "io_uring";
    case BackendKind::psync: return "psync";
    case BackendKind::null: return "null";
    case BackendKind::io_uring_cmd: return "io_uring_cmd";
  }
  return "?";
}

std::string_view to_string(Direction d) { return d == Direction::read ? "read" : "write"; }

std::optional<Pattern> parse_pattern(std::string_view s) {
  for (auto p : {Pattern::read, Pattern::write, Pattern::randread, Pattern::randwrite, Pattern::rw, Pattern::randrw})
    if (s == to_string(p)) return p;
  if (s == "readwrite") return Pattern::rw;
  return std::nullopt;
}

std::optional<BackendKind> parse_backend(std::string_view s) {
  for (auto b : {BackendKind::io_uring, BackendKind::psync, BackendKind::null, BackendKind::io_uring_cmd})
    if (s == to_string(b)) return b;
  return std::nullopt;
}

bool uses_ring(BackendKind b) { return b == BackendKind::io_uring || b == BackendKind::io_uring_cmd; }

bool is_random(Pattern p) { return p == Pattern::randread || p == Pattern::randwrite || p == Pattern::randrw; }
bool reads(Pattern p) { return p != Pattern::write && p != Pattern::randwrite; }
bool writes(Pattern p) { return p != Pattern::read && p != Pattern::randread; }

uint32_t Workload::read_pct() const {
  if (!writes(rw)) return 100;
  if (!reads(rw)) return 0;
  return rwmixread_pct;
}

std::optional<std::array<uint64_t, kDirections>> parse_rate_iops(std::string_view s) {
  auto one = [](std::string_view v) -> std::optional<uint64_t> {
    if (v.empty()) return 0;
    uint64_t n = 0;
    for (char c : v) {
      if (c < '0' || c > '9' || n > UINT64_MAX / 10 - 1) return std::nullopt;
      n = n * 10 + static_cast<uint64_t>(c - '0');
    }
    return n;
  };
  size_t comma = s.find(',');
  if (comma == std::string_view::npos) {
    auto r = one(s);
    if (!r) return std::nullopt;
    return std::array<uint64_t, kDirections>{*r, *r};
  }
  auto r = one(s.substr(0, comma)), w = one(s.substr(comma + 1));
  if (!r || !w) return std::nullopt;  // a third value (fio's trim) or junk
  return std::array<uint64_t, kDirections>{*r, *w};
}

std::string format_rate_iops(const std::array<uint64_t, kDirections>& r) {
  if (r[0] == r[1]) return r[0] ? std::to_string(r[0]) : std::string();
  return fmt::format("{},{}", r[0] ? std::to_string(r[0]) : "", r[1] ? std::to_string(r[1]) : "");
}

void cap_total_iops(Workload& w, uint64_t total) {
  const uint64_t per_job = std::max<uint64_t>(1, total / w.numjobs);
  const uint32_t rd = w.read_pct();
  // Each direction's share of the cap; a direction the mix never issues gets no cap (it issues nothing).
  w.rate_iops[0] = rd ? std::max<uint64_t>(1, per_job * rd / 100) : 0;
  w.rate_iops[1] = rd < 100 ? std::max<uint64_t>(1, per_job * (100 - rd) / 100) : 0;
}

Result<Workload> validate(Workload w, uint64_t target_size, uint32_t lbs) {
  if (lbs == 0) lbs = 512;
  if (w.bs_bytes == 0 || w.bs_bytes % lbs != 0)
    return usage_error("--bs", fmt::format("{} is not a multiple of the target's logical block size ({} bytes)", w.bs_bytes, lbs),
                       fmt::format("use a multiple of {}, e.g. 4k", lbs));
  if (w.bs_bytes > 64u << 20) return usage_error("--bs", "block size above 64MiB", "use at most 64m");
  if (w.iodepth == 0 || w.iodepth > 4096) return usage_error("--iodepth", fmt::format("{} is outside 1..4096", w.iodepth));
  if (w.iodepth_batch_submit > 4096)
    return usage_error("--iodepth-batch-submit", fmt::format("{} is outside 0..4096", w.iodepth_batch_submit),
                       "1 (fio's default) submits each I/O as soon as its slot is free; 0 with each wait");
  if (w.numjobs == 0 || w.numjobs > 256) return usage_error("--numjobs", fmt::format("{} is outside 1..256", w.numjobs));
  if (w.rwmixread_pct > 100) return usage_error("--rwmixread", fmt::format("{} is not a percentage", w.rwmixread_pct));
  if (!(w.runtime_s > 0) || !std::isfinite(w.runtime_s)) return usage_error("--runtime", "must be a positive duration", "e.g. 10s");
  if (w.ramp_s < 0 || !std::isfinite(w.ramp_s)) return usage_error("--ramp-time", "must not be negative");
  // The engine's deadlines are nanoseconds in 64 bits; a longer time used to wrap them (undefined).
  if (w.runtime_s + w.ramp_s > kMaxRunS)
    return usage_error(w.runtime_s > w.ramp_s ? "--runtime" : "--ramp-time",
                       fmt::format("{} with the ramp is more than a year", format_duration(w.runtime_s + w.ramp_s)), "e.g. 10m, 7d");
  if (!(w.interval_s >= 0.01)) return usage_error("interval", "must be at least 10ms");
  for (uint64_t r : w.rate_iops)
    if (r > kMaxRateIops) return usage_error("--rate-iops", fmt::format("{} is more than {} IOPS per job", r, kMaxRateIops), "e.g. 10000 or 8000,2000");
  if (w.data.compress_pct > 100)
    return usage_error("--buffer-compress-percentage", fmt::format("{} is not a percentage", w.data.compress_pct), "e.g. 50");
  if (w.data.dedupe_pct > 100) return usage_error("--dedupe-percentage", fmt::format("{} is not a percentage", w.data.dedupe_pct), "e.g. 50");
  if (w.verify && w.data != DataPattern{})
    return usage_error(w.data.compress_pct ? "--buffer-compress-percentage" : "--dedupe-percentage",
                       "a verifying workload writes verification blocks (unique per block and generation), not a data pattern",
                       "drop the data pattern, or verify in another workload");
  if (w.spin_us > 1'000'000) return usage_error("--spin", fmt::format("{}us is more than a second", w.spin_us), "e.g. 50us");
  if (w.spin_us && w.engine != BackendKind::io_uring) return usage_error("--spin", "only the io_uring engine polls its completions", "drop --spin");
  if (w.hipri && w.engine != BackendKind::io_uring && w.engine != BackendKind::io_uring_cmd)
    return usage_error("--hipri", fmt::format("the {} engine cannot poll a device's queue", to_string(w.engine)),
                       "use --engine io_uring (or io_uring_cmd on NVMe)");
  if (w.hipri && w.spin_us)
    return usage_error("--spin", "a --hipri ring polls the device itself; there is nothing left to spin for", "drop --spin");
  if (!(w.io_timeout_s >= 0.01) || !std::isfinite(w.io_timeout_s))
    return usage_error("--io-timeout", "must be at least 10ms", "e.g. 30s, the Linux NVMe driver's own timeout");
  if (!(w.io_grace_s >= 0) || !std::isfinite(w.io_grace_s)) return usage_error("io_grace", "must not be negative", "e.g. 30s");
  if (!w.cpus.empty()) {
    CpuSet now = CpuSet::allowed_now();
    for (uint32_t c : w.cpus.cpus)
      if (!std::binary_search(now.cpus.begin(), now.cpus.end(), c))
        return usage_error("--cpus-allowed", fmt::format("CPU {} is not one this process may run on ({})", c, now.to_string()),
                           fmt::format("choose among {}", now.to_string()));
  }
  if (w.offset_bytes % lbs != 0)
    return usage_error("--offset", fmt::format("{} is not aligned to the logical block size ({} bytes)", w.offset_bytes, lbs));
  if (w.offset_bytes >= target_size)
    return usage_error("--offset", fmt::format("{} is at or past the end of the target ({})", w.offset_bytes, target_size),
                       "choose an offset inside the target");
  if (w.size_bytes == 0) w.size_bytes = target_size - w.offset_bytes;
  if (w.size_bytes > target_size - w.offset_bytes)
    return usage_error("--size", fmt::format("region {}+{} runs past the end of the target ({} bytes)", w.offset_bytes, w.size_bytes, target_size),
                       fmt::format("use --size {} or less", format_bytes(target_size - w.offset_bytes)));
  uint64_t blocks = w.size_bytes / w.bs_bytes;
  if (blocks == 0) return usage_error("--size", fmt::format("region of {} bytes holds no block of {} bytes", w.size_bytes, w.bs_bytes));
  if (!is_random(w.rw) && blocks < w.numjobs)
    return usage_error("--numjobs", fmt::format("sequential region of {} blocks cannot be split over {} jobs", blocks, w.numjobs));
  // Verifying jobs own disjoint shares (one I/O per block at a time, one generation each): with fewer
  // blocks than jobs some share would be empty, and jobs would race on one block.
  if (w.verify && blocks < w.numjobs)
    return usage_error("numjobs", fmt::format("a verifying workload's region of {} blocks of {} bytes cannot give each of {} jobs a block of its own",
                                              blocks, w.bs_bytes, w.numjobs),
                       fmt::format("use at most {} jobs, or a larger region or smaller bs", blocks));
  w.size_bytes = blocks * w.bs_bytes;  // whole blocks only
  return w;
}

JobShare job_share(uint64_t blocks, uint32_t numjobs, uint32_t j) {
  // The first blocks % numjobs jobs take one block more: the shares tile the region exactly.
  const uint64_t base = blocks / numjobs, extra = blocks % numjobs;
  return {j * base + std::min<uint64_t>(j, extra), base + (j < extra ? 1 : 0)};
}

bool splits_region(const Workload& w) { return !is_random(w.rw) || w.verify; }

uint64_t job_limit_ios(const Workload& w, uint32_t j) {
  if (!w.io_limit_bytes) return 0;
  const uint64_t blocks = w.size_bytes / w.bs_bytes;
  const uint64_t limit_ios = (w.io_limit_bytes + w.bs_bytes - 1) / w.bs_bytes;
  // 128-bit products: limit_ios x blocks overflows 64 bits for passes over very large regions.
  auto upto = [&](uint64_t part, uint64_t whole) { return static_cast<uint64_t>(static_cast<Uint128>(limit_ios) * part / whole); };
  uint64_t ios;
  if (splits_region(w)) {
    const JobShare share = job_share(blocks, w.numjobs, j);
    ios = upto(share.first_block + share.blocks, blocks) - upto(share.first_block, blocks);
  } else {
    ios = upto(j + 1, w.numjobs) - upto(j, w.numjobs);
  }
  return std::max<uint64_t>(ios, 1);
}

std::string fio_time(double seconds) {
  const auto us = static_cast<uint64_t>(std::llround(std::max(seconds, 0.0) * 1e6));
  if (us % 1'000'000 == 0) return fmt::format("{}s", us / 1'000'000);
  if (us % 1'000 == 0) return fmt::format("{}ms", us / 1'000);
  return fmt::format("{}us", us);
}

namespace {

// Consecutive jobs that fio can run as one job definition: the same share of the region (when the
// jobs split it; offset_increment steps from one share to the next) and the same io limit.
struct JobGroup {
  uint32_t first_job = 0;
  uint32_t jobs = 0;
  JobShare share;       // the first job's (blocks 0: the jobs share the region)
  uint64_t limit_ios = 0;
};

std::vector<JobGroup> job_groups(const Workload& w) {
  std::vector<JobGroup> groups;
  const uint64_t blocks = w.size_bytes / w.bs_bytes;
  for (uint32_t j = 0; j < w.numjobs; ++j) {
    const JobShare share = splits_region(w) ? job_share(blocks, w.numjobs, j) : JobShare{};
    const uint64_t ios = job_limit_ios(w, j);
    if (groups.empty() || groups.back().share.blocks != share.blocks || groups.back().limit_ios != ios)
      groups.push_back({j, 0, share, ios});
    ++groups.back().jobs;
  }
  return groups;
}

}  // namespace

std::string fio_command_line(const Workload& w, std::string_view filename) {
  // fio's size, offset_increment and io_size are one per job definition: jobs that differ in them
  // (uneven shares of a split region, io limits that do not divide evenly) are several job
  // definitions after the global options, reported as one group; each moves exactly the I/Os
  // plan_jobs gives its jobs.
  const bool split = w.numjobs > 1 && splits_region(w);
  const std::vector<JobGroup> groups = job_groups(w);
  const bool definitions_last = split || groups.size() > 1;
  std::string cmd = definitions_last ? std::string("fio") : fmt::format("fio --name=diskvet --numjobs={}", w.numjobs);
  // io_uring_cmd: filename is the generic char device, and fio's cmd_type says the commands are NVMe's.
  // No direct=1 there: a char device refuses O_DIRECT (fio 3.33 fails the open with EINVAL), and
  // passthrough commands never go through the page cache anyway.
  cmd += fmt::format(" --filename={}{} --ioengine={} --rw={} --bs={} --iodepth={}", filename,
                     w.engine == BackendKind::io_uring_cmd ? "" : " --direct=1", to_string(w.engine), to_string(w.rw), w.bs_bytes, w.iodepth);
  if (w.engine == BackendKind::io_uring_cmd) cmd += " --cmd_type=nvme";
  if (uses_ring(w.engine)) cmd += " --fixedbufs --registerfiles";
  if (w.hipri) cmd += " --hipri";
  if (reads(w.rw) && writes(w.rw)) cmd += fmt::format(" --rwmixread={}", w.rwmixread_pct);
  if (!split && w.offset_bytes) cmd += fmt::format(" --offset={}", w.offset_bytes);
  if (!split && w.size_bytes) cmd += fmt::format(" --size={}", w.size_bytes);
  // The run's seed: fio's own generators differ from ours, but the line gives fio a seed of its own
  // per workload, so fio too writes data and offsets another workload's line does not repeat.
  cmd += fmt::format(" --randseed={}", w.seed);
  if (is_random(w.rw) && !w.random_map) cmd += " --norandommap";
  if (w.rate_capped()) cmd += fmt::format(" --rate_iops={}", format_rate_iops(w.rate_iops));
  // Write data: fio's default scrambles only a word per 512 bytes of a buffer filled once; ours is
  // unique in every word, which is fio's refill_buffers (verification writes carry their blocks).
  if (writes(w.rw) && !w.verify) {
    if (w.data.compress_pct) cmd += fmt::format(" --buffer_compress_percentage={}", w.data.compress_pct);
    if (w.data.dedupe_pct) cmd += fmt::format(" --dedupe_percentage={}", w.data.dedupe_pct);
    if (w.data.compress_pct < 100) cmd += " --refill_buffers";
  }
  if (w.iodepth_batch_submit != 1)
    cmd += fmt::format(" --iodepth_batch_submit={}", w.iodepth_batch_submit ? w.iodepth_batch_submit : w.iodepth);
  // Each wait reaps every completion there is, then refills every free slot (submitting every
  // iodepth_batch_submit): fio's iodepth_batch_complete_max=iodepth. fio's default reaps one per
  // wait and refills one, so a batch of staged I/Os would rarely form (issue 25).
  if (w.iodepth > 1 && uses_ring(w.engine)) cmd += fmt::format(" --iodepth_batch_complete_max={}", w.iodepth);
  if (!definitions_last && w.io_limit_bytes) cmd += fmt::format(" --io_size={}", groups.front().limit_ios * w.bs_bytes);
  // With an io limit the runtime still ends the run when it comes first, in fio as in diskvet.
  cmd += fmt::format("{} --runtime={}", w.io_limit_bytes ? "" : " --time_based", fio_time(w.runtime_s));
  if (w.ramp_s > 0) cmd += fmt::format(" --ramp_time={}", fio_time(w.ramp_s));
  if (!w.cpus.empty()) cmd += fmt::format(" --cpus_allowed={} --cpus_allowed_policy={}", w.cpus.to_string(), to_string(w.cpus_policy));
  // fio's nearest verification: crc32c blocks, checked after writing (and behind, for mixed load).
  if (w.verify && writes(w.rw)) cmd += reads(w.rw) ? fmt::format(" --verify=crc32c --verify_backlog={}", w.iodepth) : " --verify=crc32c --do_verify=0";
  if (w.verify && !writes(w.rw)) cmd += " --verify=crc32c --verify_only";
  cmd += " --group_reporting --output-format=json";
  if (!definitions_last) return cmd;
  for (size_t g = 0; g < groups.size(); ++g) {
    const JobGroup& jg = groups[g];
    const std::string name = g == 0 ? "diskvet" : g == 1 ? "diskvet-rest" : fmt::format("diskvet-rest{}", g);
    cmd += fmt::format(" --name={} --numjobs={}", name, jg.jobs);
    if (split)
      cmd += fmt::format(" --offset={} --size={} --offset_increment={}", w.offset_bytes + jg.share.first_block * w.bs_bytes,
                         jg.share.blocks * w.bs_bytes, jg.share.blocks * w.bs_bytes);
    if (jg.limit_ios) cmd += fmt::format(" --io_size={}", jg.limit_ios * w.bs_bytes);
  }
  return cmd;
}

std::string fio_command_notes(const Workload& w) {
  std::vector<std::string> notes;
  if (w.spin_us)
    notes.push_back(fmt::format("diskvet polls its completion ring for {}us before sleeping (--spin); fio has no such option, so fio's "
                                "low-depth latencies include a wake-up diskvet's do not",
                                w.spin_us));
  if (w.iodepth_batch_submit == 0 && uses_ring(w.engine))
    notes.push_back("diskvet submits the staged I/Os with each wait for completions (one system call); fio's nearest, "
                    "iodepth_batch_submit=iodepth, submits them in a call of its own");
  if (w.verify) notes.push_back("diskvet's verification blocks are checked as they are read during the run; fio's verify is the nearest");
  if (writes(w.rw) && !w.verify)
    notes.push_back("fio fills writes from its own generator: with the same randseed fio repeats its own data, not diskvet's");
  std::string out;
  for (const auto& n : notes) out += (out.empty() ? "" : "; ") + n;
  return out;
}

}  // namespace diskvet::runner
