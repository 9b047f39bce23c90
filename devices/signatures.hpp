// What is written on a device: partition table, filesystem, RAID or LVM signature (libblkid probe).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/fd.hpp"

namespace diskvet::devices {

struct Signatures {
  std::string partition_table;   // "gpt", "dos"; empty when none
  size_t partition_count = 0;
  std::string type;              // superblock TYPE: "ext4", "swap", "LVM2_member", "linux_raid_member"
  std::string usage;             // libblkid USAGE: "filesystem", "raid", "crypto", "other"
  std::string label;
  bool ambivalent = false;       // several signatures at once (libblkid safeprobe returned -2)
  bool any() const { return !partition_table.empty() || !type.empty() || ambivalent; }
};

// Probes a block device node (opened read-only and without O_EXCL, never written). An error when it cannot be read:
// the caller must treat an unprobed device as protected.
// With `dev_id` ("8:16") the node opened must be that device (fstat), or it is an error.
Result<Signatures> probe_signatures(const std::string& node, const std::string& dev_id = {});

// "an ext4 filesystem signature", "an LVM physical volume signature (LVM2_member)".
std::string describe_signature(const Signatures& s);

}  // namespace diskvet::devices

namespace diskvet::devices {

// Who a node is, by the names a boot loader or fstab uses (UUID=, LABEL=, PARTUUID=, PARTLABEL=).
struct VolumeFacts {
  std::string type, label, uuid;        // the file system's (libblkid TYPE, LABEL, UUID)
  std::string part_uuid, part_label;    // the partition table entry's, for a partition
  UniqueFd fd;                          // the node, open read-only (no O_EXCL), to read further
};
// nullopt when the node cannot be opened; empty fields when nothing was recognised.
// With `dev_id` the node opened must be that device (fstat); nullopt otherwise.
std::optional<VolumeFacts> probe_volume(const std::string& node, const std::string& dev_id = {});

// A kernel-command-line device spec ("/dev/sda1", "UUID=...", "PARTUUID=...", "LABEL=...") as the
// device node it names, via libblkid's tag evaluation; empty when nothing matches.
std::string resolve_device_spec(const std::string& spec);

}  // namespace diskvet::devices
