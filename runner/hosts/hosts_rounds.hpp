// Steady-state rounds across hosts (SNIA PTS 3.3 on the array), decided on merged numbers: which
// value a round adds to the series (the merged IOPS, or the merged mean latency for latency tests),
// whether another round runs, and what the report says, in the local runner's fields
// (runner/report/report_json.cpp: required, criteria, attained, rounds_used, rounds, window). Pure:
// the controller (hosts_run) runs the rounds, this decides them.
#pragma once

#include <boost/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "runner/analysis/steady_state.hpp"
#include "runner/hosts/hosts_workload.hpp"
#include "suites/suite.hpp"

namespace diskvet::runner {

class HostsRounds {
 public:
  HostsRounds(const SteadyCriteria& criteria, bool required, bool track_latency)
      : criteria_(criteria), required_(required), track_latency_(track_latency) {}

  // Adds one round: a workload as run_workload gives it (its typed merged numbers). Returns whether
  // another round should run: false once the series is steady, at the round limit, or when the
  // round gave no merged numbers or an error (the rounds end there, not steady).
  bool add_round(const HostsWorkloadResult& workload);

  bool attained() const { return result_ && result_->attained; }
  size_t rounds() const { return iops_.size(); }
  const std::vector<double>& iops() const { return iops_; }
  const std::vector<double>& tracked() const { return tracked_; }
  bool required() const { return required_; }
  const SteadyCriteria& criteria() const { return criteria_; }
  const std::optional<SteadyStateResult>& result() const { return result_; }

  // Why a result of these rounds cannot be judged: steady state required and not attained.
  // Empty when it can (attained, or not required).
  std::string not_judged_reason() const;

  // The report's "steady_state": the local runner's fields, plus "tracks" (what the series is) and
  // "result" (which round stands for the workload). workload: what the rounds ran when not the
  // workload itself (a sweep's heaviest step).
  boost::json::object json(const std::string& workload = {}) const;

 private:
  SteadyCriteria criteria_;
  bool required_, track_latency_;
  std::vector<double> iops_, lat_mean_us_, tracked_;
  std::optional<SteadyStateResult> result_;
  bool failed_ = false;
};

// A matrix test's summary (the local runner's "matrix" object, runner/report/report_json.cpp):
// mixes, block sizes, the tracked cell, rounds run, the tracked cell's steady state and each cell
// (its merged IOPS in the last round it ran, and how many rounds it ran). cells are the cells in the
// test's order (mix-major), as run_workload gave them; rwmixread per cell from the spec.
boost::json::object hosts_matrix_json(const suites::MatrixSpec& spec, const std::vector<uint32_t>& cell_rwmixread,
                                      const std::vector<HostsWorkloadResult>& cells, const std::vector<size_t>& cell_rounds,
                                      const HostsRounds& tracked, size_t rounds_run, double round_s);

}  // namespace diskvet::runner
