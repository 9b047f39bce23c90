// The kernel's word on a tested device: /dev/kmsg read while the device runs, and the lines that
// name it (timeouts, aborts, controller and link resets, I/O errors) kept with their time. Parsing
// and matching are pure functions; KernelLogWatch is the one part that reads the kernel log.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace diskvet::runner {

// One /dev/kmsg record: "<prefix>;<text>" where the prefix is "level,seq,timestamp_us,flags[,...]"
// (Documentation/ABI/testing/dev-kmsg); the level is the prefix's first field & 7.
struct KmsgRecord {
  int level = 6;
  uint64_t seq = 0;
  uint64_t ts_us = 0;  // the kernel's clock (CLOCK_MONOTONIC-like, since boot)
  std::string text;    // the message, continuation lines (" KEY=value") dropped
};
std::optional<KmsgRecord> parse_kmsg_record(std::string_view raw);

// What a line says about a device, or nullopt when it is none of the kinds kept:
// "controller-reset", "link-reset", "timeout", "abort", "io-error".
std::optional<std::string_view> kernel_event_kind(std::string_view text);
// Which of `names` the line names as a whole word (nvme0 in "nvme nvme0: ...", never in "nvme0n1").
std::optional<std::string> named_device(std::string_view text, const std::vector<std::string>& names);
// Kinds that FAIL the device by themselves (a reset: the device stopped answering).
bool fails_device(std::string_view kind);

// The kernel names lines about a device use: its own (nvme0n1, sda, loop3), its NVMe controller
// (nvme0), and for SCSI/ATA disks the ATA link and SCSI address from its sysfs path (ata3, 2:0:0:0).
std::vector<std::string> kernel_names(const std::string& block_name, const std::string& nvme_controller, const std::string& sysfs_realpath);

struct KernelLogLine {
  double kernel_s = 0;  // the kernel's timestamp
  double t_s = 0;       // from the start of the device's run (the watch's start)
  int level = 6;
  std::string kind;
  std::string device;   // the name it matched
  std::string text;
};

struct KernelLog {
  bool read = false;       // false: the kernel log could not be read, `note` says why
  std::string note;        // what to know about the capture (not readable, records lost)
  std::vector<KernelLogLine> lines;  // the first kMaxLines, in order
  uint64_t dropped = 0;    // matching lines past kMaxLines
  static constexpr size_t kMaxLines = 200;
};

// Reads /dev/kmsg from now on (non-blocking, on its own thread) and keeps the lines about `names`.
class KernelLogWatch {
 public:
  explicit KernelLogWatch(std::vector<std::string> names, const char* path = "/dev/kmsg");
  ~KernelLogWatch();
  KernelLogWatch(const KernelLogWatch&) = delete;
  KernelLogWatch& operator=(const KernelLogWatch&) = delete;
  // Reads what is left and stops; what was kept.
  KernelLog finish();

 private:
  void loop();
  void drain();
  std::vector<std::string> names_;
  int fd_ = -1;
  uint64_t start_ns_ = 0;
  uint64_t lost_ = 0;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  KernelLog log_;
  std::thread thread_;
};

}  // namespace diskvet::runner
