// The 80-column text table of `diskvet list`; a pure function so its layout is testable.
#pragma once

#include <string>
#include <vector>

#include "devices/device.hpp"

namespace diskvet::cli {

inline constexpr size_t kTableWidth = 80;

// One line per disk (path, kind, model, serial, size, logical/physical block size, health), then
// an indented line saying PROTECTED and why, or how to consent. No line is wider than 80 columns.
std::string render_device_table(const std::vector<devices::Device>& devices);

// "ok", "UNHEALTHY", "unknown".
std::string health_word(const devices::Health& h);

}  // namespace diskvet::cli
