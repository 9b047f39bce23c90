// A 1 MiB file on disk (not tmpfs: O_DIRECT), named after the process, removed afterwards: for the
// purge tests of devices/ and runner/run/, which open it as their target.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace diskvet::unit {

struct ScratchFile {
  std::filesystem::path path;
  ScratchFile() {
    path = std::filesystem::temp_directory_path() / ("diskvet-purge-test-" + std::to_string(::getpid()) + ".img");
    if (std::filesystem::exists("/var/tmp")) path = std::filesystem::path("/var/tmp") / path.filename();
    std::ofstream(path, std::ios::binary) << std::string(1 << 20, 'x');
  }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  ~ScratchFile() { std::filesystem::remove(path); }
};

}  // namespace diskvet::unit
