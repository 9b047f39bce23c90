// Which mounted file system holds a file, and what the report says about it: type, source, mount
// options and, for NFS, the server and the rsize/wsize in use. From /proc/self/mountinfo.
#pragma once

#include <string>
#include <vector>

#include "common/error.hpp"
#include "devices/device.hpp"
#include "devices/host_paths.hpp"
#include "devices/host_state.hpp"

namespace diskvet::devices {

// The mount of a file whose st_dev is `dev_id` ("major:minor") at `canonical_path`: among the
// mounts of that device number, the one with the longest mount point that holds the path (a bind
// mount of a subtree shows the same number twice); the first of that number when none holds it.
std::optional<FileSystemFacts> file_system_of(const std::string& dev_id, const std::string& canonical_path,
                                              const std::vector<MountEntry>& mounts);

// The same for a path on this host (stat for the number, the host's mountinfo for the mounts).
Result<FileSystemFacts> file_system_of_path(const std::string& path, const HostPaths& host = {});

// One line for reports: "nfs4 127.0.0.1:/srv/export at /mnt/share (rw,relatime), NFS server
// 127.0.0.1, vers 4.2, rsize 1 MiB, wsize 1 MiB".
std::string describe(const FileSystemFacts& f);

// The value of `key=` in a comma-separated option list ("rsize" in "rw,rsize=1048576"); empty when absent.
std::string option_value(const std::string& options, const std::string& key);

}  // namespace diskvet::devices
