// The kernel's fastest paths a suite may ask for (suites' "fast_path"), decided per device at plan
// time, before anything is written: NVMe passthrough (engine io_uring_cmd on the namespace's generic
// char device) and polled completions (hipri), each where the device has it, and in words why not
// where it does not.
#pragma once

#include <string>

#include "runner/io/target.hpp"
#include "runner/io/workload.hpp"
#include "suites/suite.hpp"

namespace diskvet::runner {

struct FastPath {
  bool asked = false;          // the suite's fast_path.enabled
  bool passthrough = false;    // the generic char device is attached and answered one read
  std::string node;            // "/dev/ng0n1" when passthrough
  std::string no_passthrough;  // why not, in words (empty when passthrough, or not asked)
  bool polls = false;          // the device's queue has poll queues
  std::string no_poll;         // why not, in words
  // Both, and one read came back through a polled passthrough ring (Linux 6.1 or later).
  bool polled_passthrough = false;
  std::string no_polled_passthrough;
};

// The suite names io_uring_cmd in a workload, or asks for the fast path: the device's generic char
// device must be attached (the engine opens it per job).
bool suite_uses_passthrough(const suites::Suite& suite);

// Attaches the target's passthrough node when the suite needs it (suite_uses_passthrough) and, when
// it asks for the fast path, probes it with one read and checks the queue for poll queues. Never
// refuses: what the device lacks is recorded, and a workload that names io_uring_cmd on a device
// without it is refused by the plan check (check_passthrough) with the reason.
FastPath prepare_fast_path(Target& target, const suites::Suite& suite);

// The workload as it runs on a device offering `fp`: one on the io_uring block path takes
// passthrough and polling where polled passthrough answered and both are valid for it, else passthrough alone (not for a
// workload that spins: spinning on the block path is the better of the two without polling), else
// polling alone (its spin dropped: the polled ring spins on the device itself), else runs as written.
// Workloads that name another engine, hipri or a CPU spin that cannot become polling stay as written.
Workload apply_fast_path(const Workload& w, const FastPath& fp, const TargetInfo& info);

// "NVMe passthrough /dev/ng0n1, polled completions", "block path (not an NVMe namespace; ...)".
std::string describe(const FastPath& fp);

}  // namespace diskvet::runner
