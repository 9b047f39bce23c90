// One small file from the root directory of a FAT12/16/32 file system, read straight from the
// device without mounting it: how the boot medium's marker is found whether or not it is mounted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace diskvet::devices {

// Reads `len` bytes at byte `offset` into `buf`; false when it cannot (short read, error).
using ReadAt = std::function<bool(uint64_t offset, void* buf, size_t len)>;

// The contents of the root directory's file `name` (long name or 8.3, case-insensitive) when the
// volume is a FAT file system that has it and it is at most `max_bytes` long; nullopt otherwise.
std::optional<std::string> read_fat_root_file(const ReadAt& read_at, std::string_view name, size_t max_bytes);

// The same on an open file descriptor (pread; the descriptor's offset is not moved).
std::optional<std::string> read_fat_root_file(int fd, std::string_view name, size_t max_bytes);

}  // namespace diskvet::devices
