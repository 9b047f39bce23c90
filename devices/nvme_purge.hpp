// NVMe purge of the namespace the protection gate opened: Identify through that very descriptor,
// the decision (nvme_purge_plan.hpp), Format NVM or Sanitize, waiting out a sanitize, then checks
// that the block device kept its size and drops its cached pages.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "devices/nvme_purge_plan.hpp"

namespace diskvet::devices {

struct NvmePurgeOutcome {
  std::optional<NvmePurgeMethod> method;  // set when the controller accepted a purge command
  bool ok = false;                        // the purge finished and the device kept its size
  std::string detail;                     // what was done, or why nothing was, or what failed
  double duration_s = 0;                  // from the command to the end of the checks
};

// fraction 0..1, the remaining time when known, and a line of detail.
using NvmePurgeProgress = std::function<void(double fraction, std::optional<double> eta_s, const std::string& detail)>;

struct NvmePurgeLimits {
  uint32_t format_timeout_ms = 60 * 60 * 1000;  // one Format NVM command (user data erase is slow on large drives)
  std::optional<double> sanitize_timeout_s;     // default: sanitize_timeout_s() from the controller's estimate
  double poll_interval_s = 1.0;
};

// Polls the Sanitize Status log through `read` until the sanitize started with `cdw10` is done,
// has failed, or `limit_s` has passed, reporting progress on the way. Empty when it finished,
// else what went wrong, in words.
using SanitizeStatusReader = std::function<std::optional<NvmeSanitizeStatus>()>;
std::string wait_for_sanitize(const SanitizeStatusReader& read, uint32_t cdw10, double limit_s, double poll_interval_s,
                              const NvmePurgeProgress& progress);

// `fd` must be a namespace block device opened for writing: the descriptor the protection gate
// returned (or a reopen of it). Anything else, a refusal by decide_nvme_purge, or a command the
// controller rejects leaves `method` unset and the device untouched; the detail says why.
NvmePurgeOutcome nvme_purge(int fd, const std::string& path, const NvmePurgeProgress& progress = {}, const NvmePurgeLimits& limits = {});

}  // namespace diskvet::devices
