// The address-integrity probe (issue 27, the method of f3probe): writes verification blocks (the
// burn-in's format: device, address, run, checksum) at the addresses of an AddressPlan, writes a
// flush range so a cache of plausible size no longer holds them, reads them all back, and names what
// each address really stores: its own block, another address's (aliasing: the drive wraps), zeros,
// the data it held before (a lost write), garbage, or an error. Where bad blocks begin, rounds of
// bisection narrow the real capacity down to one block. The I/O goes through ProbeDevice, so the
// whole method runs on a fake device in tests; runner/run gives it the O_DIRECT target.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/object.hpp>

#include "runner/verify/address_plan.hpp"
#include "runner/verify/verify_block.hpp"

namespace diskvet::runner {

// Whole blocks at block-aligned offsets; buffers aligned to 4096. Each returns 0 or an errno.
class ProbeDevice {
 public:
  virtual ~ProbeDevice() = default;
  virtual int read(uint64_t offset_bytes, std::byte* buf, size_t len) = 0;
  virtual int write(uint64_t offset_bytes, const std::byte* buf, size_t len) = 0;
};

enum class AddressFault : uint8_t {
  aliased,      // the block of another address: the drive maps both to one place
  zeros,        // all zeros: the write was dropped
  stale,        // what the address held before the write (or an earlier run's block): the write was lost
  garbage,      // neither what was written nor what was there
  write_error,
  read_error,
};
inline constexpr size_t kAddressFaultKinds = 6;
std::string_view to_string(AddressFault f);

struct AddressEvidence {
  uint64_t block = 0;
  AddressFault fault = AddressFault::garbage;
  uint64_t tag_block = 0;  // aliased: the block whose tag it carries
  int error = 0;           // write_error, read_error: the errno
};

// How one block read back: nullopt when it holds exactly what was written for `expected`.
// `old_crc` is the crc32c of what the block held before the write; tag_block is set for aliasing.
std::optional<AddressFault> classify_block(const std::byte* block, const BlockIdentity& expected, uint32_t old_crc, Crc32cFn crc,
                                           uint64_t& tag_lba);

struct AddressProbeOptions {
  uint64_t budget_bytes = 0;        // 0: default_probe_budget_bytes
  uint64_t flush_bytes = 0;         // 0: default_probe_flush_bytes
  uint32_t bisect_per_round = 32;   // blocks per bisection round
  uint32_t max_rounds = 16;
};

struct AddressProbeResult {
  bool performed = false;
  bool interrupted = false;
  uint64_t claimed_bytes = 0;
  uint64_t real_bytes = 0;          // the capacity that held every block (== claimed when nothing was found)
  uint32_t block_bytes = 0;
  uint64_t budget_bytes = 0;
  uint64_t flush_bytes = 0;         // written between writing and reading back, each pass
  uint64_t blocks_planned = 0;
  uint64_t blocks_checked = 0;      // read back and judged, bisection included
  uint64_t bytes_written = 0;       // probe blocks and flushes
  uint32_t bisect_rounds = 0;
  std::array<uint64_t, kAddressFaultKinds> faults{};  // bad blocks by AddressFault
  std::optional<uint64_t> lowest_bad_block;
  std::optional<uint64_t> highest_good_block;   // the highest good block below the lowest bad one
  std::optional<uint64_t> wrap_period_blocks;   // aliasing: the smallest distance between a block and the tag it carried
  std::vector<AddressEvidence> evidence;        // the first few of each kind, lowest blocks first
  uint64_t bad_blocks() const;
  bool failed() const { return bad_blocks() > 0; }
  std::string summary() const;                  // one line, for the report and the verdict
};

using ProbeProgress = std::function<void(const std::string& stage, double fraction)>;

// Runs the probe on `dev` of `capacity_bytes`, in blocks of `block_bytes` (a multiple of the logical
// block size, at least 4096), identity and seed stamped into every block. `stop` ends it early
// (interrupted). Never throws on device errors: they are findings.
AddressProbeResult run_address_probe(ProbeDevice& dev, uint64_t capacity_bytes, uint32_t block_bytes, uint32_t logical_block_bytes,
                                     uint64_t device_hash, uint64_t seed, const AddressProbeOptions& options, const ProbeProgress& progress = {},
                                     const std::atomic<bool>* stop = nullptr);

// The report's "capacity_probe" object.
boost::json::object address_probe_json(const AddressProbeResult& r);

}  // namespace diskvet::runner
