// The health polling thread and the judgement of its series.
#include "runner/run/health_poller.hpp"

#include <fmt/format.h>

#include <chrono>

#include "runner/io/clock.hpp"
#include "runner/run/suite_run.hpp"

namespace diskvet::runner {

HealthPoller::HealthPoller(HealthReader read, devices::Device device, double interval_s)
    : read_(std::move(read)), device_(std::move(device)), interval_s_(interval_s), start_ns_(now_ns()) {
  thread_ = std::thread([this] { loop(); });
}

HealthPoller::~HealthPoller() { finish(); }

void HealthPoller::poll() {
  auto h = read_(device_);
  if (!h) return;
  HealthSample s{static_cast<double>(now_ns() - start_ns_) / 1e9, utc_now_iso8601(), std::move(*h)};
  std::lock_guard lock(mu_);
  if (samples_.size() == kMaxSamples) {
    // Halve the resolution, keeping the first sample (the baseline) and the latest ones.
    std::vector<HealthSample> kept;
    for (size_t i = 0; i < samples_.size(); i += 2) kept.push_back(std::move(samples_[i]));
    samples_ = std::move(kept);
  }
  samples_.push_back(std::move(s));
}

void HealthPoller::loop() {
  auto interval = std::chrono::duration<double>(interval_s_);
  for (;;) {
    poll();
    std::unique_lock lock(mu_);
    if (cv_.wait_for(lock, interval, [this] { return stop_; })) return;
  }
}

std::vector<HealthSample> HealthPoller::finish() {
  {
    std::lock_guard lock(mu_);
    if (stop_) return samples_;
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  poll();
  std::lock_guard lock(mu_);
  return samples_;
}

std::vector<std::string> judge_health_series(const std::optional<devices::Health>& before, const std::vector<HealthSample>& series,
                                             std::optional<double> max_temp_c) {
  std::vector<std::string> out;
  uint8_t warn0 = before && before->critical_warning ? *before->critical_warning : 0;
  // Media errors count from the snapshot before the run, else from the first poll that had them.
  bool have_media0 = before && before->media_errors;
  uint64_t media0 = have_media0 ? *before->media_errors : 0;
  for (const auto& s : series)
    if (!have_media0 && s.health.media_errors) {
      have_media0 = true;
      media0 = *s.health.media_errors;
    }
  bool warned = false, media = false, hot = false;
  for (const auto& s : series) {
    const devices::Health& h = s.health;
    if (!warned && h.critical_warning && (*h.critical_warning & ~warn0)) {
      warned = true;
      out.push_back(fmt::format("critical warning {:#04x} raised during the run, first seen at {:.0f} s ({})", *h.critical_warning, s.t_s, s.utc));
    }
    if (!media && h.media_errors && have_media0 && *h.media_errors > media0) {
      media = true;
      out.push_back(fmt::format("{} new media errors during the run, first seen at {:.0f} s ({})", *h.media_errors - media0, s.t_s, s.utc));
    }
    if (!hot && max_temp_c && h.temperature_c && *h.temperature_c > *max_temp_c) {
      hot = true;
      out.push_back(fmt::format("temperature {:.0f} C over the profile's max_temp_c {:.0f} C at {:.0f} s ({})", *h.temperature_c, *max_temp_c, s.t_s, s.utc));
    }
  }
  return out;
}

}  // namespace diskvet::runner
