// Bridges the engine's interval callback to the run's event sink: samples, progress and ETA for one
// engine run (a workload, a round, a preconditioning pass), and an optional early-stop rule.
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "runner/io/clock.hpp"
#include "runner/io/engine.hpp"
#include "runner/run/run_events.hpp"

namespace diskvet::runner {

struct StepContext {
  RunEvents* events = nullptr;
  std::string device;
  Phase phase = Phase::measure;
  std::string test_id;
  int workload = -1;
  std::string detail;
};

class StepObserver final : public EngineObserver {
 public:
  // `outer_stop` is the run's interrupt flag; `until` may end the step early by returning true.
  StepObserver(StepContext ctx, const std::atomic<bool>* outer_stop, std::function<bool(const IntervalSample&)> until = {})
      : ctx_(std::move(ctx)), outer_(outer_stop), until_(std::move(until)), start_ns_(now_ns()) {}

  void on_interval(const IntervalSample& s, double progress) override {
    if (ctx_.events) {
      ctx_.events->on_sample(SampleEvent{ctx_.device, ctx_.phase, ctx_.test_id, ctx_.workload, s});
      double elapsed = static_cast<double>(now_ns() - start_ns_) / 1e9;
      ProgressEvent p{ctx_.device, ctx_.phase, ctx_.test_id, progress, elapsed, std::nullopt, ctx_.detail};
      if (progress > 0.01) p.eta_s = elapsed * (1 - progress) / progress;
      ctx_.events->on_progress(p);
    }
    if (until_ && until_(s)) stop_.store(true);
    if (outer_ && outer_->load()) stop_.store(true);
  }
  // Give this to RunControl::stop: set by the rule or by the outer flag.
  const std::atomic<bool>* stop_flag() { return &stop_; }
  // The outer flag goes to the engine too, which looks at it every few milliseconds: a signal ends
  // the step at once, not at the next interval.
  RunControl control() {
    RunControl c{&stop_, this};
    c.interrupt = outer_;
    return c;
  }
  bool interrupted() const { return outer_ && outer_->load(); }

 private:
  StepContext ctx_;
  const std::atomic<bool>* outer_;
  std::function<bool(const IntervalSample&)> until_;
  std::atomic<bool> stop_{false};
  uint64_t start_ns_;
};

}  // namespace diskvet::runner
