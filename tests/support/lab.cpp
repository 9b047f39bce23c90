// Test lab helpers (scratch files, checksums through run_command); used only by tests.
#include "tests/support/lab.hpp"

#include <unistd.h>

#include <filesystem>
#include <random>

namespace diskvet::testing {

bool is_root() { return geteuid() == 0; }

namespace {
std::string unique_suffix() {
  std::random_device rd;
  return std::to_string(getpid()) + "-" + std::to_string(rd() % 1000000);
}
}  // namespace

ScratchFile::ScratchFile(const std::string& tag, uint64_t size_bytes) {
  path_ = (std::filesystem::current_path() / ("scratch-" + tag + "-" + unique_suffix() + ".img")).string();
  if (size_bytes) run_command({"truncate", "-s", std::to_string(size_bytes), path_});
}

ScratchFile::~ScratchFile() { std::filesystem::remove(path_); }

std::string sha256_of(const std::string& path) {
  auto r = run_command({"sha256sum", path});
  return r.out.substr(0, r.out.find(' '));
}

}  // namespace diskvet::testing
