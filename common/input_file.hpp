// Reading a file the user named as input (a suite, a profile, a saved report, a hosts inventory):
// never a hang on a FIFO, never an unbounded read of /dev/zero, one line naming the file when refused.
#pragma once

#include <cstdint>
#include <string>

#include "common/error.hpp"
#include "common/fd.hpp"

namespace diskvet {

// Inputs are small JSON documents; the largest shipped report is well under a megabyte.
inline constexpr uint64_t kMaxInputBytes = uint64_t{16} << 20;

// Opens `path` O_RDONLY|O_NONBLOCK|O_CLOEXEC (a FIFO's open does not wait for a writer) and checks
// with fstat that it is a regular file; anything else is an input error (exit 2) saying what it is.
Result<UniqueFd> open_input_file(const std::string& path);

// The whole text of a regular file of at most max_bytes (a larger one is an input error, checked
// on fstat and again while reading: /proc files report size 0).
Result<std::string> read_input_file(const std::string& path, uint64_t max_bytes = kMaxInputBytes);

}  // namespace diskvet
