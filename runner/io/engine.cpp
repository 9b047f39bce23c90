// Engine: job threads, the shared timeline, the interval sampler, and the merge of job results.
#include "runner/io/engine.hpp"

#include <fmt/format.h>
#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <latch>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

#include "runner/io/backend_null.hpp"
#include "runner/io/backend_psync.hpp"
#include "runner/io/backend_uring.hpp"
#include "runner/io/backend_uring_cmd.hpp"
#include "runner/io/interval_latency.hpp"
#include "runner/io/iolog.hpp"
#include "runner/io/passthrough_size.hpp"
#include "runner/io/poll_queues.hpp"
#include "runner/io/seed.hpp"

namespace diskvet::runner {

std::vector<JobPlan> plan_jobs(const Workload& w) {
  std::vector<JobPlan> plans;
  const uint64_t blocks = w.size_bytes / w.bs_bytes;
  const bool split = splits_region(w);
  for (uint32_t j = 0; j < w.numjobs; ++j) {
    JobPlan p;
    p.index = j;
    p.rw = w.rw;
    p.bs_bytes = w.bs_bytes;
    p.depth = w.engine == BackendKind::psync ? 1 : w.iodepth;
    p.read_pct = w.read_pct();
    const JobShare share = job_share(blocks, w.numjobs, j);
    if (split) {
      p.region_offset_bytes = w.offset_bytes + share.first_block * w.bs_bytes;
      p.region_blocks = share.blocks;
    } else {
      p.region_offset_bytes = w.offset_bytes;
      p.region_blocks = blocks;
    }
    p.rate_iops = w.rate_iops;
    p.data = w.data;
    p.batch_submit = std::min(w.iodepth_batch_submit, p.depth);  // 0: with each wait
    p.io_limit_bytes = job_limit_ios(w, j) * w.bs_bytes;
    p.seed = derive_seed(w.seed, j);
    p.random_map = w.random_map;
    p.io_timeout_ns = static_cast<uint64_t>(w.io_timeout_s * 1e9);
    plans.push_back(p);
  }
  return plans;
}

namespace {

struct JobSlot {
  JobPlan plan;
  std::unique_ptr<SlotWatch[]> watch;  // the watchdog's view of the job's slots (live.watch)
  LiveCounters live;
  JobResult result;
  IntervalLatencyReader interval_lat;  // the sampler's: the job's histogram buckets seen last
  std::optional<Error> setup_error;
  unsigned uring_flags = 0;
  std::unique_ptr<JobIoLog> iolog;  // set when the caller asked for an iolog (RunControl::iolog)
};

template <IoBackend B>
void run_started(B& backend, JobSlot& slot, const Timeline& tl, const std::atomic<uint64_t>& go, const std::atomic<bool>& stop,
                 VerifyState* verify) {
  // The verifier's buffers exist before the start line, so nothing is allocated once I/O runs.
  // Only backends that move data into buffers (not the null one) can verify.
  constexpr bool can_verify = requires { backend.buffer(0u); };
  std::unique_ptr<BlockVerifier> verifier;
  if (can_verify && verify) verifier = std::make_unique<BlockVerifier>(*verify, slot.plan.depth, 0);
  while (go.load(std::memory_order_acquire) == 0) std::this_thread::yield();
  SystemClock().sleep_until_ns(tl.start_ns);
  if constexpr (can_verify) {
    if (verifier) {
      run_job(backend, slot.plan, tl, stop, slot.live, slot.result, *verifier);
      // An abandoned job may wake long after the device's run ended and its verification state
      // is gone: the verifier (whose destructor reads that state) is left alone.
      if (slot.result.abandoned) static_cast<void>(verifier.release());
      return;
    }
  }
  run_job(backend, slot.plan, tl, stop, slot.live, slot.result);
}

// Runs the job on its backend, through a LoggingBackend when the job keeps an iolog (a separate
// instantiation: the job loop without one is untouched).
template <IoBackend B>
void run_maybe_logged(B& backend, JobSlot& slot, const Timeline& tl, const std::atomic<uint64_t>& go, const std::atomic<bool>& stop,
                      VerifyState* verify) {
  if (!slot.iolog) return run_started(backend, slot, tl, go, stop, verify);
  LoggingBackend<B> logged(backend, *slot.iolog);
  run_started(logged, slot, tl, go, stop, verify);
}

// A job abandoned with I/Os out leaves its backend behind: the kernel may still write into its
// buffers, so they are never freed or reused (a deliberate leak, once per abandoned job).
template <typename B>
void leave_behind_if_abandoned(std::unique_ptr<B>& backend, const JobSlot& slot) {
  if (slot.result.abandoned) static_cast<void>(backend.release());
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
    NullBackend backend(slot.plan.depth, slot.plan.read_pct == 100 ? 0 : slot.plan.bs_bytes, slot.plan.seed);
    ready.count_down();
    run_maybe_logged(backend, slot, tl, go, stop, nullptr);
    return;
  }
  // Runs the job on a backend made on the job's own descriptor; a job abandoned with I/Os out leaves
  // both behind (the kernel may still use them).
  auto run_on = [&](auto created, std::unique_ptr<Result<UniqueFd>> fd) {
    using B = std::remove_reference_t<decltype(*created)>;
    if (!created) return fail(created.error());
    auto backend = std::make_unique<B>(std::move(*created));
    if constexpr (requires { backend->setup_flags(); }) slot.uring_flags = backend->setup_flags();
    ready.count_down();
    run_maybe_logged(*backend, slot, tl, go, stop, verify);
    leave_behind_if_abandoned(backend, slot);
    if (slot.result.abandoned) static_cast<void>(fd.release());
  };
  const bool passthrough = w.engine == BackendKind::io_uring_cmd;
  auto fd = std::make_unique<Result<UniqueFd>>(passthrough ? target.reopen_passthrough() : target.reopen());
  if (!*fd) return fail(fd->error());
  const int job_fd = (*fd)->get();
  if (w.engine == BackendKind::psync) return run_on(PsyncBackend::create(job_fd, slot.plan.depth, w.bs_bytes, slot.plan.seed), std::move(fd));
  if (passthrough)
    return run_on(
        UringCmdBackend::create(job_fd, slot.plan.depth, w.bs_bytes, slot.plan.seed, target.info().logical_block_size, target.info().nsid, w.hipri),
        std::move(fd));
  run_on(UringBackend::create(job_fd, slot.plan.depth, w.bs_bytes, slot.plan.seed, uint64_t{w.spin_us} * 1000, w.hipri), std::move(fd));
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

// Totals of what all jobs completed during the ramp so far.
IntervalSample ramp_snapshot(const std::vector<std::unique_ptr<JobSlot>>& jobs) {
  IntervalSample s;
  for (const auto& j : jobs)
    for (size_t d = 0; d < kDirections; ++d) {
      s.ios[d] += j->live.ramp_ios[d].load(std::memory_order_relaxed);
      s.bytes[d] += j->live.ramp_bytes[d].load(std::memory_order_relaxed);
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

Status check_passthrough(const Workload& w, const Target& target) {
  const TargetInfo& t = target.info();
  if (t.passthrough_path.empty())
    return usage_error(t.path, "has no NVMe generic char device attached for --engine io_uring_cmd", "use --engine io_uring");
  if (auto fits = check_passthrough_size(w.bs_bytes, t); !fits) return fits;
  auto fd = target.reopen_passthrough();
  if (!fd) return fd.error();
  const auto timeout_ns = static_cast<uint64_t>(w.io_timeout_s * 1e9);
  if (auto plain = probe_passthrough(fd->get(), t.passthrough_path, t.logical_block_size, t.nsid, timeout_ns, false); !plain || !w.hipri)
    return plain;
  return probe_passthrough(fd->get(), t.passthrough_path, t.logical_block_size, t.nsid, timeout_ns, true);
}

namespace {

// What one run's job threads share once started (see run_workload).
struct EngineRun {
  explicit EngineRun(const Workload& wl) : w(wl) {}
  Workload w;
  std::vector<std::unique_ptr<JobSlot>> jobs;
  Timeline tl;
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> go{0};
  std::optional<std::latch> ready;
};

// The signal that wakes an abandoned job out of io_uring_enter (which then returns EINTR): SIGURG,
// ignored by default and used by nothing else in diskvet, given a handler that does nothing and no
// SA_RESTART. Installed once per process.
extern "C" void on_wake_signal(int) {}
void install_wake_signal() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_handler = on_wake_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGURG, &sa, nullptr);
  });
}

// One slot's I/O as the watchdog reads it; false when the slot is free or was refilled meanwhile.
bool read_slot(const SlotWatch& s, uint64_t& submit_ns, uint64_t& offset_and_dir) {
  submit_ns = s.submit_ns.load(std::memory_order_relaxed);
  if (submit_ns == 0) return false;
  offset_and_dir = s.offset_and_dir.load(std::memory_order_relaxed);
  return s.submit_ns.load(std::memory_order_relaxed) == submit_ns;
}

// The I/Os the jobs have out now, read from the watchdog's slot stamps: how many (Little's law
// from what the device holds) and how long the oldest has been out (0: none), counted from
// `aged_from` for one submitted before it (the end of a pause of diskvet's own: see kSamplerPauseNs).
struct OutNow {
  uint64_t count = 0;
  uint64_t oldest_ns = 0;
};
OutNow out_now(const std::vector<std::unique_ptr<JobSlot>>& jobs, uint64_t now, uint64_t aged_from) {
  OutNow o;
  for (const auto& j : jobs)
    for (uint32_t i = 0; i < j->plan.depth; ++i) {
      uint64_t submit = j->watch[i].submit_ns.load(std::memory_order_relaxed);
      if (!submit) continue;
      ++o.count;
      const uint64_t from = std::max(submit, aged_from);
      if (now > from) o.oldest_ns = std::max(o.oldest_ns, now - from);
    }
  return o;
}

// The I/Os out longer than timeout_ns now (aged as out_now does), oldest first, as stalls that have
// not completed; each with the whole time it has been out.
std::vector<Stall> overdue(const std::vector<std::unique_ptr<JobSlot>>& jobs, uint64_t now, uint64_t aged_from, uint64_t timeout_ns,
                           uint64_t start_ns) {
  std::vector<Stall> out;
  for (const auto& j : jobs)
    for (uint32_t i = 0; i < j->plan.depth; ++i) {
      uint64_t submit = 0, where = 0;
      if (!read_slot(j->watch[i], submit, where) || now <= std::max(submit, aged_from) || now - std::max(submit, aged_from) <= timeout_ns) continue;
      out.push_back({(where & 1) ? Direction::write : Direction::read, where & ~uint64_t{1},
                     submit > start_ns ? static_cast<double>(submit - start_ns) / 1e9 : 0, static_cast<double>(now - submit) / 1e9, false});
    }
  std::ranges::sort(out, {}, &Stall::submit_s);
  if (out.size() > kMaxRecordedStalls) out.resize(kMaxRecordedStalls);
  return out;
}

}  // namespace

