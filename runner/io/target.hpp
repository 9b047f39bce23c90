// Target: the file or block device a workload runs on, opened with O_DIRECT. The Target holds one
// anchor descriptor for the whole run (for a block device under a write test, the protection gate's
// O_EXCL descriptor); each job reopens the very same inode through /proc/self/fd, so every job owns
// its descriptor and no path can be swapped underneath the run.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>

#include "common/error.hpp"
#include "common/fd.hpp"
#include "runner/io/nvme_passthrough.hpp"

namespace diskvet::runner {

struct TargetInfo {
  std::string path;
  bool block_device = false;
  dev_t rdev = 0;  // a block device's number, from fstat of the descriptor held
  uint64_t size_bytes = 0;
  uint32_t logical_block_size = 512;
  uint32_t physical_block_size = 512;
  bool direct = true;  // false only for a file adopted with allow_buffered on a file system without O_DIRECT
  // NVMe passthrough (engine io_uring_cmd): the namespace's generic char device the jobs send their
  // commands to, and the namespace id; empty and 0 until attach_passthrough.
  std::string passthrough_path;
  dev_t passthrough_rdev = 0;
  uint32_t nsid = 0;
};

class Target {
 public:
  // Takes ownership of an open descriptor (O_DIRECT is added if missing) and probes it. With
  // allow_buffered a regular file whose file system refuses O_DIRECT (EINVAL) is kept buffered and
  // info().direct says so; otherwise that is an error.
  static Result<Target> adopt(UniqueFd fd, const std::string& path, bool writable, bool allow_buffered = false);
  // Opens a path for reading, or for writing when `writable`. A regular file that does not exist is
  // created (O_EXCL, never through a link) with `min_size_bytes` and filled with data first, so
  // reads are never served from holes; an existing file is never grown. For writing, an existing
  // path must be a regular file and not a link (O_NOFOLLOW, checked on the descriptor); the CLI and
  // TUI never write through this: they get every writable target from devices::open_for_write,
  // which also asks consent for an existing file. Block devices for writing come only from that gate.
  static Result<Target> open(const std::string& path, bool writable, uint64_t min_size_bytes = 0);
  // A file this process has just created (a grant with `created`): laid out with `size_bytes` of
  // data, then adopted. If laying it out fails the file is removed again.
  static Result<Target> lay_out(UniqueFd created, const std::string& path, uint64_t size_bytes, bool writable, bool allow_buffered = false);
  // A target for the null backend: nothing is opened.
  static Target null(uint64_t size_bytes, uint32_t logical_block_size = 512);

  const TargetInfo& info() const { return info_; }
  bool writable() const { return writable_; }
  bool is_null() const { return !fd_.valid(); }
  // A new descriptor on the same open file, O_DIRECT (unless info().direct is false), for one job.
  Result<UniqueFd> reopen() const;
  // Opens the generic char device of this block device's namespace (NVMe passthrough), for writing
  // only when the target itself was opened for writing (by the protection gate): it is found from
  // the device number of the descriptor held, never from a name. Refused for a file, a partition,
  // a device that is not an NVMe namespace or has no generic node.
  Status attach_passthrough(const SystemRoots& roots = {});
  // A new descriptor on the generic char device, for one job (attach_passthrough first).
  Result<UniqueFd> reopen_passthrough() const;

 private:
  TargetInfo info_;
  UniqueFd fd_;
  UniqueFd passthrough_fd_;
  bool writable_ = false;
};

// Size and logical block size of an open descriptor (BLKGETSIZE64/BLKSSZGET, or fstat/statx).
Result<TargetInfo> probe_fd(int fd, const std::string& path);

}  // namespace diskvet::runner
