// Issuing the purge decide_nvme_purge chose, through the gate's descriptor, and checking after it.
#include "devices/nvme_purge.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "devices/nvme.hpp"

namespace diskvet::devices {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string capabilities(const NvmePurgeInputs& in) {
  std::string ids = "unknown";
  if (in.active_nsids) {
    ids.clear();
    for (uint32_t id : *in.active_nsids) ids += fmt::format("{}{}", ids.empty() ? "" : ",", id);
  }
  return fmt::format("Identify: OACS 0x{:04x}, FNA 0x{:02x}, SANICAP 0x{:08x}, CMIC 0x{:02x}, active namespaces {}", in.controller.oacs,
                     in.controller.fna, in.controller.sanicap, in.controller.cmic, ids);
}

// After the erase: the page cache must not serve blocks from before it (BLKFLSBUF); partitions
// the kernel still knows are dropped (BLKRRPART: EBUSY under the run's own O_EXCL hold is expected);
// and the size must be what it was, or the run's region would be wrong.
std::string check_after(int fd, uint64_t size_before, bool& ok) {
  std::vector<std::string> notes;
  if (::ioctl(fd, BLKFLSBUF, 0) != 0) notes.push_back(fmt::format("BLKFLSBUF failed ({})", std::strerror(errno)));
  else notes.push_back("page cache dropped");
  if (::ioctl(fd, BLKRRPART, 0) == 0) notes.push_back("partitions re-read");
  else if (errno == EBUSY) notes.push_back("partitions not re-read (the run holds the device exclusively)");
  else notes.push_back(fmt::format("partitions not re-read ({})", std::strerror(errno)));
  uint64_t size_after = 0;
  if (::ioctl(fd, BLKGETSIZE64, &size_after) != 0) {
    ok = false;
    notes.push_back(fmt::format("cannot read the size afterwards ({})", std::strerror(errno)));
  } else if (size_after != size_before) {
    ok = false;
    notes.push_back(fmt::format("the size changed from {} to {} bytes", size_before, size_after));
  } else {
    notes.push_back(fmt::format("size unchanged ({} bytes)", size_after));
  }
  std::string s;
  for (const auto& n : notes) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

std::string wait_for_sanitize(const SanitizeStatusReader& read, uint32_t cdw10, double limit_s, double poll_interval_s,
                              const NvmePurgeProgress& progress) {
  const auto t0 = Clock::now();
  bool ever_read = false;
  for (;;) {
    if (auto s = read()) {
      ever_read = true;
      SanitizeProgress p = judge_sanitize(*s, cdw10);
      if (p.state == SanitizeProgress::State::done) return "";
      if (p.state == SanitizeProgress::State::failed) return p.detail;
      std::optional<double> eta;
      if (p.fraction > 0.01) eta = since(t0) * (1 - p.fraction) / p.fraction;
      if (progress) progress(p.fraction, eta, fmt::format("sanitize {:.0f}% done", 100 * p.fraction));
    }
    if (since(t0) > limit_s)
      return fmt::format("not finished after {:.0f} s (the limit from the controller's estimate){}: the drive may still be sanitizing",
                         since(t0), ever_read ? "" : ", and the Sanitize Status log could not be read meanwhile");
    std::this_thread::sleep_for(std::chrono::duration<double>(poll_interval_s));
  }
}

NvmePurgeOutcome nvme_purge(int fd, const std::string& path, const NvmePurgeProgress& progress, const NvmePurgeLimits& limits) {
  NvmePurgeOutcome out;
  // The gate opens read-write only with consent: a descriptor without write access means none.
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || (flags & O_ACCMODE) != O_RDWR) {
    out.detail = fmt::format("no NVMe purge: {} was not opened for writing through the protection gate", path);
    return out;
  }
  struct stat st{};
  if (::fstat(fd, &st) != 0 || !S_ISBLK(st.st_mode)) {
    out.detail = fmt::format("no NVMe purge: {} is not a block device", path);
    return out;
  }
  auto in = read_nvme_purge_inputs(fd);
  if (!in) {
    out.detail = fmt::format("no NVMe purge: {} is not an NVMe namespace, or its controller did not answer Identify", path);
    return out;
  }
  NvmePurgeDecision d = decide_nvme_purge(*in);
  if (!d.plan) {
    out.detail = fmt::format("{} ({})", d.reason, capabilities(*in));
    return out;
  }
  const NvmePurgePlan& plan = *d.plan;
  uint64_t size_before = 0;
  if (::ioctl(fd, BLKGETSIZE64, &size_before) != 0) {
    out.detail = fmt::format("no NVMe purge: cannot read the size of {} ({})", path, std::strerror(errno));
    return out;
  }
  const bool sanitize = plan.command.opcode == kAdminSanitize;
  std::optional<NvmeSanitizeStatus> before;
  if (sanitize && !(before = read_sanitize_status(fd))) {
    out.detail = fmt::format("{}; but the Sanitize Status log cannot be read, so the end of a sanitize could not be awaited: not issued ({})",
                             d.reason, capabilities(*in));
    return out;
  }

  const std::string name(to_string(plan.method));
  if (progress) progress(0, std::nullopt, name + " issued");
  const auto t0 = Clock::now();
  const int rc = send_nvme_admin(fd, plan.command, sanitize ? 0 : limits.format_timeout_ms);
  if (rc != 0) {
    const std::string answer = rc > 0 ? nvme_status_words(rc) : std::string(std::strerror(-rc));
    if (!purge_command_may_have_run(rc)) {
      out.detail = fmt::format("{}; not done: {} ({})", d.reason, answer, capabilities(*in));
      return out;
    }
    out.method = plan.method;
    out.duration_s = since(t0);
    out.detail = fmt::format("{}; no completion ({}) after {:.1f} s: the namespace is in an unknown state", d.reason, answer,
                             out.duration_s);
    return out;
  }
  out.method = plan.method;

  if (sanitize) {
    // Sanitize runs in the background after the command completes (Base Spec 2.0, "Sanitize
    // Operations"): the Sanitize Status log tells progress and the end.
    const double limit_s = limits.sanitize_timeout_s.value_or(sanitize_timeout_s(*before, plan.method));
    std::string failed = wait_for_sanitize([fd] { return read_sanitize_status(fd); }, plan.command.cdw10, limit_s,
                                           limits.poll_interval_s, progress);
    if (!failed.empty()) {
      out.duration_s = since(t0);
      out.detail = fmt::format("{}; after {:.1f} s: {}", d.reason, out.duration_s, failed);
      return out;
    }
  }
  if (progress) progress(1, 0.0, name + " done");
  bool ok = true;
  const std::string checks = check_after(fd, size_before, ok);
  out.ok = ok;
  out.duration_s = since(t0);
  out.detail = fmt::format("{}; done in {:.1f} s; {} ({})", d.reason, out.duration_s, checks, capabilities(*in));
  return out;
}

}  // namespace diskvet::devices
