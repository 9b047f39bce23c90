// The device's first I/O errors: which ones are kept, and how they read in words and JSON.
#include "runner/run/io_error_report.hpp"

#include <fmt/format.h>

#include <cstring>

#include "common/units.hpp"

namespace diskvet::runner {

void keep_first_io_errors(std::vector<DeviceIoError>& kept, const std::string& test_id, const Measurement& m,
                          uint32_t logical_block_size) {
  const uint32_t lbs = logical_block_size ? logical_block_size : 512;
  for (const auto& e : m.first_errors) {
    if (kept.size() >= kMaxDeviceIoErrors) return;
    kept.push_back(DeviceIoError{test_id, e, e.offset_bytes / lbs});
  }
}

namespace {

// What the kernel answered: an errno, or a transfer shorter than asked.
std::string what_failed(const IoError& e) {
  if (e.err) return fmt::format("{} (errno {})", std::strerror(e.err), e.err);
  return fmt::format("short transfer ({} bytes)", e.result);
}

}  // namespace

std::string describe_io_error(const DeviceIoError& e) {
  return fmt::format("{} at LBA {} (offset {}) in {}: {}", to_string(e.error.dir), e.lba, format_bytes(e.error.offset_bytes), e.test_id,
                     what_failed(e.error));
}

boost::json::object io_error_json(const DeviceIoError& e) {
  return {{"test", e.test_id},
          {"direction", to_string(e.error.dir)},
          {"offset_bytes", e.error.offset_bytes},
          {"lba", e.lba},
          {"errno", e.error.err},
          {"error", what_failed(e.error)},
          {"result", e.error.result}};
}

}  // namespace diskvet::runner
