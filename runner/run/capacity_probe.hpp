// The address-integrity step of a device run: runner/verify's probe over the device's O_DIRECT
// target, its progress as run events, and its verdict for the device.
#pragma once

#include <atomic>
#include <string>

#include "runner/analysis/verdict.hpp"
#include "runner/io/target.hpp"
#include "runner/run/run_events.hpp"
#include "runner/verify/address_probe.hpp"
#include "suites/suite.hpp"

namespace diskvet::runner {

// Probes the whole claimed capacity of a writable target (blocks of max(4 KiB, logical block size)),
// stamped with `identity` (serial, WWN or path) and `seed`. A target that cannot be reopened gives a
// result with performed = false and `error` set.
AddressProbeResult probe_capacity(const Target& target, const std::string& identity, uint64_t seed, const suites::AddressProbeSpec& spec,
                                  RunEvents& ev, const std::string& device, const std::atomic<bool>* stop, std::string& error);

// PASS when every block held, FAIL with the finding when not, ERROR when it could not run.
Rollup capacity_probe_rollup(const AddressProbeResult& r, const std::string& error);

}  // namespace diskvet::runner
