// A block device's I/O counters (sysfs `stat`, Documentation/block/stat.rst), read by device
// number: what fio reports as disk_util, the kernel's own view of the I/Os a run issued.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace diskvet::devices {

struct DiskStats {
  std::string name;  // kernel name, e.g. "nvme0n1", "loop3"
  uint64_t read_ios = 0, read_merges = 0, read_sectors = 0, read_ticks_ms = 0;
  uint64_t write_ios = 0, write_merges = 0, write_sectors = 0, write_ticks_ms = 0;  // sectors: 512 bytes whatever the block size
  uint64_t io_ticks_ms = 0;   // time the device had I/O in flight
  uint64_t in_queue_ms = 0;   // time_in_queue: I/O time weighted by the I/Os in flight

  // What happened between `before` and this reading (counters only grow; a wrap reads as 0).
  DiskStats since(const DiskStats& before) const;
};

// The counters of block device `rdev` from SYS_ROOT/dev/block/MAJ:MIN/stat; nullopt when it has
// none (not a block device, sysfs not mounted).
std::optional<DiskStats> read_disk_stats(dev_t rdev, const std::filesystem::path& sys_root = "/sys");

// 512-byte sectors written, as the kernel counts them, to the disk `name` and to every namespace of
// its NVMe controller `nvme_controller` (SYS_ROOT/class/nvme/CTRL/NAMESPACE/stat: what the
// controller's SMART write counter covers; with native multipath the controller's path nvmeXcYnZ
// stands for head nvmeXnZ). Without a controller both are SYS_ROOT/block/NAME's; nullopt where
// sysfs has no stat.
struct SectorsWritten {
  std::optional<uint64_t> device, covered;
};
SectorsWritten sectors_written(const std::string& name, const std::string& nvme_controller, const std::filesystem::path& sys_root = "/sys");

}  // namespace diskvet::devices
