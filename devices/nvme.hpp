// NVMe through libnvme 1.3 (as Debian 12 ships it): Identify Controller/Namespace, SMART/Health
// and Firmware Slot logs read as raw buffers and parsed by nvme_layout; the topology scan that maps
// namespaces (multipath subsystem heads and per-controller ones) to controllers.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "devices/device.hpp"
#include "devices/nvme_layout.hpp"

namespace diskvet::devices {

struct NvmeReading {
  NvmeController controller;
  std::optional<NvmeNamespace> ns;
  std::optional<NvmeFirmwareSlots> firmware;
  Health health;  // unknown when the SMART log could not be read
};

// Asks the device's controller (d.nvme_controller, else the namespace node itself); nullopt when
// Identify Controller fails (not NVMe, no permission, controller gone).
std::optional<NvmeReading> read_nvme(const Device& d);

// Fills identity (model, serial, firmware, vendor), NvmeFacts and health from a reading.
void apply(Device& d, const NvmeReading& r);

// Namespace block-device name -> a controller's name, over every subsystem's namespaces
// (multipath heads) and every controller's own namespaces; empty without NVMe.
std::map<std::string, std::string> nvme_namespace_controllers();

}  // namespace diskvet::devices
