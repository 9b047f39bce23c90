// How an operator names a device (consent, --device, find_device): path, serial, WWN, or an NVMe
// namespace as SERIAL/NSID; and which of those name one device alone among the host's disks.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "devices/device.hpp"

namespace diskvet::devices {

// namespace_id: "SERIAL/NSID", a controller's serial and one of its namespaces (NVMe).
enum class IdForm { path, serial, wwn, namespace_id };

// A WWN without its notation: "naa.5000C500A1B2C3D4", "0x5000c500a1b2c3d4" and
// "5000c500a1b2c3d4" all become "5000c500a1b2c3d4"; "eui.0025385b71b0a2c1" -> "0025385b71b0a2c1".
std::string normalize_wwn(std::string_view wwn);

// Which of the device's identities `id` is, if any. Paths are compared as given: resolve
// symlinks first (resolve_device_path). The path form also accepts the bare kernel name.
std::optional<IdForm> identifies(const Device& d, std::string_view id);

// "S4EWNX0R123456/2" for namespace 2 of that controller; empty unless d is an NVMe namespace with
// a serial and a namespace id.
std::string namespace_id(const Device& d);

// Whether `id`, in the serial or WWN form, also names another disk of `host_disks` (the host's
// whole disks; d itself is recognised by its path): the serial of a controller with several
// namespaces, a serial or WWN seen through several paths of one LUN, a cloned serial.
bool names_another(const Device& d, std::string_view id, const std::vector<Device>& host_disks);

// The ids that name d alone among `host_disks` and are strong enough for any consent, best first:
// its serial when no other disk has it, SERIAL/NSID for an NVMe namespace, its WWN when no other
// disk has it. Empty when only its path names it.
std::vector<std::string> exact_ids(const Device& d, const std::vector<Device>& host_disks);

// The first of exact_ids, or "" (what `diskvet list` shows as the device's consent ID).
std::string consent_id(const Device& d, const std::vector<Device>& host_disks);

// Whether two disks are one medium seen twice (multipath paths of one LUN, one namespace through
// two controllers): the same WWN, or the same serial and namespace where neither has a WWN.
bool same_medium(const Device& a, const Device& b);

// A /dev symlink (by-id, by-path) resolved to the node it points at; anything else unchanged.
std::string resolve_device_path(std::string_view id);

}  // namespace diskvet::devices
