// What the per-I/O watchdog and the kernel log found on one device over its whole run, and the
// one place they become failing verdict lines (DeviceFacts::run_problems): stalls beyond what the
// profile allows, a run abandoned on an I/O that never came back, a controller or link reset.
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runner/io/measurement.hpp"
#include "runner/run/kernel_log.hpp"

namespace diskvet::runner {

struct DeviceStall {
  std::string test_id;
  Stall stall;
  uint64_t lba = 0;  // offset / logical block size
};

struct WatchdogRecord {
  static constexpr size_t kMaxListed = 16;
  double io_timeout_s = 0;          // the largest of the device's workloads
  double io_grace_s = 0;
  std::vector<DeviceStall> stalls;  // the first kMaxListed, in order
  uint64_t stall_count = 0;
  std::map<std::string, uint64_t> stalls_by_test;  // every phase of the test (warmup, rounds, sweep steps) counted
  bool abandoned = false;           // an I/O never came back: the device's run stopped there
  std::string abandon_detail;

  // Adds what one engine run (any phase: warmup, sweep step, round, measurement) found.
  void add(const std::string& test_id, const Measurement& m, uint32_t logical_block_size);
};

// "write at LBA 2048 (offset 1 MiB) in write-pass: out 5.02 s from 3.10 s (io_timeout 1 s)"
std::string describe_stall(const DeviceStall& s, double io_timeout_s);

// The failing verdict lines (each FAILs the device): stalls over max_stalls (none allowed when
// unset), an abandoned run, and kernel lines that fail a device by themselves (resets).
std::vector<std::string> watchdog_problems(const WatchdogRecord& w, std::optional<uint64_t> max_stalls, const KernelLog& kernel);

boost::json::object watchdog_json(const WatchdogRecord& w);
boost::json::object kernel_log_json(const KernelLog& k);

}  // namespace diskvet::runner
