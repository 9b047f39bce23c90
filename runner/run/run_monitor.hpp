// What watches one device while its burn-in load runs: the health poller, the throttling detector
// over each timed workload's interval series, and at the end the verdict facts they give (a new
// critical warning, new media errors, too hot, a slowdown deeper than the profile allows).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runner/run/health_poller.hpp"
#include "runner/run/run_plan.hpp"
#include "runner/run/run_result.hpp"
#include "suites/profile.hpp"
#include "suites/suite.hpp"

namespace diskvet::runner {

class RunMonitor {
 public:
  RunMonitor(const suites::MonitorSpec& spec, const RunHooks& hooks, const devices::Device& device, const suites::Profile* profile);
  // Around each workload, so slowdown times are on the device's clock like the health polls.
  void workload_starting();
  void workload_done(const std::string& test_id, const WorkloadRecord& r);
  // Stops polling; fills the health series, slowdown events and the facts they imply.
  void finish(DeviceResult& res);

 private:
  suites::MonitorSpec spec_;
  const suites::Profile* profile_;
  uint64_t start_ns_;
  uint64_t workload_start_ns_ = 0;
  std::unique_ptr<HealthPoller> poller_;
  struct Pending {
    std::string test_id;
    bool writes;
    SlowdownEvent event;
  };
  std::vector<Pending> slowdowns_;
};

}  // namespace diskvet::runner
