// Discovery: every whole disk on the host (NVMe namespaces, SCSI/SATA/SAS, virtio, loop, zram,
// md, dm) as a Device with identity, queue facts, protection and health.
#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "devices/device.hpp"
#include "devices/host_paths.hpp"
#include "devices/udev_db.hpp"

namespace diskvet::devices {

struct DiscoveryOptions {
  HostPaths host;
  bool use_udev = true;            // enumerate and read identity through libudev (live host only)
  bool assess_protection = true;   // fill is_protected / protection_reasons
  bool read_health = true;         // NVMe SMART, smartctl, hwmon
  bool include_empty = false;      // also list disks of size 0 (unbound loop devices, empty readers)
};

// Every whole disk, sorted by name. An error only when the sysfs block directory is unreadable.
Result<std::vector<Device>> discover(const DiscoveryOptions& options = {});

// Identity and queue facts of one disk from its sysfs directory (<sysfs>/block/NAME or the
// canonical /sys/devices/... path), udev properties overriding sysfs where present. nullopt when
// the directory is not a whole disk.
std::optional<Device> describe_disk(const std::filesystem::path& sysdir, const HostPaths& host,
                                    const UdevProperties& udev = {});

// Every whole disk's identity from sysfs alone (describe_disk without udev: no device is opened),
// empty disks too: the host's disks the write gate compares a disk's serial and WWN with.
std::vector<Device> describe_disks(const HostPaths& host);

// The one device that `id` names: a /dev path (symlinks such as /dev/disk/by-id/ resolved), a
// kernel name, a serial, SERIAL/NSID or a WWN. Usage error when none or several match.
Result<Device> find_device(std::string_view id, const DiscoveryOptions& options = {});
// The same lookup in an already discovered list.
Result<Device> find_device(std::string_view id, const std::vector<Device>& devices);

}  // namespace diskvet::devices
