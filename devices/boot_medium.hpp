// The medium diskvet booted from, recognised by what it is rather than by where it is mounted: the
// per-build marker file on a diskvet stick's DISKVET partition, the image's ISO 9660 volume, and
// the boot loader's diskvet.boot= (image/grub.cfg). Read from the device nodes, never mounted.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "devices/device.hpp"
#include "devices/host_paths.hpp"

namespace diskvet::devices {

// The marker image/build.sh writes to the DISKVET partition and init compares with its own copy.
inline constexpr std::string_view kMediumMarkerFile = "diskvet-medium-id";
// The ISO 9660 volume id image/build.sh gives the image.
inline constexpr std::string_view kImageVolumeLabel = "DISKVET_BOOT";

// What one node of a disk (the disk itself or a partition) says about itself.
struct NodeIdentity {
  std::string who;     // "" for the disk, "partition sdb3"
  std::string node;    // its device node
  std::string dev_id;  // "8:19"
  std::string type, label, uuid, part_uuid, part_label;  // libblkid's names
  std::optional<std::string> medium_marker;              // the marker file's contents, when a FAT has it
};

// The disk node and each partition's node that exists, probed read-only without O_EXCL.
std::vector<NodeIdentity> identify_nodes(const Device& d, const HostPaths& host);

// Whether a boot-loader device spec (UUID=, LABEL=, PARTUUID=, PARTLABEL=, or a /dev path) names
// this node. UUIDs compare without regard to case, as libblkid and GRUB print them differently.
bool spec_names(std::string_view spec, const NodeIdentity& n);

// Every piece of evidence that the disk is the boot medium, in words ("diskvet medium marker
// 0123abcd on partition sdb3", "diskvet.boot=UUID=... names partition sdb1"); empty when none.
// `boot_spec` is the kernel command line's diskvet.boot= value (empty when absent).
std::vector<std::string> boot_medium_evidence(const std::vector<NodeIdentity>& nodes, std::string_view boot_spec);

}  // namespace diskvet::devices
