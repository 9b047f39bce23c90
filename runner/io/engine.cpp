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

// The checks a workload passes before any job starts; the verification state it verifies against
// (nullptr for one that does not verify).
Result<VerifyState*> check_workload(const Workload& w, const Target& target, const RunControl& control) {
  if (writes(w.rw) && !target.writable() && w.engine != BackendKind::null)
    return safety_error(target.info().path, "opened read-only, cannot run a write workload");
  // Polled completions only where the device's queue polls, refused before any I/O: elsewhere
  // every polled I/O fails (EOPNOTSUPP on recent kernels) or completes by interrupt (older ones).
  if (w.hipri)
    if (auto polls = check_poll_queues(target.info()); !polls) return polls.error();
  if (w.engine == BackendKind::io_uring_cmd)
    if (auto ok = check_passthrough(w, target); !ok) return ok.error();
  if (!w.verify) return static_cast<VerifyState*>(nullptr);
  VerifyState* verify = control.verify;
  if (!verify)
    return input_error("verify", "a verifying workload needs the device's verification state", "run it from a suite (diskvet run)");
  if (w.engine == BackendKind::null)
    return input_error("engine", "the null engine moves no data and cannot verify", "use io_uring or psync");
  if (verify->bs_bytes() != w.bs_bytes || w.offset_bytes < verify->base_offset_bytes() ||
      w.offset_bytes + w.size_bytes > verify->offset_of(verify->blocks()))
    return input_error("bs", "every verifying workload of a device must use the same block size and region",
                       "give the verifying workloads one bs");
  return verify;
}

// One slot per planned job, each with the watchdog's view of its slots and, when asked, its iolog.
void make_jobs(EngineRun& run, bool keep_iolog) {
  for (const auto& p : plan_jobs(run.w)) {
    auto slot = std::make_unique<JobSlot>();
    slot->plan = p;
    slot->watch = std::make_unique<SlotWatch[]>(p.depth);
    slot->live.watch = slot->watch.get();
    if (keep_iolog) slot->iolog = std::make_unique<JobIoLog>();
    run.jobs.push_back(std::move(slot));
  }
  run.ready.emplace(static_cast<std::ptrdiff_t>(run.jobs.size()));
}

// One thread per job, each holding the shared run. The host refusing a thread (RLIMIT_NPROC, a
// cgroup's pids.max) stops the jobs already started before their first I/O, joins them, and ends
// the run with the reason.
Status start_jobs(const std::shared_ptr<EngineRun>& run, const Target& target, VerifyState* verify, std::vector<std::thread>& threads) {
  threads.reserve(run->jobs.size());
  try {
    for (auto& j : run->jobs)
      threads.emplace_back([run, slot = j.get(), &target, verify] { job_thread(*slot, run->w, target, run->tl, *run->ready, run->go, run->stop, verify); });
  } catch (const std::system_error& e) {
    run->stop.store(true);
    run->go.store(1, std::memory_order_release);
    for (auto& t : threads) t.join();
    return runtime_error(target.info().path,
                         fmt::format("cannot start job thread {} of {}: {}", threads.size() + 1, run->jobs.size(), e.what()),
                         "raise the limit on processes (ulimit -u, the cgroup's pids.max) or run fewer jobs");
  }
  return ok_status();
}

// Once every job is ready: the first job's setup error, if any; otherwise the timeline is set (1 ms
// for every job to reach the start line, the ramp, the measured window). Either way the jobs go.
std::optional<Error> release_jobs(EngineRun& run) {
  std::optional<Error> setup_error;
  for (auto& j : run.jobs)
    if (j->setup_error && !setup_error) setup_error = j->setup_error;
  Timeline& tl = run.tl;
  tl.start_ns = now_ns() + 1'000'000;
  tl.ramp_end_ns = tl.start_ns + static_cast<uint64_t>(run.w.ramp_s * 1e9);
  tl.end_ns = tl.ramp_end_ns + static_cast<uint64_t>(run.w.runtime_s * 1e9);
  if (setup_error) run.stop.store(true);
  run.go.store(1, std::memory_order_release);
  return setup_error;
}

