// Target: the file or block device a workload runs on, opened with O_DIRECT. The Target holds one
// anchor descriptor for the whole run (for a block device under a write test, the protection gate's
// O_EXCL descriptor); each job reopens the very same inode through /proc/self/fd, so every job owns
// its descriptor and no path can be swapped underneath the run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/error.hpp"
#include "common/fd.hpp"

namespace diskvet::runner {

struct TargetInfo {
  std::string path;
  bool block_device = false;
  uint64_t size_bytes = 0;
  uint32_t logical_block_size = 512;
  uint32_t physical_block_size = 512;
};

class Target {
 public:
  // Takes ownership of an open descriptor (O_DIRECT is added if missing) and probes it.
  static Result<Target> adopt(UniqueFd fd, std::string path, bool writable);
  // Opens a path for reading, or for writing when `writable`. A regular file that does not exist is
  // created with `min_size_bytes` and filled with data first, so reads are never served from holes;
  // an existing file is never grown. Block devices for writing must come from the protection gate (adopt).
  static Result<Target> open(const std::string& path, bool writable, uint64_t min_size_bytes = 0);
  // A target for the null backend: nothing is opened.
  static Target null(uint64_t size_bytes, uint32_t logical_block_size = 512);

  const TargetInfo& info() const { return info_; }
  bool writable() const { return writable_; }
  bool is_null() const { return !fd_.valid(); }
  // A new descriptor on the same open file, O_DIRECT, for one job.
  Result<UniqueFd> reopen() const;

 private:
  TargetInfo info_;
  UniqueFd fd_;
  bool writable_ = false;
};

// Size and logical block size of an open descriptor (BLKGETSIZE64/BLKSSZGET, or fstat/statx).
Result<TargetInfo> probe_fd(int fd, const std::string& path);

}  // namespace diskvet::runner
