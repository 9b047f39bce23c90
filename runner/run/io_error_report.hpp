// I/O errors a device returned during its run, kept and told: the first few of every workload with
// the test they hit, their direction, byte offset and LBA, and what the kernel answered.
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "runner/io/measurement.hpp"
#include "runner/run/run_result.hpp"

namespace diskvet::runner {

inline constexpr size_t kMaxDeviceIoErrors = 8;

// Appends a workload's first errors (in order) to those the device already has, up to kMaxDeviceIoErrors.
void keep_first_io_errors(std::vector<DeviceIoError>& kept, const std::string& test_id, const Measurement& m,
                          uint32_t logical_block_size);

// "read at LBA 32768 (offset 16 MiB) in seqread-128k: No data available (errno 61)"
std::string describe_io_error(const DeviceIoError& e);

// {"test", "direction", "offset_bytes", "lba", "errno", "error", "result"}
boost::json::object io_error_json(const DeviceIoError& e);

}  // namespace diskvet::runner