// The sampler and watchdog of one run, on the thread that called run_workload: one interval sample
// per interval_s of the measured window, the ramp's series bucket by bucket, Little's law from the
// slots, diskvet's own pauses, and the hard deadline that abandons a hung device. It reads time from
// a Clock, so its tests run on synthetic time.
class Sampler {
 public:
  Sampler(EngineRun& run, Measurement& m, const RunControl& control, Clock& clock)
      : run_(run), jobs_(run.jobs), tl_(run.tl), w_(run.w), m_(m), control_(control), clock_(clock) {
    interval_ns_ = static_cast<uint64_t>(w_.interval_s * 1e9);
    prev_t_ = tl_.ramp_end_ns;
    next_t_ = tl_.ramp_end_ns + interval_ns_;
    keep_ramp_ = w_.ramp_s >= kRampSeriesMinS;
    m_.ramp_bucket_s = keep_ramp_ ? ramp_bucket_s(w_.ramp_s, w_.interval_s) : 0;
    ramp_bucket_ns_ = static_cast<uint64_t>(m_.ramp_bucket_s * 1e9);
    ramp_prev_t_ = tl_.start_ns;
    ramp_next_t_ = keep_ramp_ ? std::min(tl_.start_ns + ramp_bucket_ns_, tl_.ramp_end_ns) : UINT64_MAX;
    timeout_ns_ = static_cast<uint64_t>(w_.io_timeout_s * 1e9);
    deadline_ns_ = timeout_ns_ + static_cast<uint64_t>(w_.io_grace_s * 1e9);
    last_look_ = clock_.now_ns();
  }

