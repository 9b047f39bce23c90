// Counters that must add up (issue 26): the drive's own count of host writes over a run against
// what was sent to it. NVMe: SMART / Health Information log, Data Units Written (NVMe Base
// Specification, log page 02h, bytes 63:48: thousands of 512-byte units, rounded up, Write Zeroes
// and Write Uncorrectable not counted). SATA: attribute 241 in the unit smartctl's drive database
// names. What was sent: the host kernel's sectors written (sysfs stat) to everything the counter
// covers, else the bytes diskvet's own writes carried.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "devices/device.hpp"

namespace diskvet::devices {

// Bytes of one NVMe data unit: 1,000 units of 512 bytes.
inline constexpr uint64_t kNvmeDataUnitBytes = 512'000;
// How much more than diskvet sent this host's kernel may count for the device before another
// writer is named: diskvet's writes outside its engine runs are not in diskvet's own count.
inline constexpr uint64_t kOtherWriterToleranceBytes = 1u << 20;

enum class WriteCount { agrees, counted_less, counted_more };

struct WriteAccounting {
  std::string counter;           // "NVMe Data Units Written", "ATA attribute 241 Total_LBAs_Written"
  uint64_t unit_bytes = 0;
  uint64_t counted_units = 0;    // the counter's growth between the two snapshots
  uint64_t counted_bytes = 0;    // counted_units x unit_bytes
  // One unit: each reading is rounded (NVMe up, SATA down) to whole units, so their difference is
  // within one unit of the true count.
  uint64_t tolerance_bytes = 0;
  uint64_t sent_bytes = 0;       // what the counter is judged against
  std::string sent_source;       // "kernel" (sysfs sectors written) or "diskvet" (no kernel count)
  uint64_t diskvet_bytes = 0;    // every write diskvet sent the device during the run
  uint64_t passthrough_bytes = 0;  // of which through NVMe passthrough, which the kernel does not count
  std::optional<uint64_t> device_kernel_bytes;  // the kernel's count for the device alone
  // This host's kernel sent the device more than diskvet did (beyond kOtherWriterToleranceBytes):
  // another program wrote to it during the run, so the run's numbers are not the drive's alone.
  std::optional<uint64_t> other_writer_bytes;
  std::string other_writer;      // that, in words; empty when nobody else wrote
  WriteCount result = WriteCount::agrees;
  std::string words;             // the finding, or how the counts agree
  bool fails() const { return result != WriteCount::agrees; }
};

// Write amplification over a run: the bytes the drive wrote to its media (Physical Media Units
// Written, OCP Datacenter NVMe SSD Specification, SMART / Health Information Extended log C0h,
// bytes 15:0) over the host bytes it counted (Data Units Written). Evidence, never a verdict: a
// drive's garbage collection and wear levelling decide it, and no profile promises it.
struct WriteAmplification {
  bool available = false;                   // false: no OCP log in both snapshots; words say why
  std::optional<uint64_t> physical_bytes;   // Physical Media Units Written growth
  std::optional<uint64_t> host_bytes;       // Data Units Written growth, in bytes
  std::optional<double> factor;             // physical_bytes / host_bytes; nullopt when nothing was counted written
  std::string words;
};
// nullopt when the drive keeps no Data Units Written (not NVMe).
std::optional<WriteAmplification> write_amplification(const Health& before, const Health& after);

// The accounting over a run, from the snapshots before and after it and diskvet's own bytes
// written; nullopt when the drive keeps no write counter either snapshot has.
// `uncounted_bytes`: the part of diskvet_bytes the kernel's counters never see (NVMe passthrough
// commands go around the block layer that keeps them), added to the kernel's count and left out of
// what the kernel's count is held against when looking for another writer.
std::optional<WriteAccounting> account_writes(const Health& before, const Health& after, uint64_t diskvet_bytes, uint64_t uncounted_bytes = 0);

std::string_view to_string(WriteCount c);

}  // namespace diskvet::devices
