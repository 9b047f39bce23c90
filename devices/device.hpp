// Device: what discovery knows about one whole disk — identity, queue facts, protection, health.
// A plain value; discovery (discovery.cpp), NVMe (nvme.cpp), protection and health fill it in.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace diskvet::devices {

enum class DeviceKind { nvme, scsi, virtio, loop, zram, md, dm, other };

// A SATA/SAS counter that predicts failure, as `smartctl --json` reported it; compared across a run
// by smart_counters.hpp.
struct SmartCounter {
  std::string key;   // "ata-5", "scsi-grown-defects", "scsi-read-uncorrected"
  std::string name;  // "ATA attribute 5 Reallocated_Sector_Ct", "SCSI grown defect list"
  uint64_t raw = 0;
};

// An entry of an ATA SMART error log as `smartctl --json` gives it (ata_smart_error_log.extended or
// .summary, table[]): the drive's error number, the completion registers and smartctl's decoding.
struct AtaErrorLogEntry {
  uint64_t number = 0;  // the drive's error count when it logged this one (smartctl's error_number)
  std::optional<uint64_t> lifetime_hours;
  uint8_t error_register = 0, status_register = 0;
  std::optional<uint64_t> lba;  // completion_registers.lba
  std::string command;          // the command that failed (previous_commands[0].command_name)
  std::string description;      // smartctl's error_description: "Error: UNC at LBA = 0x0012d687 = 1234567"
};

// An ATA SMART error log: the Extended Comprehensive one (`-l xerror`, GP log 03h) or the Summary one
// (`-l error`, SMART log 01h, its last five errors).
struct AtaErrorLog {
  std::string log;      // "extended comprehensive" or "summary"
  uint64_t count = 0;   // the drive's count of errors over its life
  std::vector<AtaErrorLogEntry> entries;  // newest first, as many as smartctl printed
};

// An entry of the ATA SMART self-test log (ata_smart_self_test_log.standard.table[]).
struct AtaSelfTestLogEntry {
  uint8_t type = 0, status = 0;  // the test's number and its status byte (bits 7:4 the result)
  std::string type_words, status_words;
  std::optional<uint64_t> lifetime_hours, lba;
  bool operator==(const AtaSelfTestLogEntry&) const = default;
};

// An entry of the SAS self-test results log (SPC-4 log page 10h; smartctl's scsi_self_test_N).
struct ScsiSelfTestLogEntry {
  uint8_t code = 0;    // SELF-TEST CODE (byte 4 bits 7:5): 1 background short, 2 background extended, 5/6 foreground
  uint8_t result = 0;  // SELF-TEST RESULTS (byte 4 bits 3:0): 0 completed, 1-2 aborted, 3-7 failed, Fh in progress
  std::string code_words, result_words;
  std::optional<uint64_t> segment, power_on_hours, lba;  // the failed segment (SELF-TEST NUMBER), the address of first failure
  std::optional<uint64_t> sense_key, asc, ascq;
  std::string sense_words;  // the sense key in smartctl's words ("Medium Error")
  bool operator==(const ScsiSelfTestLogEntry&) const = default;
};

// One direction of the SAS error counter log (SPC-4 log pages 02h, 03h, 05h).
struct ScsiErrorCounters {
  std::string direction;  // "read", "write", "verify"
  uint64_t corrected = 0, uncorrected = 0;
};

// Health as far as it is known; a field that could not be read is nullopt, never zero.
struct Health {
  bool known = false;  // false: no SMART/health source (the report says "unknown", never "healthy")
  std::string source;  // "nvme", "smartctl", "hwmon" (temperature only: health stays unknown)
  std::optional<bool> smart_passed;  // SATA/SAS: smartctl's overall self-assessment
  std::optional<uint64_t> reallocated_sectors;  // SATA attribute 5 / SAS grown defect list
  std::optional<uint64_t> pending_sectors;      // SATA attribute 197
  // SATA attributes 5, 187, 188, 197, 198, 199 and SAS grown defects and uncorrected errors, each
  // as the drive counts it; empty without smartctl.
  std::vector<SmartCounter> smart_counters;
  std::optional<uint8_t> critical_warning;
  std::optional<double> temperature_c;
  std::optional<double> warning_temp_c;
  std::optional<double> critical_temp_c;
  std::optional<uint8_t> available_spare_pct;
  std::optional<uint8_t> available_spare_threshold_pct;
  std::optional<uint8_t> percentage_used;
  std::optional<uint64_t> data_units_read;
  std::optional<uint64_t> data_units_written;
  std::optional<uint64_t> media_errors;
  std::optional<uint64_t> error_log_entries;
  // NVMe: the Error Information log's entries as read with this snapshot, newest first (raw 64-byte
  // entries, decoded by nvme_error_log.hpp); nullopt when it was not read. Not in the JSON: what a
  // run added is judged and reported on its own (runner/run).
  std::optional<std::vector<std::array<uint8_t, 64>>> error_log;
  // SATA/SAS: the error and self-test logs smartctl read with this snapshot (smart_logs.hpp); not in
  // the JSON either: what a run added is judged and reported on its own.
  std::optional<AtaErrorLog> ata_error_log_extended, ata_error_log_summary;
  std::optional<std::vector<AtaSelfTestLogEntry>> ata_self_test_log;  // newest first
  std::vector<ScsiErrorCounters> scsi_error_counters;
  // SAS: the self-test results log, newest first (its last 20 tests); nullopt when smartctl did not
  // show it (an empty log prints nothing, so it counts as read only when smartctl reported no failure).
  std::optional<std::vector<ScsiSelfTestLogEntry>> scsi_self_test_log;
  // NVMe: Physical Media Units Written (bytes) from the OCP Datacenter NVMe SSD SMART / Health
  // Information Extended log (log page C0h); nullopt without it, and ocp_log_absent says why.
  std::optional<uint64_t> ocp_physical_bytes_written;
  std::string ocp_log_absent;
  std::optional<uint32_t> warning_temp_time_min;
  std::optional<uint32_t> critical_temp_time_min;
  std::optional<uint32_t> thermal_transitions;  // sum of the thermal-management transition counts
  // The drive's own count of host writes on SATA: attribute 241 as smartctl's drive database names
  // it (Total_LBAs_Written in logical sectors, Host_Writes_32MiB, Host_Writes_GiB...), in bytes per
  // unit; NVMe's is data_units_written. Read by the write accounting (write_accounting.hpp).
  std::optional<uint64_t> ata_written_units;
  uint64_t ata_written_unit_bytes = 0;
  std::string ata_written_attribute;
  // What this host's kernel sent (sysfs stat, 512-byte sectors whatever the block size) to every
  // block device the drive's counter covers (each namespace of the NVMe controller), and to the
  // device itself; passthrough commands (nvme-cli io-passthru, SG_IO) are not in these.
  std::optional<uint64_t> host_sectors_written;
  std::optional<uint64_t> device_sectors_written;
  // Why the device is unhealthy, in words; empty when healthy or unknown.
  std::vector<std::string> problems;
  bool healthy() const { return known && problems.empty(); }
};