Result<Measurement> run_workload(const Workload& asked, const Target& target, RunControl control) {
  static const std::atomic<bool> never{false};
  Workload w = asked;
  // On a single CPU a spinning job would keep the completion path (a kernel worker, an interrupt
  // thread) off the CPU it needs: there the job sleeps, and the measurement's options say so.
  if (w.spin_us && (w.cpus.empty() ? CpuSet::allowed_now() : w.cpus).cpus.size() < 2) w.spin_us = 0;
  const std::atomic<bool>& caller_stop = control.stop ? *control.stop : never;
  const std::atomic<bool>& interrupt = control.interrupt ? *control.interrupt : never;
  if (writes(w.rw) && !target.writable() && w.engine != BackendKind::null)
    return safety_error(target.info().path, "opened read-only, cannot run a write workload");
  // Polled completions only where the device's queue polls, refused before any I/O: elsewhere
  // every polled I/O fails (EOPNOTSUPP on recent kernels) or completes by interrupt (older ones).
  if (w.hipri)
    if (auto polls = check_poll_queues(target.info()); !polls) return polls.error();
  if (w.engine == BackendKind::io_uring_cmd)
    if (auto ok = check_passthrough(w, target); !ok) return ok.error();
  VerifyState* verify = w.verify ? control.verify : nullptr;
  if (w.verify) {
    if (!verify) return input_error("verify", "a verifying workload needs the device's verification state", "run it from a suite (diskvet run)");
    if (w.engine == BackendKind::null) return input_error("engine", "the null engine moves no data and cannot verify", "use io_uring or psync");
    if (verify->bs_bytes() != w.bs_bytes || w.offset_bytes < verify->base_offset_bytes() ||
        w.offset_bytes + w.size_bytes > verify->offset_of(verify->blocks()))
      return input_error("bs", "every verifying workload of a device must use the same block size and region", "give the verifying workloads one bs");
  }

  // Everything a started job thread touches lives here, shared with the threads: a thread left
  // behind on a hung device (the watchdog below) finds it intact whenever it wakes.
  auto run = std::make_shared<EngineRun>(w);
  std::vector<std::unique_ptr<JobSlot>>& jobs = run->jobs;
  for (const auto& p : plan_jobs(w)) {
    jobs.push_back(std::make_unique<JobSlot>());
    jobs.back()->plan = p;
    jobs.back()->watch = std::make_unique<SlotWatch[]>(p.depth);
    jobs.back()->live.watch = jobs.back()->watch.get();
    if (control.iolog) jobs.back()->iolog = std::make_unique<JobIoLog>();
  }
  install_wake_signal();
  // The jobs stop when the caller says so or when setup fails; one flag they all poll.
  std::atomic<bool>& stop = run->stop;
  Timeline& tl = run->tl;
  std::atomic<uint64_t>& go = run->go;
  run->ready.emplace(static_cast<std::ptrdiff_t>(jobs.size()));
  std::vector<std::thread> threads;
  threads.reserve(jobs.size());
  try {
    for (auto& j : jobs)
      threads.emplace_back([run, slot = j.get(), &target, verify] { job_thread(*slot, run->w, target, run->tl, *run->ready, run->go, run->stop, verify); });
  } catch (const std::system_error& e) {
    // The host refused a thread (RLIMIT_NPROC, a cgroup's pids.max): the jobs already started are
    // told to stop before their first I/O, released and joined; the run ends with the reason.
    stop.store(true);
    go.store(1, std::memory_order_release);
    for (auto& t : threads) t.join();
    return runtime_error(target.info().path, fmt::format("cannot start job thread {} of {}: {}", threads.size() + 1, jobs.size(), e.what()),
                         "raise the limit on processes (ulimit -u, the cgroup's pids.max) or run fewer jobs");
  }
  run->ready->wait();

  std::optional<Error> setup_error;
  for (auto& j : jobs)
    if (j->setup_error && !setup_error) setup_error = j->setup_error;
  tl.start_ns = now_ns() + 1'000'000;  // 1 ms for every job to reach the start line
  tl.ramp_end_ns = tl.start_ns + static_cast<uint64_t>(w.ramp_s * 1e9);
  tl.end_ns = tl.ramp_end_ns + static_cast<uint64_t>(w.runtime_s * 1e9);
  if (setup_error) stop.store(true);
  go.store(1, std::memory_order_release);

  // Sampler and watchdog: one interval sample per interval_s of the measured window.
  Measurement m;
  m.workload = w;
  SystemClock system_clock;
  Clock& clock = control.sampler_clock ? *control.sampler_clock : system_clock;
  const uint64_t interval_ns = static_cast<uint64_t>(w.interval_s * 1e9);
  IntervalSample prev{};
  uint64_t prev_t = tl.ramp_end_ns;
  uint64_t next_t = tl.ramp_end_ns + interval_ns;
  bool interrupted = false;
  auto progress = [&](uint64_t t, const IntervalSample& totals) {
    if (w.io_limit_bytes) return std::min(1.0, static_cast<double>(totals.bytes[0] + totals.bytes[1]) / static_cast<double>(w.io_limit_bytes));
    return std::min(1.0, static_cast<double>(t - tl.start_ns) / static_cast<double>(tl.end_ns - tl.start_ns));
  };
  // The ramp's series, bucket by bucket; the last bucket ends at the ramp's end and is read a poll
  // later, once every job has published what it reaped before then.
  const bool keep_ramp = w.ramp_s >= kRampSeriesMinS;
  const uint64_t ramp_bucket_ns = keep_ramp ? static_cast<uint64_t>(ramp_bucket_s(w.ramp_s, w.interval_s) * 1e9) : 0;
  m.ramp_bucket_s = keep_ramp ? ramp_bucket_s(w.ramp_s, w.interval_s) : 0;
  IntervalSample ramp_prev{};
  uint64_t ramp_prev_t = tl.start_ns;
  uint64_t ramp_next_t = keep_ramp ? std::min(tl.start_ns + ramp_bucket_ns, tl.ramp_end_ns) : UINT64_MAX;
  auto ramp_sample = [&](uint64_t t) {
    const uint64_t end = std::min(t, tl.ramp_end_ns);
    if (end <= ramp_prev_t) return;
    IntervalSample now = ramp_snapshot(jobs);
    m.ramp_intervals.push_back(difference(now, ramp_prev, static_cast<double>(ramp_prev_t - tl.start_ns) / 1e9,
                                          static_cast<double>(end - ramp_prev_t) / 1e9));
    ramp_prev = now;
    ramp_prev_t = end;
  };
  const uint64_t timeout_ns = static_cast<uint64_t>(w.io_timeout_s * 1e9);
  const uint64_t deadline_ns = timeout_ns + static_cast<uint64_t>(w.io_grace_s * 1e9);
  uint64_t abandoned_at = 0;
  uint64_t last_look = clock.now_ns();
  uint64_t paused_until = 0;  // the end of diskvet's latest pause: I/Os out across it are aged from here
  while (!all_done(jobs)) {
    // Wake at the next interval boundary, but look at the stop flags and the in-flight I/Os every
    // kEnginePollNs; once stopping, far more often, so the run ends as soon as the jobs have left.
    const uint64_t before = clock.now_ns();
    uint64_t soon = before + (stop.load(std::memory_order_relaxed) ? kEnginePollNs / 10 : kEnginePollNs);
    // Past the window's last sample (a sampler that was late for it) the next boundary is stale: a
    // wake at it would not sleep at all, and the sampler would spin until the jobs have drained.
    const bool sampled_all = before > tl.end_ns + interval_ns / 2;
    uint64_t wake = std::min<uint64_t>({sampled_all ? soon : next_t, tl.end_ns > before ? tl.end_ns : soon, soon,
                                        ramp_next_t == tl.ramp_end_ns ? ramp_next_t + kEnginePollNs / 4 : ramp_next_t});
    clock.sleep_until_ns(wake);
    if ((caller_stop.load(std::memory_order_relaxed) || interrupt.load(std::memory_order_relaxed)) && !stop.load()) {
      stop.store(true);
      interrupted = true;
    }
    uint64_t t = clock.now_ns();
    // Late for a time that had not passed when it went to sleep: late by what it slept through.
    if (const uint64_t due = std::max(wake, before); t > due && t - due >= kSamplerPauseNs && !abandoned_at) {
      // diskvet itself was not running (stopped, its VM paused, starved): nothing seen on this look
      // is the device's doing. The pause is recorded from the last look, and the I/Os out across it
      // get a whole deadline from its end before the watchdog judges them.
      m.pauses.push_back({last_look > tl.start_ns ? static_cast<double>(last_look - tl.start_ns) / 1e9 : 0, static_cast<double>(t - last_look) / 1e9});
      paused_until = last_look = t;
      continue;
    }
    last_look = t;
    const OutNow out = out_now(jobs, t, paused_until);
    if (abandoned_at == 0 && out.oldest_ns > deadline_ns) {
      // The watchdog's hard deadline: the I/Os past io_timeout are recorded as they stand, and every
      // job is told to leave, woken from its wait (io_uring_enter returns EINTR on the signal).
      abandoned_at = t;
      m.stalls = overdue(jobs, t, paused_until, timeout_ns, tl.start_ns);
      m.stall_count = m.stalls.size();
      m.abandoned = true;
      stop.store(true);
      for (auto& j : jobs) j->live.abandon.store(true, std::memory_order_relaxed);
    }
    if (abandoned_at) {
      // Signal until every job has left; one in an uninterruptible wait (psync's pread on a hung
      // device) is left behind after a second: it holds the shared run state, and exits when the
      // kernel finally answers.
      for (size_t i = 0; i < jobs.size(); ++i)
        if (!jobs[i]->live.done.load(std::memory_order_acquire)) pthread_kill(threads[i].native_handle(), SIGURG);
      if (t - abandoned_at > 1'000'000'000) break;
      continue;
    }
    if (t >= ramp_next_t && (ramp_next_t < tl.ramp_end_ns || t >= tl.ramp_end_ns + kEnginePollNs / 4)) {
      ramp_sample(t);
      if (ramp_prev_t >= tl.ramp_end_ns) {
        ramp_next_t = UINT64_MAX;
      } else {
        while (ramp_next_t <= t) ramp_next_t += ramp_bucket_ns;
        ramp_next_t = std::min(ramp_next_t, tl.ramp_end_ns);
      }
    }
    if (t > tl.ramp_end_ns && t <= tl.end_ns) {
      // Little's law from what the device holds, not from IOPS x latency alone.
      m.inflight_sum += static_cast<double>(out.count);
      ++m.inflight_samples;
    }
    if (t >= next_t && t <= tl.end_ns + interval_ns / 2 && t > tl.ramp_end_ns) {
      IntervalSample totals = snapshot(jobs);
      IntervalSample s = difference(totals, prev, static_cast<double>(prev_t - tl.ramp_end_ns) / 1e9, static_cast<double>(t - prev_t) / 1e9);
      const IntervalLatencyTotals lat = interval_latency(jobs);
      lat.fill(s);
      m.intervals.push(s);
      if (control.latency_observer) control.latency_observer->on_interval_latency(s, lat);
      if (control.observer) control.observer->on_interval(s, progress(t, totals));
      prev = totals;
      prev_t = t;
      next_t += interval_ns;
      while (next_t <= t) next_t += interval_ns;
    }
  }
  // Jobs that left are joined; only an abandoned run can have one still out, and it is detached.
  std::vector<bool> joined(jobs.size(), false);
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (jobs[i]->live.done.load(std::memory_order_acquire)) {
      threads[i].join();
      joined[i] = true;
    } else {
      threads[i].detach();
    }
  }
  if (setup_error) return *setup_error;
  if (control.iolog) {
    control.iolog->start_ns = tl.start_ns;
    control.iolog->bs_bytes = w.bs_bytes;
    control.iolog->jobs.clear();
    for (size_t i = 0; i < jobs.size(); ++i)
      if (joined[i]) control.iolog->jobs.push_back(std::move(*jobs[i]->iolog));  // one left behind may still write its own
  }

  // A run that ended inside its ramp (stopped, or every job done) keeps the ramp it ran.
  if (keep_ramp && ramp_next_t != UINT64_MAX && !abandoned_at) ramp_sample(clock.now_ns());
  // The final, usually partial, interval up to the end of the window.
  uint64_t last_finish = tl.ramp_end_ns;
  bool limited = true;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (!joined[i]) continue;
    const auto& j = jobs[i];
    last_finish = std::max(last_finish, j->result.finish_ns);
    limited = limited && j->result.io_limit_reached;
  }
  uint64_t window_end = std::min(tl.end_ns, last_finish);
  IntervalSample totals = snapshot(jobs);
  IntervalLatencyTotals last_lat = abandoned_at ? IntervalLatencyTotals{} : interval_latency(jobs);
  if ((window_end > prev_t && (totals.ios[0] + totals.ios[1]) > (prev.ios[0] + prev.ios[1])) || last_lat.count()) {
    IntervalSample s = difference(totals, prev, static_cast<double>(prev_t - tl.ramp_end_ns) / 1e9,
                                  window_end > prev_t ? static_cast<double>(window_end - prev_t) / 1e9 : 0);
    last_lat.fill(s);
    m.intervals.push(s);
    if (control.latency_observer) control.latency_observer->on_interval_latency(s, last_lat);
    if (control.observer) control.observer->on_interval(s, 1.0);
  }

  if (abandoned_at) window_end = std::min(window_end, abandoned_at);
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (!joined[i]) continue;  // still out on the device: its counts stay with it
    const JobResult& r = jobs[i]->result;
    if (!m.abandoned) {
      // Stalls the jobs saw complete (an abandoned run keeps the watchdog's list of those still out),
      // less those a pause of diskvet's own explains. Past the job's records the count stands.
      std::vector<Stall> seen = r.stalls;
      m.stall_count += r.stall_count - excuse_paused_stalls(seen, m.pauses, w.io_timeout_s);
      for (const auto& st : seen)
        if (m.stalls.size() < kMaxRecordedStalls) m.stalls.push_back(st);
    }
    for (size_t d = 0; d < kDirections; ++d) m.dir[d].merge(r.dir[d]);
    m.usr_cpu_s += r.usr_cpu_s;
    m.sys_cpu_s += r.sys_cpu_s;
    m.syscalls += r.syscalls;
    m.ios_issued += r.issued;
    m.write_bytes_issued += r.write_bytes_issued;
    m.io_errors += r.errors;
    for (const auto& e : r.first_errors)
      if (m.first_errors.size() < kMaxRecordedErrors) m.first_errors.push_back(e);
    m.uring_setup_flags = jobs[i]->uring_flags;
    m.job_cpus.push_back(r.cpu);
    m.verify.merge(r.verify);
  }
  m.elapsed_s = window_end > tl.ramp_end_ns ? static_cast<double>(window_end - tl.ramp_end_ns) / 1e9 : 0;
  m.interrupted = interrupted;
  m.io_limit_reached = w.io_limit_bytes && limited;
  return m;
}

}  // namespace diskvet::runner
