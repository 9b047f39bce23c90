// What the running system uses: mounts (mountinfo), swap areas (/proc/swaps), the kernel command
// line, and which whole disks stand behind a device number (partitions, dm/md slaves).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "devices/host_paths.hpp"

namespace diskvet::devices {

struct MountEntry {
  std::string dev_id;      // "major:minor" as mountinfo says (anonymous 0:N for btrfs, overlay)
  std::string mountpoint;  // octal escapes decoded
  std::string fstype;
  std::string source;      // "/dev/sda1", "tmpfs", "server:/export", ...
  std::string mount_options;  // per-mount options: "rw,relatime"
  std::string super_options;  // per-superblock options: "rw,vers=4.2,rsize=1048576,addr=10.0.0.5"
};

// /proc/self/mountinfo (proc(5)): "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw".
std::vector<MountEntry> parse_mountinfo(std::string_view text);
// /proc/swaps: the Filename column of every line after the header.
std::vector<std::string> parse_swaps(std::string_view text);
// The value of `key=` on a kernel command line ("root=UUID=..."); empty when absent.
std::string cmdline_value(std::string_view cmdline, std::string_view key);

// Whole-disk kernel names behind a device number: the disk itself, the parent of a partition, and
// for dm/md every disk below it (slaves, recursively).
std::vector<std::string> backing_disks(const std::string& dev_id, const HostPaths& host);

// "major:minor" of a block device node, or empty.
std::string block_dev_id(const std::string& node);

}  // namespace diskvet::devices
