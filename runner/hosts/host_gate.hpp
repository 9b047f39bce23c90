// The gate a multi-host run asks on each host (`diskvet gate`, over SSH): the host that owns the
// disks decides. Each named device is found by its identity, checked against the protection rules
// and the consent (devices/write_gate, the one gate), and, when it may be written, held open O_EXCL
// for as long as the gate lives, so nothing can mount or claim it during the run. A device that is
// not held is never named in a job file that writes.
#pragma once

#include <boost/json.hpp>

#include <string>
#include <vector>

#include "common/error.hpp"
#include "devices/consent.hpp"
#include "devices/write_gate.hpp"

namespace diskvet::runner {

struct GateDevice {
  std::string id;       // as asked
  std::string path;     // the /dev node it names on this host (empty when not found)
  bool write_asked = false;
  bool held = false;    // open O_EXCL by this gate: may be written
  std::string refusal;  // why it may not be written (or was not found); empty when held or read-only
  uint64_t size_bytes = 0;
  uint32_t logical_block_size = 0;
  std::string model, serial, wwn;
  std::string dev_id;      // "8:16" on that host
  std::string machine_id;  // that host's /etc/machine-id: one machine reached under two names
  // The unwritten-space probe, when asked: sampled blocks that read back all zeros.
  bool probed = false;
  uint32_t probe_samples = 0, probe_zero_samples = 0;
  bool unwritten = false;
  std::string probe_error;
};

struct GateRequest {
  std::vector<std::string> devices;  // identities
  devices::Consent consent;          // --destroy-data: which of them may be written
  uint32_t probe_samples = 0;        // > 0: read that many sampled blocks of each device (read only)
  double probe_max_zero_pct = 50;
  uint64_t probe_region_bytes = 0;   // the region probed from offset 0; 0: the whole device
};

class HostGate {
 public:
  // Decides for every device; never fails as a whole (each device carries its own refusal).
  static HostGate decide(const GateRequest& request);

  const std::vector<GateDevice>& devices() const { return devices_; }
  bool all_granted() const;  // every device asked for writing is held, every device was found
  boost::json::object to_json() const;

 private:
  std::vector<GateDevice> devices_;
  std::vector<devices::WriteGrant> grants_;  // the O_EXCL descriptors, released with the gate
};

// Whether two devices the gates answered for (on two hosts, or twice on one) are one device: the
// same serial of the same model, the same WWN, or the same device number on the same machine. The
// reason in words ("serial S1 of model M"), or empty. Run twice, its numbers would count twice.
std::string same_device(const GateDevice& a, const GateDevice& b);

// The gate's JSON as the controller reads it back.
Result<std::vector<GateDevice>> parse_gate_json(std::string_view text, const std::string& host);

}  // namespace diskvet::runner
