// NVMe passthrough (fio's io_uring_cmd): the namespace's generic character device /dev/ngXnY that
// stands for a block device /dev/nvmeXnY, found both ways through sysfs by device number, and the
// NVMe read and write commands sent through it. The block device is what the protection gate judges
// (DESIGN.md "Safety"); the char device is only ever derived from the device the gate holds, and its
// identity is checked on the descriptor opened.
#pragma once

#include <linux/nvme_ioctl.h>
#include <sys/types.h>

#include <cstdint>
#include <string>

#include "common/error.hpp"
#include "common/fd.hpp"
#include "runner/io/workload.hpp"

namespace diskvet::runner {

// A device node as sysfs names it: its name under /dev and its device number.
struct DeviceNode {
  std::string name;  // nvme0n1, ng0n1
  std::string path;  // dev_root/name
  dev_t rdev = 0;
};

// Where sysfs and the device nodes are ("/sys" and "/dev" except in tests).
struct SystemRoots {
  std::string sysfs = "/sys";
  std::string dev = "/dev";
};

// The generic char device of the namespace whose block device has number block_rdev: the block
// device's sibling ngXnY in sysfs (same controller or subsystem, /sys/class/nvme-generic/ngXnY/dev).
// A usage error when the block device is a partition, not an NVMe namespace, or has no ng node
// (a kernel before 5.13 has none).
Result<DeviceNode> generic_node_of_block(dev_t block_rdev, const SystemRoots& roots = {});

// The other way: the namespace block device a generic char device (number char_rdev) stands for,
// so that a user naming /dev/ngXnY is judged as /dev/nvmeXnY.
Result<DeviceNode> block_of_generic_node(dev_t char_rdev, const SystemRoots& roots = {});

// Opens a generic node found above (O_NOFOLLOW) and checks that the descriptor is the char device
// sysfs named, so a node swapped or replaced under /dev is refused rather than used.
Result<UniqueFd> open_generic_node(const DeviceNode& node, bool writable);

// The namespace id behind an open generic node (NVME_IOCTL_ID).
Result<uint32_t> namespace_id(int fd, const std::string& path);

// NVMe command set opcodes (NVM Command Set Specification 1.0, figure 16 "Opcodes for NVM Commands").
inline constexpr uint8_t kNvmeCmdWrite = 0x01;
inline constexpr uint8_t kNvmeCmdRead = 0x02;

// The NVMe read or write of len_bytes at offset_bytes of namespace nsid with logical blocks of
// lba_bytes, data at buffer_addr: SLBA in CDW10 (low) and CDW11 (high), the 0-based number of logical
// blocks in CDW12 bits 15:0 (NVM Command Set 1.0, 3.2.4 Read, 3.2.6 Write). Offset and length are
// whole blocks (validate() checks bs against the namespace's block size; at most 65536 blocks).
nvme_uring_cmd encode_nvme_rw(Direction d, uint64_t offset_bytes, uint32_t len_bytes, uint32_t lba_bytes, uint32_t nsid, uint64_t buffer_addr);

// The largest transfer one command may carry on the namespace (queue/max_hw_sectors_kb of its block
// device, and at most 65536 blocks); 0 when sysfs does not say.
uint64_t max_passthrough_bytes(dev_t block_rdev, uint32_t lba_bytes, const SystemRoots& roots = {});

}  // namespace diskvet::runner
