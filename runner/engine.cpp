// Engine: job threads, the shared timeline, the interval sampler, and the merge of job results.
#include "runner/engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <latch>
#include <optional>
#include <thread>

#include "runner/backend_null.hpp"
#include "runner/backend_psync.hpp"
#include "runner/backend_uring.hpp"
#include "runner/interval_latency.hpp"

namespace diskvet::runner {

std::vector<JobPlan> plan_jobs(const Workload& w) {
  std::vector<JobPlan> plans;
  uint64_t blocks = w.size_bytes / w.bs_bytes;
  uint64_t share = blocks / w.numjobs;
  for (uint32_t j = 0; j < w.numjobs; ++j) {
    JobPlan p;
    p.index = j;
    p.rw = w.rw;
    p.bs_bytes = w.bs_bytes;
    p.depth = w.engine == BackendKind::psync ? 1 : w.iodepth;
    p.read_pct = w.read_pct();
    if (is_random(w.rw) && !w.verify) {
      p.region_offset_bytes = w.offset_bytes;
      p.region_blocks = blocks;
    } else {
      p.region_offset_bytes = w.offset_bytes + j * share * w.bs_bytes;
      p.region_blocks = share;
    }
    p.rate_iops = w.rate_iops;
    p.batch_submit = std::min(w.iodepth_batch_submit, p.depth);  // 0: with each wait
    p.io_limit_bytes = w.io_limit_bytes ? (w.io_limit_bytes + w.numjobs - 1) / w.numjobs : 0;
    p.seed = w.seed * 0x9e3779b97f4a7c15 + j + 1;
    plans.push_back(p);
  }
  return plans;
}

namespace {

struct JobSlot {
  JobPlan plan;
  LiveCounters live;
  JobResult result;
  IntervalLatencyReader interval_lat;  // the sampler's: the job's histogram buckets seen last
  std::optional<Error> setup_error;
  unsigned uring_flags = 0;
};

template <IoBackend B>
void run_started(B& backend, JobSlot& slot, const Timeline& tl, const std::atomic<uint64_t>& go, const std::atomic<bool>& stop,
                 VerifyState* verify) {
  // The verifier's buffers exist before the start line, so nothing is allocated once I/O runs.
  // Only backends that move data into buffers (not the null one) can verify.
  constexpr bool can_verify = requires { backend.buffer(0u); };
  std::optional<BlockVerifier> verifier;
  if (can_verify && verify) verifier.emplace(*verify, slot.plan.depth, 0);
  while (go.load(std::memory_order_acquire) == 0) std::this_thread::yield();
  SystemClock().sleep_until_ns(tl.start_ns);
  if constexpr (can_verify) {
    if (verifier) return run_job(backend, slot.plan, tl, stop, slot.live, slot.result, *verifier);
  }
  run_job(backend, slot.plan, tl, stop, slot.live, slot.result);
}

// Body of one job thread: set up its backend, report ready, wait for the common start, run.
void job_thread(JobSlot& slot, const Workload& w, const Target& target, const Timeline& tl, std::latch& ready,
                const std::atomic<uint64_t>& go, const std::atomic<bool>& stop, VerifyState* verify) {
  auto fail = [&](Error e) {
    slot.setup_error = std::move(e);
    slot.live.done.store(true, std::memory_order_release);
    ready.count_down();
  };
  // Placement before anything is allocated, so the ring and buffers live near the job's CPU.
  const CpuSet placement = w.cpus.for_job(slot.plan.index, w.cpus_policy);
  if (int rc = pin_current_thread(placement); rc < 0)
    return fail(system_error("--cpus-allowed", fmt::format("cannot place job {} on CPUs {}", slot.plan.index, placement.to_string()),
                             -rc, "choose CPUs this process may use (taskset -p $$ shows them)"));
  if (w.engine == BackendKind::null) {
    NullBackend backend(slot.plan.depth);
    ready.count_down();
    run_started(backend, slot, tl, go, stop, nullptr);
    return;
  }
  auto fd = target.reopen();
  if (!fd) return fail(fd.error());
  if (w.engine == BackendKind::psync) {
    auto backend = PsyncBackend::create(fd->get(), slot.plan.depth, w.bs_bytes, slot.plan.seed);
    if (!backend) return fail(backend.error());
    ready.count_down();
    run_started(*backend, slot, tl, go, stop, verify);
    return;
  }
  auto backend = UringBackend::create(fd->get(), slot.plan.depth, w.bs_bytes, slot.plan.seed, uint64_t{w.spin_us} * 1000);
  if (!backend) return fail(backend.error());
  slot.uring_flags = backend->setup_flags();
  ready.count_down();
  run_started(*backend, slot, tl, go, stop, verify);
}

// Totals of what all jobs have published so far.
IntervalSample snapshot(const std::vector<std::unique_ptr<JobSlot>>& jobs) {
  IntervalSample s;
  for (const auto& j : jobs)
    for (size_t d = 0; d < kDirections; ++d) {
      s.ios[d] += j->live.ios[d].load(std::memory_order_relaxed);
      s.bytes[d] += j->live.bytes[d].load(std::memory_order_relaxed);
      s.lat_sum_ns[d] += j->live.lat_sum_ns[d].load(std::memory_order_relaxed);
    }
  return s;
}

IntervalSample difference(const IntervalSample& now, const IntervalSample& before, double t_s, double dur_s) {
  IntervalSample s;
  s.t_s = t_s;
  s.dur_s = dur_s;
  for (size_t d = 0; d < kDirections; ++d) {
    s.ios[d] = now.ios[d] - before.ios[d];
    s.bytes[d] = now.bytes[d] - before.bytes[d];
    s.lat_sum_ns[d] = now.lat_sum_ns[d] - before.lat_sum_ns[d];
  }
  return s;
}

// What every job's histograms gained since the previous call (read while the jobs record).
IntervalLatencyTotals interval_latency(std::vector<std::unique_ptr<JobSlot>>& jobs) {
  IntervalLatencyTotals totals;
  for (auto& j : jobs) j->interval_lat.take(j->result.dir, totals);
  return totals;
}

bool all_done(const std::vector<std::unique_ptr<JobSlot>>& jobs) {
  for (const auto& j : jobs)
    if (!j->live.done.load(std::memory_order_acquire)) return false;
  return true;
}

}  // namespace

Result<Measurement> run_workload(const Workload& asked, const Target& target, RunControl control) {
  static const std::atomic<bool> never{false};
  Workload w = asked;
  // On a single CPU a spinning job would keep the completion path (a kernel worker, an interrupt
  // thread) off the CPU it needs: there the job sleeps, and the measurement's options say so.
  if (w.spin_us && (w.cpus.empty() ? CpuSet::allowed_now() : w.cpus).cpus.size() < 2) w.spin_us = 0;
  const std::atomic<bool>& caller_stop = control.stop ? *control.stop : never;
  if (writes(w.rw) && !target.writable() && w.engine != BackendKind::null)
    return safety_error(target.info().path, "opened read-only, cannot run a write workload");
  VerifyState* verify = w.verify ? control.verify : nullptr;
  if (w.verify) {
    if (!verify) return input_error("verify", "a verifying workload needs the device's verification state", "run it from a suite (diskvet run)");
    if (w.engine == BackendKind::null) return input_error("engine", "the null engine moves no data and cannot verify", "use io_uring or psync");
    if (verify->bs_bytes() != w.bs_bytes || w.offset_bytes < verify->base_offset_bytes() ||
        w.offset_bytes + w.size_bytes > verify->offset_of(verify->blocks()))
      return input_error("bs", "every verifying workload of a device must use the same block size and region", "give the verifying workloads one bs");
  }

  std::vector<std::unique_ptr<JobSlot>> jobs;
  for (const auto& p : plan_jobs(w)) {
    jobs.push_back(std::make_unique<JobSlot>());
    jobs.back()->plan = p;
  }
  // The jobs stop when the caller says so or when setup fails; one flag they all poll.
  std::atomic<bool> stop{false};
  Timeline tl;
  std::atomic<uint64_t> go{0};
  std::latch ready(static_cast<std::ptrdiff_t>(jobs.size()));
  std::vector<std::thread> threads;
  threads.reserve(jobs.size());
  for (auto& j : jobs) threads.emplace_back(job_thread, std::ref(*j), std::cref(w), std::cref(target), std::cref(tl), std::ref(ready), std::cref(go), std::cref(stop), verify);
  ready.wait();

  std::optional<Error> setup_error;
  for (auto& j : jobs)
    if (j->setup_error && !setup_error) setup_error = j->setup_error;
  tl.start_ns = now_ns() + 1'000'000;  // 1 ms for every job to reach the start line
  tl.ramp_end_ns = tl.start_ns + static_cast<uint64_t>(w.ramp_s * 1e9);
  tl.end_ns = tl.ramp_end_ns + static_cast<uint64_t>(w.runtime_s * 1e9);
  if (setup_error) stop.store(true);
  go.store(1, std::memory_order_release);

  // Sampler: one interval sample per interval_s of the measured window.
  Measurement m;
  m.workload = w;
  SystemClock clock;
  const uint64_t interval_ns = static_cast<uint64_t>(w.interval_s * 1e9);
  IntervalSample prev{};
  uint64_t prev_t = tl.ramp_end_ns;
  uint64_t next_t = tl.ramp_end_ns + interval_ns;
  bool interrupted = false;
  auto progress = [&](uint64_t t, const IntervalSample& totals) {
    if (w.io_limit_bytes) return std::min(1.0, static_cast<double>(totals.bytes[0] + totals.bytes[1]) / static_cast<double>(w.io_limit_bytes));
    return std::min(1.0, static_cast<double>(t - tl.start_ns) / static_cast<double>(tl.end_ns - tl.start_ns));
  };
  while (!all_done(jobs)) {
    // Wake at the next interval boundary, but look at the stop flag every 50 ms.
    uint64_t wake = std::min<uint64_t>({next_t, tl.end_ns, now_ns() + 50'000'000});
    clock.sleep_until_ns(wake);
    if (caller_stop.load(std::memory_order_relaxed) && !stop.load()) {
      stop.store(true);
      interrupted = true;
    }
    uint64_t t = now_ns();
    if (t > tl.ramp_end_ns && t <= tl.end_ns) {
      // Little's law from what the device holds, not from IOPS x latency alone.
      uint64_t held = 0;
      for (const auto& j : jobs) held += j->live.inflight.load(std::memory_order_relaxed);
      m.inflight_sum += static_cast<double>(held);
      ++m.inflight_samples;
    }
    if (t >= next_t && t <= tl.end_ns + interval_ns / 2 && t > tl.ramp_end_ns) {
      IntervalSample totals = snapshot(jobs);
      IntervalSample s = difference(totals, prev, static_cast<double>(prev_t - tl.ramp_end_ns) / 1e9, static_cast<double>(t - prev_t) / 1e9);
      interval_latency(jobs).fill(s);
      m.intervals.push(s);
      if (control.observer) control.observer->on_interval(s, progress(t, totals));
      prev = totals;
      prev_t = t;
      next_t += interval_ns;
      while (next_t <= t) next_t += interval_ns;
    }
  }
  for (auto& t : threads) t.join();
  if (setup_error) return *setup_error;

  // The final, usually partial, interval up to the end of the window.
  uint64_t last_finish = tl.ramp_end_ns;
  bool limited = true;
  for (const auto& j : jobs) {
    last_finish = std::max(last_finish, j->result.finish_ns);
    limited = limited && j->result.io_limit_reached;
  }
  uint64_t window_end = std::min(tl.end_ns, last_finish);
  IntervalSample totals = snapshot(jobs);
  IntervalLatencyTotals last_lat = interval_latency(jobs);
  if ((window_end > prev_t && (totals.ios[0] + totals.ios[1]) > (prev.ios[0] + prev.ios[1])) || last_lat.count()) {
    IntervalSample s = difference(totals, prev, static_cast<double>(prev_t - tl.ramp_end_ns) / 1e9,
                                  window_end > prev_t ? static_cast<double>(window_end - prev_t) / 1e9 : 0);
    last_lat.fill(s);
    m.intervals.push(s);
    if (control.observer) control.observer->on_interval(s, 1.0);
  }

  for (const auto& j : jobs) {
    const JobResult& r = j->result;
    for (size_t d = 0; d < kDirections; ++d) m.dir[d].merge(r.dir[d]);
    m.usr_cpu_s += r.usr_cpu_s;
    m.sys_cpu_s += r.sys_cpu_s;
    m.syscalls += r.syscalls;
    m.ios_issued += r.issued;
    m.io_errors += r.errors;
    for (const auto& e : r.first_errors)
      if (m.first_errors.size() < 8) m.first_errors.push_back(e);
    m.uring_setup_flags = j->uring_flags;
    m.job_cpus.push_back(r.cpu);
    m.verify.merge(r.verify);
  }
  m.elapsed_s = window_end > tl.ramp_end_ns ? static_cast<double>(window_end - tl.ramp_end_ns) / 1e9 : 0;
  m.interrupted = interrupted;
  m.io_limit_reached = w.io_limit_bytes && limited;
  return m;
}

}  // namespace diskvet::runner
