// What the kernel says stands over and under the host's block devices (DESIGN.md Safety, rule 2),
// read once as plain facts: every attached loop device and what backs it (LOOP_GET_STATUS64 through
// its own node, checked by fstat to be that loop device), and every other program's write access to
// a block device or a file (open for writing through any node anywhere, or mapped shared and
// writable), each identified by st_rdev or (st_dev, st_ino), never by the name it was reached by.
// Protection (protection.cpp) judges these facts; gathering them never opens a device O_EXCL, and
// a call that blocks (a loop over a stalled FUSE or network file) is bounded by a deadline.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <compare>
#include <cstdint>
#include <string>
#include <vector>

#include "devices/host_paths.hpp"
#include "devices/host_state.hpp"

namespace diskvet::devices {

struct FileId {
  dev_t dev = 0;
  ino_t ino = 0;
  auto operator<=>(const FileId&) const = default;
  bool known() const { return ino != 0; }
};

struct LoopBacking {
  std::string name;             // "loop3"
  std::string dev_id;           // "7:3"
  bool known = false;           // the kernel answered, in time, through a node that is this loop device
  std::string why_unknown;      // "did not answer within 2 s", "/dev/loop3 here is device 8:16"
  FileId file;                  // the backing inode (lo_device, lo_inode)
  std::string backing_dev_id;   // "8:16" when the backing is a block device (lo_rdevice), else empty
  uint64_t offset_bytes = 0;
  uint64_t sizelimit_bytes = 0;
  std::string file_name;        // sysfs loop/backing_file: words, looked up only when the node cannot be asked
  bool timed_out = false;       // the kernel did not answer in time (a stalled backing file system)
  int err = 0;                  // the errno of the open or the ioctl when it failed
};

struct Writer {
  std::string pid, comm;
  std::string how;     // "open for writing", "mapped shared and writable"
  std::string dev_id;  // a block device, by st_rdev: "8:16"
  FileId file;         // a regular file, by (st_dev, st_ino)
  std::string node;    // the name the kernel shows for it (fake trees match by this only)
};

struct StackFacts {
  std::vector<MountEntry> mounts;  // of every mount namespace the kernel shows, this one first
  std::vector<LoopBacking> loops;
  std::vector<Writer> writers;
};

// How long one blocking kernel call for one object may take before that object counts as unknown.
inline constexpr std::chrono::milliseconds kStackCallDeadline{2000};

std::vector<LoopBacking> read_loops(const HostPaths& host);
std::vector<Writer> read_writers(const HostPaths& host);
// This namespace's mounts, then those of every other mount namespace a process of the host is in
// (a container's, a unit's private /tmp): a disk mounted only there is still mounted.
std::vector<MountEntry> read_all_mounts(const HostPaths& host);
inline StackFacts gather_stack_facts(const HostPaths& host = {}) { return {read_all_mounts(host), read_loops(host), read_writers(host)}; }

// Whether this inode is an active swap file (/proc/swaps, each name stat'ed: swap files are local).
bool is_active_swap_file(dev_t dev, ino_t ino, const HostPaths& host = {});

// "8:16" from a dev_t.
std::string dev_id_of(dev_t rdev);

}  // namespace diskvet::devices