  // Looks until every job has left, or a second after the watchdog abandoned them (a job in an
  // uninterruptible wait, psync's pread on a hung device, is left behind).
  void watch(std::vector<std::thread>& threads, const std::atomic<bool>& caller_stop, const std::atomic<bool>& interrupt) {
    while (!all_done(jobs_)) {
      const uint64_t before = clock_.now_ns();
      const uint64_t wake = wake_at(before);
      clock_.sleep_until_ns(wake);
      if ((caller_stop.load(std::memory_order_relaxed) || interrupt.load(std::memory_order_relaxed)) && !run_.stop.load()) {
        run_.stop.store(true);
        interrupted_ = true;
      }
      const uint64_t t = clock_.now_ns();
      if (paused(std::max(wake, before), t)) continue;
      last_look_ = t;
      const OutNow out = out_now(jobs_, t, paused_until_);
      if (!abandoned_at_ && out.oldest_ns > deadline_ns_) abandon(t);
      if (abandoned_at_) {
        // Signal until every job has left; one still in the kernel after a second is left behind:
        // it holds the shared run state, and exits when the kernel finally answers.
        for (size_t i = 0; i < jobs_.size(); ++i)
          if (!jobs_[i]->live.done.load(std::memory_order_acquire)) pthread_kill(threads[i].native_handle(), SIGURG);
        if (t - abandoned_at_ > 1'000'000'000) break;
        continue;
      }
      sample_ramp_if_due(t);
      if (t > tl_.ramp_end_ns && t <= tl_.end_ns) {
        // Little's law from what the device holds, not from IOPS x latency alone.
        m_.inflight_sum += static_cast<double>(out.count);
        ++m_.inflight_samples;
      }
      if (t >= next_t_ && t <= tl_.end_ns + interval_ns_ / 2 && t > tl_.ramp_end_ns) sample_interval(t);
    }
  }

  // After the jobs were joined (`joined`: which were): the ramp of a run that ended inside it, and
  // the final, usually partial, interval up to the end of the window. Returns the window's end.
  uint64_t finish(const std::vector<bool>& joined) {
    if (keep_ramp_ && ramp_next_t_ != UINT64_MAX && !abandoned_at_) ramp_sample(clock_.now_ns());
    uint64_t last_finish = tl_.ramp_end_ns;
    for (size_t i = 0; i < jobs_.size(); ++i)
      if (joined[i]) last_finish = std::max(last_finish, jobs_[i]->result.finish_ns);
    uint64_t window_end = std::min(tl_.end_ns, last_finish);
    const IntervalSample totals = snapshot(jobs_);
    IntervalLatencyTotals last_lat = abandoned_at_ ? IntervalLatencyTotals{} : interval_latency(jobs_);
    if ((window_end > prev_t_ && (totals.ios[0] + totals.ios[1]) > (prev_.ios[0] + prev_.ios[1])) || last_lat.count()) {
      IntervalSample s = difference(totals, prev_, static_cast<double>(prev_t_ - tl_.ramp_end_ns) / 1e9,
                                    window_end > prev_t_ ? static_cast<double>(window_end - prev_t_) / 1e9 : 0);
      publish(s, last_lat, 1.0);
    }
    return abandoned_at_ ? std::min(window_end, abandoned_at_) : window_end;
  }

  bool interrupted() const { return interrupted_; }

 private:
  // The next interval boundary, but a look at the stop flags and the in-flight I/Os every
  // kEnginePollNs; once stopping, far more often, so the run ends as soon as the jobs have left.
  uint64_t wake_at(uint64_t before) const {
    const uint64_t soon = before + (run_.stop.load(std::memory_order_relaxed) ? kEnginePollNs / 10 : kEnginePollNs);
    // Past the window's last sample (a sampler that was late for it) the next boundary is stale: a
    // wake at it would not sleep at all, and the sampler would spin until the jobs have drained.
    const bool sampled_all = before > tl_.end_ns + interval_ns_ / 2;
    return std::min<uint64_t>({sampled_all ? soon : next_t_, tl_.end_ns > before ? tl_.end_ns : soon, soon,
                               ramp_next_t_ == tl_.ramp_end_ns ? ramp_next_t_ + kEnginePollNs / 4 : ramp_next_t_});
  }

  // Woken at t for `due`, a time that had not passed when it went to sleep: late by kSamplerPauseNs
  // or more, diskvet itself was not running (stopped, its VM paused, starved) and nothing seen on
  // this look is the device's doing. The pause is recorded from the last look, and the I/Os out
  // across it get a whole deadline from its end before the watchdog judges them.
  bool paused(uint64_t due, uint64_t t) {
    if (t <= due || t - due < kSamplerPauseNs || abandoned_at_) return false;
    m_.pauses.push_back(
        {last_look_ > tl_.start_ns ? static_cast<double>(last_look_ - tl_.start_ns) / 1e9 : 0, static_cast<double>(t - last_look_) / 1e9});
    paused_until_ = last_look_ = t;
    return true;
  }

  // The watchdog's hard deadline: the I/Os past io_timeout are recorded as they stand, and every
  // job is told to leave, woken from its wait (io_uring_enter returns EINTR on the signal).
  void abandon(uint64_t t) {
    abandoned_at_ = t;
    m_.stalls = overdue(jobs_, t, paused_until_, timeout_ns_, tl_.start_ns);
    m_.stall_count = m_.stalls.size();
    m_.abandoned = true;
    run_.stop.store(true);
    for (auto& j : jobs_) j->live.abandon.store(true, std::memory_order_relaxed);
  }

  // The ramp's series: the last bucket ends at the ramp's end and is read a poll later, once every
  // job has published what it reaped before then.
  void sample_ramp_if_due(uint64_t t) {
    if (t < ramp_next_t_ || (ramp_next_t_ >= tl_.ramp_end_ns && t < tl_.ramp_end_ns + kEnginePollNs / 4)) return;
    ramp_sample(t);
    if (ramp_prev_t_ >= tl_.ramp_end_ns) {
      ramp_next_t_ = UINT64_MAX;
      return;
    }
    while (ramp_next_t_ <= t) ramp_next_t_ += ramp_bucket_ns_;
    ramp_next_t_ = std::min(ramp_next_t_, tl_.ramp_end_ns);
  }

  void ramp_sample(uint64_t t) {
    const uint64_t end = std::min(t, tl_.ramp_end_ns);
    if (end <= ramp_prev_t_) return;
    const IntervalSample now = ramp_snapshot(jobs_);
    m_.ramp_intervals.push_back(
        difference(now, ramp_prev_, static_cast<double>(ramp_prev_t_ - tl_.start_ns) / 1e9, static_cast<double>(end - ramp_prev_t_) / 1e9));
    ramp_prev_ = now;
    ramp_prev_t_ = end;
  }

  void sample_interval(uint64_t t) {
    const IntervalSample totals = snapshot(jobs_);
    IntervalSample s =
        difference(totals, prev_, static_cast<double>(prev_t_ - tl_.ramp_end_ns) / 1e9, static_cast<double>(t - prev_t_) / 1e9);
    publish(s, interval_latency(jobs_), progress(t, totals));
    prev_ = totals;
    prev_t_ = t;
    next_t_ += interval_ns_;
    while (next_t_ <= t) next_t_ += interval_ns_;
  }

  // An interval with its latency into the measurement, and to the observers.
  void publish(IntervalSample& s, const IntervalLatencyTotals& lat, double progress) {
    lat.fill(s);
    m_.intervals.push(s);
    if (control_.latency_observer) control_.latency_observer->on_interval_latency(s, lat);
    if (control_.observer) control_.observer->on_interval(s, progress);
  }

  double progress(uint64_t t, const IntervalSample& totals) const {
    if (w_.io_limit_bytes)
      return std::min(1.0, static_cast<double>(totals.bytes[0] + totals.bytes[1]) / static_cast<double>(w_.io_limit_bytes));
    return std::min(1.0, static_cast<double>(t - tl_.start_ns) / static_cast<double>(tl_.end_ns - tl_.start_ns));
  }

  EngineRun& run_;
  std::vector<std::unique_ptr<JobSlot>>& jobs_;
  const Timeline& tl_;
  const Workload& w_;
  Measurement& m_;
  const RunControl& control_;
  Clock& clock_;
  uint64_t interval_ns_ = 0, prev_t_ = 0, next_t_ = 0;
  IntervalSample prev_{};
  bool keep_ramp_ = false;
  uint64_t ramp_bucket_ns_ = 0, ramp_prev_t_ = 0, ramp_next_t_ = UINT64_MAX;
  IntervalSample ramp_prev_{};
  uint64_t timeout_ns_ = 0, deadline_ns_ = 0;
  uint64_t abandoned_at_ = 0;
  uint64_t last_look_ = 0;
  uint64_t paused_until_ = 0;  // the end of diskvet's latest pause: I/Os out across it are aged from here
  bool interrupted_ = false;
};

// Jobs that left are joined; only an abandoned run can have one still out, and it is detached.
// Which were joined, by job.
std::vector<bool> join_jobs(const std::vector<std::unique_ptr<JobSlot>>& jobs, std::vector<std::thread>& threads) {
  std::vector<bool> joined(jobs.size(), false);
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (jobs[i]->live.done.load(std::memory_order_acquire)) {
      threads[i].join();
      joined[i] = true;
    } else {
      threads[i].detach();
    }
  }
  return joined;
}