// NVMe controller and namespace facts from Identify and the Firmware Slot log (nvme.cpp).
struct NvmeFacts {
  uint16_t vendor_id = 0;
  uint16_t oacs = 0;  // Optional Admin Command Support bits
  bool format_supported = false;
  bool sanitize_crypto_erase = false, sanitize_block_erase = false, sanitize_overwrite = false;
  uint32_t namespace_count = 0;
  std::vector<uint32_t> lba_format_bytes;  // data size of each LBA format
  uint8_t lba_format_in_use = 0;
  uint64_t capacity_blocks = 0;
  uint8_t active_firmware_slot = 0;
  std::vector<std::string> firmware_slots;  // revisions in slots 1..7; "" when empty
};

// The file system a file target lives on, from /proc/self/mountinfo (file_system.cpp): what the
// report names for a test file on a mounted volume. NFS fields are filled only for nfs and nfs4.
struct FileSystemFacts {
  std::string mountpoint;
  std::string fstype;         // "ext4", "xfs", "nfs4", ...
  std::string source;         // "/dev/sdb1", "server:/export"
  std::string mount_options;  // per-mount: "rw,relatime"
  std::string super_options;  // per-superblock: "rw,vers=4.2,rsize=1048576,..."
  std::string nfs_server;     // addr= of the superblock options, else the host part of the source
  std::string nfs_version;    // vers=
  uint64_t nfs_rsize_bytes = 0;
  uint64_t nfs_wsize_bytes = 0;
  bool direct_io = true;      // false: the file system refused O_DIRECT and the run used the page cache
};

struct Device {
  std::string path;  // /dev/nvme0n1
  std::string name;  // nvme0n1
  DeviceKind kind = DeviceKind::other;
  std::string model, serial, wwn, firmware, bus, id_path;
  std::string vendor;        // SCSI vendor string, or the NVMe PCI vendor id as hex
  std::string backing_file;  // loop devices
  std::string dev_id;        // "major:minor"
  std::string sysfs_path;    // the canonical /sys/devices/... directory of the disk
  std::vector<std::string> partitions;  // kernel names: nvme0n1p1, sda2
  std::string nvme_controller;          // NVMe: a controller's kernel name (nvme0) for admin commands
  uint32_t nvme_nsid = 0;               // NVMe: namespace id
  // The id that names this disk alone among the host's disks for --destroy-data (identity.hpp's
  // consent_id): its serial, SERIAL/NSID for a namespace of a multi-namespace controller, or its
  // WWN; empty when only its path does. Filled by discover() over the whole list.
  std::string consent_id;
  uint64_t size_bytes = 0;
  uint32_t logical_block_size = 512;
  uint32_t physical_block_size = 512;
  bool rotational = false;
  bool removable = false;
  bool read_only = false;
  std::string write_cache;  // "write back" / "write through" as sysfs says
  bool discard = false;
  uint64_t max_transfer_bytes = 0;
  std::string scheduler;
  std::string zoned;
  bool is_protected = false;
  std::vector<std::string> protection_reasons;  // in words: "mounted at /boot", "has a GPT partition table"
  // True when every reason is a partition table or a signature: consent naming the serial or WWN
  // may override it; mounted, held, swap, root, boot-medium and read-only devices never.
  bool protection_overridable = false;
  Health health;
  std::optional<NvmeFacts> nvme;  // NVMe devices whose controller answered Identify
  std::optional<FileSystemFacts> file_system;  // file targets: the volume the file is on
};

std::string_view to_string(DeviceKind k);
std::optional<DeviceKind> parse_device_kind(std::string_view text);

}  // namespace diskvet::devices
