// Device identity for a path named on the command line: a scratch file, or a disk as discovery sees it.
#include "cli/device_describe.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <filesystem>

#include "devices/discovery.hpp"
#include "runner/target.hpp"

namespace diskvet::cli {

namespace fs = std::filesystem;

Result<devices::Device> describe_device(const std::string& path) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) return usage_error(path, "does not exist", "check the path with 'diskvet list'");
  devices::Device d;
  d.path = path;
  d.name = fs::path(path).filename().string();
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return system_error(path, "cannot open to identify it", errno, "run as root");
  auto info = runner::probe_fd(fd.get(), path);
  if (!info) return info.error();
  d.size_bytes = info->size_bytes;
  d.logical_block_size = info->logical_block_size;
  d.physical_block_size = info->physical_block_size;
  if (!S_ISBLK(st.st_mode)) {
    d.kind = devices::DeviceKind::other;
    d.model = "regular file";
    return d;
  }
  // A block device: the devices library's identity (udev/sysfs, NVMe Identify) and protection.
  // Health is left to the run's read_health hook, taken before and after.
  devices::DiscoveryOptions options;
  options.read_health = false;
  options.include_empty = true;
  auto found = devices::find_device(path, options);
  if (!found) return d;  // a partition or an odd node: reads may go on, the write gate decides the rest
  return *found;
}

}  // namespace diskvet::cli
