// Protection: every reason a device must not be written, in words, each with its class so the
// consent rules can tell what an operator may override (partitions, signatures) from what they
// never may (mounted, held, swap, root, boot medium, read-only, busy).
#pragma once

#include <string>
#include <vector>

#include "devices/device.hpp"
#include "devices/host_paths.hpp"
#include "devices/stack_facts.hpp"

namespace diskvet::devices {

enum class ProtectionClass {
  mounted,          // the disk or a partition is mounted
  holders,          // LVM, MD or dm sits on the disk or a partition
  swap,             // the disk or a partition is an active swap area
  root,             // backs the running root filesystem
  boot_medium,      // the medium the system (or the diskvet image) booted from
  read_only,        // sysfs ro or BLKROGET
  busy,             // open for writing by another program (/proc/PID/fd); O_EXCL holders: at the gate
  stacked,          // itself a dm/md device: writing it writes the disks below
  unprobed,         // could not be examined: fail closed
  partition_table,  // overridable by serial/WWN consent
  signature,        // filesystem, RAID, LVM, swap signature: overridable by serial/WWN consent
};

bool overridable(ProtectionClass c);

struct ProtectionReason {
  ProtectionClass cls;
  std::string text;  // "is mounted at /boot", "has a gpt partition table (2 partitions)"
};

struct Protection {
  std::vector<ProtectionReason> reasons;
  bool is_protected() const { return !reasons.empty(); }
  // Protected, and only by partition tables or signatures.
  bool only_overridable() const;
  std::vector<std::string> texts() const;
};

// Assessing only looks: it reads sysfs, /proc and the device's first blocks, never opens a device
// O_EXCL (that moment could make another program's exclusive open fail: mkfs, mdadm, a mount).
// The write gate's own O_EXCL open is the only claim, for a device about to be written.
struct ProtectionProbes {
  bool signatures = true;  // libblkid; off only for fake sysfs trees (no device nodes to read)
  // The host's mounts, loop devices and writers (stack_facts.hpp), read once for many devices;
  // null: read them for this one assessment.
  const StackFacts* facts = nullptr;
};
// Every protection rule against the live (or fake) host, on the device and on every device and file
// in its storage stack (loop backings, loop devices over it, siblings sharing a backing file). The Device needs name, path, kind,
// dev_id, partitions and read_only as discovery fills them.
Protection assess_protection(const Device& d, const HostPaths& host = {}, const ProtectionProbes& probes = {});

// Copies the assessment into the Device's is_protected / protection_reasons / protection_overridable.
void apply(Device& d, const Protection& p);

}  // namespace diskvet::devices
