// NVMe through libnvme 1.3 (as Debian 12 ships it): Identify Controller/Namespace, SMART/Health
// and Firmware Slot logs read as raw buffers and parsed by nvme_layout; the topology scan that maps
// namespaces (multipath subsystem heads and per-controller ones) to controllers.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "devices/device.hpp"
#include "devices/nvme_layout.hpp"
#include "devices/nvme_purge_plan.hpp"

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

// Through an open namespace block device (the descriptor the protection gate holds): its NSID, and
// Identify Controller, Identify Namespace and the active and allocated namespace lists, as
// decide_nvme_purge needs them; nullopt when the descriptor is not an NVMe namespace.
std::optional<NvmePurgeInputs> read_nvme_purge_inputs(int fd);
// Sends one admin command that moves no data. Returns 0, the NVMe status (> 0), or -errno.
int send_nvme_admin(int fd, const NvmeAdminCommand& c, uint32_t timeout_ms);
std::optional<NvmeSanitizeStatus> read_sanitize_status(int fd);
// An NVMe status (send_nvme_admin's positive return) in words, with its value.
std::string nvme_status_words(int status);

// Namespace block-device name -> a controller's name, over every subsystem's namespaces
// (multipath heads) and every controller's own namespaces; empty without NVMe.
std::map<std::string, std::string> nvme_namespace_controllers();

}  // namespace diskvet::devices
