// Workload names, validation and the fio command line equivalent.
#include "runner/io/workload.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

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
  for (auto b : {BackendKind::io_uring, BackendKind::psync, BackendKind::null})
    if (s == to_string(b)) return b;
  return std::nullopt;
}

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

std::string fio_command_line(const Workload& w, std::string_view filename) {
  // Jobs that each own a share of the region (as plan_jobs splits them): global options first,
  // their job definitions at the end (see below).
  const bool split = w.numjobs > 1 && (!is_random(w.rw) || w.verify);
  std::string cmd = split ? std::string("fio") : fmt::format("fio --name=diskvet --numjobs={}", w.numjobs);
  cmd += fmt::format(" --filename={} --direct=1 --ioengine={} --rw={} --bs={} --iodepth={}", filename,
                     w.engine == BackendKind::io_uring ? "io_uring" : (w.engine == BackendKind::psync ? "psync" : "null"), to_string(w.rw),
                     w.bs_bytes, w.iodepth);
  if (w.engine == BackendKind::io_uring) cmd += " --fixedbufs --registerfiles";
  if (reads(w.rw) && writes(w.rw)) cmd += fmt::format(" --rwmixread={}", w.rwmixread_pct);
  if (!split && w.offset_bytes) cmd += fmt::format(" --offset={}", w.offset_bytes);
  if (!split && w.size_bytes) cmd += fmt::format(" --size={}", w.size_bytes);
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
  if (w.io_limit_bytes && !split) cmd += fmt::format(" --io_size={}", w.io_limit_bytes / w.numjobs);
  if (!w.io_limit_bytes) cmd += fmt::format(" --time_based --runtime={}", w.runtime_s);
  if (w.ramp_s > 0) cmd += fmt::format(" --ramp_time={}", w.ramp_s);
  if (!w.cpus.empty()) cmd += fmt::format(" --cpus_allowed={} --cpus_allowed_policy={}", w.cpus.to_string(), to_string(w.cpus_policy));
  // fio's nearest verification: crc32c blocks, checked after writing (and behind, for mixed load).
  if (w.verify && writes(w.rw)) cmd += reads(w.rw) ? fmt::format(" --verify=crc32c --verify_backlog={}", w.iodepth) : " --verify=crc32c --do_verify=0";
  if (w.verify && !writes(w.rw)) cmd += " --verify=crc32c --verify_only";
  cmd += " --group_reporting --output-format=json";
  if (split) {
    // Jobs that each own a consecutive share of the region, as plan_jobs splits it: the first
    // blocks % numjobs jobs one block more. fio's size and offset_increment are one per job
    // definition, so the longer and the shorter shares are two job definitions after the global
    // options (one when the blocks divide evenly), reported as one group; each covers its blocks
    // once per pass, and an io limit is dealt out in proportion to the shares.
    const uint64_t blocks = w.size_bytes / w.bs_bytes, base = blocks / w.numjobs, extra = blocks % w.numjobs;
    const uint64_t limit_ios = w.io_limit_bytes ? (w.io_limit_bytes + w.bs_bytes - 1) / w.bs_bytes : 0;
    auto group = [&](uint64_t jobs, uint64_t first_block, uint64_t share_blocks, std::string_view name) {
      if (jobs == 0) return;
      cmd += fmt::format(" --name={} --numjobs={} --offset={} --size={} --offset_increment={}", name, jobs,
                         w.offset_bytes + first_block * w.bs_bytes, share_blocks * w.bs_bytes, share_blocks * w.bs_bytes);
      if (limit_ios) cmd += fmt::format(" --io_size={}", std::max<uint64_t>(1, static_cast<uint64_t>(static_cast<Uint128>(limit_ios) * share_blocks / blocks)) * w.bs_bytes);
    };
    group(extra, 0, base + 1, "diskvet");
    group(w.numjobs - extra, extra * (base + 1), base, extra ? "diskvet-rest" : "diskvet");
  }
  return cmd;
}

}  // namespace diskvet::runner
