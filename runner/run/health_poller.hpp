// Health polling during a run: a thread that reads the device's health every interval into a time
// series (memory stays flat: past kMaxSamples the series keeps every other sample), and the
// judgement of that series — a new critical warning or new media errors fail the device, with the time.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "devices/device.hpp"

namespace diskvet::runner {

struct HealthSample {
  double t_s = 0;    // since the device's run started
  std::string utc;   // ISO 8601
  devices::Health health;
};

using HealthReader = std::function<std::optional<devices::Health>(const devices::Device&)>;

class HealthPoller {
 public:
  static constexpr size_t kMaxSamples = 4096;

  // Polls at once, then every interval_s until stopped. The reader runs on the poller's thread.
  HealthPoller(HealthReader read, devices::Device device, double interval_s);
  ~HealthPoller();
  HealthPoller(const HealthPoller&) = delete;
  HealthPoller& operator=(const HealthPoller&) = delete;

  // Stops (a last poll first) and hands over the series.
  std::vector<HealthSample> finish();

 private:
  void loop();
  void poll();
  HealthReader read_;
  devices::Device device_;
  double interval_s_;
  uint64_t start_ns_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::vector<HealthSample> samples_;
  std::thread thread_;
};

// What the series shows against the snapshot before the run: a critical warning that was not set,
// media errors that were not there, a temperature over max_temp_c. One line per finding, with the
// time it was first seen.
std::vector<std::string> judge_health_series(const std::optional<devices::Health>& before, const std::vector<HealthSample>& series,
                                             std::optional<double> max_temp_c);

}  // namespace diskvet::runner