// The joined jobs' iologs to the caller (one left behind may still write its own).
void hand_over_iologs(IoLog& iolog, const EngineRun& run, const std::vector<bool>& joined) {
  iolog.start_ns = run.tl.start_ns;
  iolog.bs_bytes = run.w.bs_bytes;
  iolog.jobs.clear();
  for (size_t i = 0; i < run.jobs.size(); ++i)
    if (joined[i]) iolog.jobs.push_back(std::move(*run.jobs[i]->iolog));
}

// The joined jobs' results into the measurement: counts, histograms, CPU, errors, verification, and
// the stalls they saw complete (an abandoned run keeps the watchdog's list of those still out), less
// those a pause of diskvet's own explains. A job still out on the device keeps its counts.
void merge_jobs(Measurement& m, const std::vector<std::unique_ptr<JobSlot>>& jobs, const std::vector<bool>& joined) {
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (!joined[i]) continue;
    const JobResult& r = jobs[i]->result;
    if (!m.abandoned) {
      std::vector<Stall> seen = r.stalls;
      m.stall_count += r.stall_count - excuse_paused_stalls(seen, m.pauses, m.workload.io_timeout_s);
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
}

// Every joined job reached its share of the io limit (none joined: vacuously).
bool io_limit_reached(const std::vector<std::unique_ptr<JobSlot>>& jobs, const std::vector<bool>& joined) {
  for (size_t i = 0; i < jobs.size(); ++i)
    if (joined[i] && !jobs[i]->result.io_limit_reached) return false;
  return true;
}

}  // namespace

Result<Measurement> run_workload(const Workload& asked, const Target& target, RunControl control) {
  static const std::atomic<bool> never{false};
  Workload w = asked;
  // On a single CPU a spinning job would keep the completion path (a kernel worker, an interrupt
  // thread) off the CPU it needs: there the job sleeps, and the measurement's options say so.
  if (w.spin_us && (w.cpus.empty() ? CpuSet::allowed_now() : w.cpus).cpus.size() < 2) w.spin_us = 0;
  auto verify = check_workload(w, target, control);
  if (!verify) return verify.error();

  // Everything a started job thread touches lives here, shared with the threads: a thread left
  // behind on a hung device (the watchdog) finds it intact whenever it wakes.
  auto run = std::make_shared<EngineRun>(w);
  make_jobs(*run, control.iolog != nullptr);
  install_wake_signal();
  std::vector<std::thread> threads;
  if (auto started = start_jobs(run, target, *verify, threads); !started) return started.error();
  run->ready->wait();
  const std::optional<Error> setup_error = release_jobs(*run);

  Measurement m;
  m.workload = w;
  SystemClock system_clock;
  Sampler sampler(*run, m, control, control.sampler_clock ? *control.sampler_clock : system_clock);
  sampler.watch(threads, control.stop ? *control.stop : never, control.interrupt ? *control.interrupt : never);
  const std::vector<bool> joined = join_jobs(run->jobs, threads);
  if (setup_error) return *setup_error;
  if (control.iolog) hand_over_iologs(*control.iolog, *run, joined);

  const uint64_t window_end = sampler.finish(joined);
  merge_jobs(m, run->jobs, joined);
  m.elapsed_s = window_end > run->tl.ramp_end_ns ? static_cast<double>(window_end - run->tl.ramp_end_ns) / 1e9 : 0;
  m.interrupted = sampler.interrupted();
  m.io_limit_reached = w.io_limit_bytes && io_limit_reached(run->jobs, joined);
  return m;
}

}  // namespace diskvet::runner
