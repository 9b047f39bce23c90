// The hot loop of one job: keep `depth` I/Os in flight on one backend, stamp time once per submit
// (batch) and once per reap batch, and count only what completes inside the measured window.
// Nothing here allocates, locks or makes a syscall beyond the backend's submit and submit-and-wait.
// An I/O's latency starts immediately before the submit that carries it, after its buffer was
// filled (and checksummed), and ends at the reap, before any completion work (DESIGN.md "Engine").
#pragma once

#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <optional>
#include <vector>

#include "runner/io/backend.hpp"
#include "runner/io/clock.hpp"
#include "runner/io/measurement.hpp"
#include "runner/io/random_map.hpp"
#include "runner/io/rate_limit.hpp"
#include "runner/io/rng.hpp"
#include "runner/io/verify_job.hpp"
#include "runner/io/write_data.hpp"

namespace diskvet::runner {

// What one job does, derived from the Workload by plan_jobs().
struct JobPlan {
  uint32_t index = 0;
  Pattern rw = Pattern::randread;
  uint32_t bs_bytes = 4096;
  uint32_t depth = 1;
  uint32_t read_pct = 100;
  uint64_t region_offset_bytes = 0;  // random: the whole region; sequential: this job's share
  uint64_t region_blocks = 1;        // in units of bs_bytes
  std::array<uint64_t, kDirections> rate_iops{};  // fio's rate_iops=R,W: a cap per direction; 0 = none
  DataPattern data;                 // what non-verifying writes carry
  uint32_t batch_submit = 0;        // stage this many, then submit (fio's iodepth_batch_submit); 0: with the wait
  uint64_t io_limit_bytes = 0;  // this job's share; 0 = none
  uint64_t seed = 1;
  bool random_map = true;  // fio's random map: every block of the region once per pass (random_map.hpp)
  uint64_t io_timeout_ns = 30'000'000'000;  // an I/O out longer is a stall (Workload::io_timeout_s)
};

// The run's shared timeline, fixed before the jobs start.
struct Timeline {
  uint64_t start_ns = 0;
  uint64_t ramp_end_ns = 0;  // completions from here on are counted
  uint64_t end_ns = 0;       // no new I/O is issued from here on; later completions are not counted
};

// One slot as the watchdog (the engine's sampler thread) sees it: when the I/O in it was submitted
// (0: the slot is free) and where it went. Relaxed stores by the job, a plain mov each on x86: no
// syscall, lock or allocation per I/O. The sampler reads the stamp, the place, then the stamp again,
// and trusts the place only when both stamps agree.
struct SlotWatch {
  std::atomic<uint64_t> submit_ns{0};
  std::atomic<uint64_t> offset_and_dir{0};  // offset | 1 for a write (offsets are sector-aligned)
};

// Cumulative counts a job publishes for the interval sampler and live views: single writer,
// relaxed stores (a plain mov on x86), read by the sampler thread.
struct alignas(64) LiveCounters {
  std::array<std::atomic<uint64_t>, kDirections> ios{};
  std::array<std::atomic<uint64_t>, kDirections> bytes{};
  std::array<std::atomic<uint64_t>, kDirections> lat_sum_ns{};
  // What completed during the ramp (not measured): the sampler keeps the ramp's own series from
  // these, so a burst spent there shows in the report (runner/analysis/burst.hpp).
  std::array<std::atomic<uint64_t>, kDirections> ramp_ios{};
  std::array<std::atomic<uint64_t>, kDirections> ramp_bytes{};
  std::atomic<bool> done{false};
  // The watchdog's view of the job's slots (engine-owned, one per slot, sized before the job
  // starts; null: not watched). Its stamped slots are also the job's I/Os in flight, which the
  // sampler counts for Little's law. Set by the engine when an I/O is past its hard deadline: the job
  // leaves at its next wake-up with that I/O still out, touching nothing the caller owns.
  SlotWatch* watch = nullptr;
  std::atomic<bool> abandon{false};
};

struct JobResult {
  std::array<DirectionResult, kDirections> dir;
  uint64_t syscalls = 0;
  uint64_t issued = 0;
  uint64_t write_bytes_issued = 0;  // every write issued, ramp included
  uint64_t errors = 0;
  std::vector<IoError> first_errors;
  double usr_cpu_s = 0;
  double sys_cpu_s = 0;
  uint64_t finish_ns = 0;
  int cpu = -1;  // where the job thread was when it finished (sched_getcpu)
  bool io_limit_reached = false;
  VerifySummary verify;
  std::vector<Stall> stalls;  // the first kMaxJobStallRecords I/Os that completed later than io_timeout
  uint64_t stall_count = 0;
  bool abandoned = false;     // left with I/Os still out (the engine's hard deadline)
};

// A rate-capped job idle between tokens looks at its stop flag this often.
inline constexpr uint64_t kIdlePollNs = 10'000'000;

inline double thread_cpu_s(bool user) {
  rusage ru{};
  getrusage(RUSAGE_THREAD, &ru);
  const timeval& tv = user ? ru.ru_utime : ru.ru_stime;
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
}

// V is NoVerify (every verification line below compiles away) or BlockVerifier. C is the clock every
// stamp and every idle sleep goes through (MonotonicClock; tests give synthetic time).
template <IoBackend B, typename V, typename C = MonotonicClock>
void run_job(B& backend, const JobPlan& plan, const Timeline& tl, const std::atomic<bool>& stop, LiveCounters& live,
             JobResult& out, V& verifier, const C& clock = C{}) {
  struct Slot {
    uint64_t submit_ns;
    uint64_t offset;
    Direction dir;
  };
  const uint32_t depth = plan.depth;
  std::vector<Slot> slots(depth);
  std::vector<uint32_t> free_slots(depth);
  for (uint32_t i = 0; i < depth; ++i) free_slots[i] = depth - 1 - i;
  uint32_t free_count = depth;
  std::vector<uint32_t> staged_slots(depth);  // staged since the last submit, stamped just before it
  uint32_t staged = 0;
  out.first_errors.reserve(kMaxRecordedErrors);
  out.stalls.reserve(kMaxJobStallRecords);
  SlotWatch* const watch = live.watch;

  Rng rng(plan.seed);
  const bool random = is_random(plan.rw);
  const bool mapped = random && plan.random_map;
  RandomMap map(plan.region_blocks, plan.seed ^ 0x6d6170);
  const bool mixed = plan.read_pct != 0 && plan.read_pct != 100;
  const Direction fixed_dir = plan.read_pct == 0 ? Direction::write : Direction::read;
  uint64_t seq_block = 0;
  const uint64_t limit_ios = plan.io_limit_bytes ? (plan.io_limit_bytes + plan.bs_bytes - 1) / plan.bs_bytes : 0;
  // Writes that carry no verification block carry data unique per write (or the asked pattern).
  constexpr bool fills_writes = !V::enabled && requires { backend.buffer(0u); };
  std::optional<WriteData> data;
  if constexpr (fills_writes)
    if (plan.read_pct != 100 && backend.buffer(0u)) data.emplace(plan.bs_bytes, plan.data, plan.seed);

  uint64_t issued = 0;
  std::array<uint64_t, kDirections> issued_dir{};
  const bool rated = plan.rate_iops[0] || plan.rate_iops[1];
  uint32_t inflight = 0;
  bool measuring = false;
  bool failed = false;
  double usr0 = 0, sys0 = 0;
  std::array<uint64_t, kDirections> ios{}, bytes{}, lat_sum{};
  std::array<uint64_t, kDirections> ramp_ios{}, ramp_bytes{};

  // Stamps every I/O staged since the last submit with one clock read, taken after their buffers
  // are ready: their latency starts here, immediately before the submit that carries them.
  auto stamp_staged = [&] {
    if (staged == 0) return;
    const uint64_t ts = clock.now_ns();
    for (uint32_t k = 0; k < staged; ++k) {
      const uint32_t s = staged_slots[k];
      slots[s].submit_ns = ts;
      if (watch) watch[s].submit_ns.store(ts, std::memory_order_relaxed);
    }
    staged = 0;
  };

  uint64_t t = clock.now_ns();
  if constexpr (V::enabled) verifier.set_start_ns(tl.start_ns);
  for (;;) {
    if (!measuring && t >= tl.ramp_end_ns) {
      measuring = true;
      usr0 = thread_cpu_s(true), sys0 = thread_cpu_s(false);
    }
    bool may_issue = t < tl.end_ns && !failed && !stop.load(std::memory_order_relaxed) && (limit_ios == 0 || issued < limit_ios);
    uint32_t want = may_issue ? free_count : 0;
    if (want && limit_ios) want = static_cast<uint32_t>(std::min<uint64_t>(want, limit_ios - issued));
    // Tokens per direction (fio's rate_iops=R,W), from the start of the job.
    std::array<uint64_t, kDirections> allowed{UINT64_MAX, UINT64_MAX};
    if (rated)
      for (size_t d = 0; d < kDirections; ++d)
        if (plan.rate_iops[d]) allowed[d] = rate_tokens(t - tl.start_ns, plan.rate_iops[d]);
    bool rate_held = false;
    for (uint32_t i = 0; i < want; ++i) {
      Direction d = mixed ? (rng.below(100) < plan.read_pct ? Direction::read : Direction::write) : fixed_dir;
      if (rated && issued_dir[static_cast<size_t>(d)] >= allowed[static_cast<size_t>(d)]) {
        // fio's rate_ddir(): a direction ahead of its rate yields to the other one when that is
        // behind its own; when both are ahead, the job waits for the first token due.
        const Direction o = d == Direction::read ? Direction::write : Direction::read;
        if (!mixed || issued_dir[static_cast<size_t>(o)] >= allowed[static_cast<size_t>(o)]) {
          rate_held = true;
          want = i;
          break;
        }
        d = o;
      }
      uint32_t s = free_slots[--free_count];
      uint64_t block;
      if (mapped) {
        block = map.next();
      } else if (random) {
        block = rng.below(plan.region_blocks);
      } else {
        block = seq_block;
        if (++seq_block == plan.region_blocks) seq_block = 0;
      }
      uint64_t off = plan.region_offset_bytes + block * plan.bs_bytes;
      if constexpr (V::enabled) {
        // Never two I/Os in flight to one block: a read racing a write would be a false alarm.
        if (d == Direction::read) off = verifier.read_offset(off);
        bool claimed = verifier.claim(s, off);
        for (int retry = 0; !claimed && random && retry < 16; ++retry) {
          off = plan.region_offset_bytes + rng.below(plan.region_blocks) * plan.bs_bytes;
          claimed = verifier.claim(s, off);
        }
        if (!claimed) {
          if (!random) seq_block = seq_block == 0 ? plan.region_blocks - 1 : seq_block - 1;  // issue it next time
          free_slots[free_count++] = s;
          want = i;
          break;
        }
        if (d == Direction::write) verifier.prepare_write(s, backend.buffer(s));
      }
      if constexpr (fills_writes)
        if (d == Direction::write) data->fill(backend.buffer(s));
      ++issued_dir[static_cast<size_t>(d)];
      slots[s].offset = off;
      slots[s].dir = d;
      if (watch) watch[s].offset_and_dir.store(off | (d == Direction::write ? 1u : 0u), std::memory_order_relaxed);
      backend.stage(s, d, off, plan.bs_bytes);
      staged_slots[staged++] = s;
      // Backends with a separate submit (io_uring) hand every batch_submit staged I/Os to the device
      // at once (fio's iodepth_batch_submit: `diskvet io` defaults to fio's 1, the suites to 0), so
      // the device is fed while the rest of the reaped slots are refilled, at a system call each.
      // Whether that pays depends on the device: on the lab's loop device at QD32, 1 led in the
      // first measurement and one submit per reap batch (0) in every one since (docs/benchmarks.md,
      // the -batch cases). The refill's last batch goes with the wait's own enter, which submits
      // before it waits: the same moment for the device, one system call fewer per reap than
      // fio's submit-then-wait.
      if constexpr (requires { backend.submit(); }) {
        if (plan.batch_submit && staged == plan.batch_submit && i + 1 < want) {
          stamp_staged();
          backend.submit();
        }
      }
    }
    issued += want;
    inflight += want;
    if (inflight == 0) {
      if (!may_issue) break;
      if (rate_held) {
        // Rate-capped and idle: sleep until the first direction's next token is due, looking at the
        // stop flag at least every 10 ms (a low rate must not keep an interrupted run waiting).
        uint64_t next = tl.end_ns;
        for (size_t d = 0; d < kDirections; ++d)
          if (plan.rate_iops[d] && (mixed || d == static_cast<size_t>(fixed_dir)))
            next = std::min(next, tl.start_ns + rate_due_ns(issued_dir[d], plan.rate_iops[d]));
        clock.sleep_until_ns(std::min(next, t + kIdlePollNs));
      }
      t = clock.now_ns();
      continue;
    }
    stamp_staged();
    int rc = backend.submit_and_wait(1);
    if (live.abandon.load(std::memory_order_relaxed)) [[unlikely]] {
      // Past the hard deadline: leave with I/Os out; whatever completes later is never looked at.
      out.abandoned = true;
      break;
    }
    if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) [[unlikely]] {
      ++out.errors;
      if (out.first_errors.size() < kMaxRecordedErrors) out.first_errors.push_back({fixed_dir, 0, -rc, rc});
      break;  // the ring itself failed: nothing more will complete
    }
    t = clock.now_ns();
    const bool count = t >= tl.ramp_end_ns && t < tl.end_ns;
    backend.reap([&](Completion c) {
      const Slot& sl = slots[c.slot];
      free_slots[free_count++] = c.slot;
      --inflight;
      if (watch) watch[c.slot].submit_ns.store(0, std::memory_order_relaxed);
      if (t - sl.submit_ns > plan.io_timeout_ns) [[unlikely]] {
        ++out.stall_count;
        if (out.stalls.size() < kMaxJobStallRecords)
          out.stalls.push_back({sl.dir, sl.offset, static_cast<double>(sl.submit_ns - tl.start_ns) / 1e9,
                                static_cast<double>(t - sl.submit_ns) / 1e9, true});
      }
      if constexpr (V::enabled)
        verifier.complete(c.slot, sl.dir, c.res == static_cast<int32_t>(plan.bs_bytes), backend.buffer(c.slot), t, t - sl.submit_ns);
      if (c.res != static_cast<int32_t>(plan.bs_bytes)) [[unlikely]] {
        ++out.errors;
        failed = true;  // like fio's default: stop this job at the first error
        if (out.first_errors.size() < kMaxRecordedErrors)
          out.first_errors.push_back({sl.dir, sl.offset, c.res < 0 ? -c.res : 0, c.res});
        return;
      }
      const size_t d = static_cast<size_t>(sl.dir);
      if (!count) {
        if (t < tl.ramp_end_ns) ++ramp_ios[d], ramp_bytes[d] += plan.bs_bytes;
        return;
      }
      uint64_t lat = t - sl.submit_ns;
      out.dir[d].lat.record(lat);
      ++ios[d];
      bytes[d] += plan.bs_bytes;
      lat_sum[d] += lat;
    });
    if (count) {
      for (size_t d = 0; d < kDirections; ++d) {
        live.ios[d].store(ios[d], std::memory_order_relaxed);
        live.bytes[d].store(bytes[d], std::memory_order_relaxed);
        live.lat_sum_ns[d].store(lat_sum[d], std::memory_order_relaxed);
      }
    } else if (t < tl.ramp_end_ns) {
      for (size_t d = 0; d < kDirections; ++d) {
        live.ramp_ios[d].store(ramp_ios[d], std::memory_order_relaxed);
        live.ramp_bytes[d].store(ramp_bytes[d], std::memory_order_relaxed);
      }
    }
  }
  out.finish_ns = t;
  out.cpu = sched_getcpu();
  if (measuring) {
    out.usr_cpu_s = thread_cpu_s(true) - usr0;
    out.sys_cpu_s = thread_cpu_s(false) - sys0;
  }
  for (size_t d = 0; d < kDirections; ++d) {
    out.dir[d].ios = ios[d];
    out.dir[d].bytes = bytes[d];
  }
  out.issued = issued;
  out.write_bytes_issued = issued_dir[static_cast<size_t>(Direction::write)] * plan.bs_bytes;
  out.syscalls = backend.syscalls();
  out.io_limit_reached = limit_ios && issued >= limit_ios;
  if constexpr (V::enabled)
    if (!out.abandoned) out.verify = verifier.summary();
  live.done.store(true, std::memory_order_release);
}

template <IoBackend B>
void run_job(B& backend, const JobPlan& plan, const Timeline& tl, const std::atomic<bool>& stop, LiveCounters& live,
             JobResult& out) {
  NoVerify plain;
  run_job(backend, plan, tl, stop, live, out, plain);
}

}  // namespace diskvet::runner
