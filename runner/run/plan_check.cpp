// Validating every workload of a plan against its device before anything runs.
#include "runner/run/plan_check.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "runner/io/engine.hpp"
#include "runner/io/poll_queues.hpp"
#include "runner/io/workload.hpp"
#include "runner/run/precondition.hpp"
#include "runner/run/suite_run.hpp"
#include "runner/run/workload_run.hpp"

namespace diskvet::runner {

namespace {

Error refused(const DevicePlan& d, const suites::Suite& suite, const std::string& what_runs, const Error& why) {
  Error e = usage_error(d.device.path.empty() ? d.target.info().path : d.device.path,
                        fmt::format("suite {}: {} cannot run on this device: {}{}", suite.name, what_runs, why.subject.empty() ? "" : why.subject + " ",
                                    why.what),
                        why.fix.empty() ? "nothing was written; fix the suite or choose another device"
                                        : "nothing was written; " + why.fix);
  return e;
}

}  // namespace

Status check_plan_workloads(const RunPlan& plan) {
  const suites::Suite& suite = plan.suite;
  for (const DevicePlan& d : plan.devices) {
    const TargetInfo& info = d.target.info();
    const Region region = tested_region(info.size_bytes, suite);
    if (region.size_bytes == 0) continue;  // run_device reports a device too small for any test
    auto check = [&](const Workload& w, const std::string& what_runs) -> Status {
      Workload v = w;
      if (d.target.is_null()) v.engine = BackendKind::null;
      auto valid = validate(v, info.size_bytes, info.logical_block_size);
      if (!valid) return refused(d, suite, what_runs, valid.error());
      // Polled completions need the device's queue to poll: known now, before preconditioning writes.
      if (valid->hipri && !d.target.is_null())
        if (auto polls = check_poll_queues(info); !polls) return refused(d, suite, what_runs, polls.error());
      // NVMe passthrough needs the namespace's generic char device, attached at plan time, answering.
      if (valid->engine == BackendKind::io_uring_cmd && !d.target.is_null())
        if (auto answered = check_passthrough(*valid, d.target); !answered) return refused(d, suite, what_runs, answered.error());
      return ok_status();
    };
    if (suite.precondition.enabled) {
      const double limit_s = plan.options.precondition_limit_s.value_or(suite.precondition.limit_s);
      if (auto ok = check(precondition_workload(d.target, region, suite.precondition, limit_s), "preconditioning"); !ok) return ok;
    }
    for (const auto& test : suite.tests) {
      for (size_t i = 0; i < test.workloads.size(); ++i) {
        const std::string name = fmt::format("test {} workload {}", test.id, i + 1);
        Workload w = resolve_workload(test.workloads[i], region, test, d.rate_cap_iops, plan.options.duration_s, &d.fast_path, &info);
        // A matrix skips the cells whose blocks the device's sectors do not divide (with the reason,
        // runner/run/matrix_run) and runs the rest; only its tracked cell must run.
        if (test.matrix && i != test.matrix->tracked && info.logical_block_size && w.bs_bytes % info.logical_block_size) continue;
        if (auto ok = check(w, name); !ok) return ok;
        if (test.sweep) {
          for (const auto& step : test.sweep->steps) {
            Workload s = w;
            s.iodepth = step.iodepth;
            s.numjobs = step.numjobs;
            if (d.rate_cap_iops) cap_total_iops(s, d.rate_cap_iops);
            if (auto ok = check(s, fmt::format("{} (sweep step QD{} x{})", name, step.iodepth, step.numjobs)); !ok) return ok;
          }
        }
        if (suite.steady_state.enabled) {
          Workload round = w;
          round.runtime_s = plan.options.duration_s ? std::min(suite.steady_state.round_s, *plan.options.duration_s) : suite.steady_state.round_s;
          if (auto ok = check(round, name + " (steady-state round)"); !ok) return ok;
        }
      }
    }
  }
  return ok_status();
}

}  // namespace diskvet::runner
