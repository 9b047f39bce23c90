// The purge chain: NVMe hook -> discard -> none.
#include "runner/run/purge.hpp"

#include <linux/fs.h>
#include <sys/ioctl.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "devices/nvme_purge.hpp"

namespace diskvet::runner {

namespace {

using SteadyClock = std::chrono::steady_clock;

double since(SteadyClock::time_point t0) { return std::chrono::duration<double>(SteadyClock::now() - t0).count(); }

}  // namespace

PurgeRecord purge(const DevicePlan& d, Region region, const RunHooks& hooks, RunEvents& ev) {
  PurgeRecord rec;
  rec.requested = true;
  // The same rule as every write: no consent, no gate, no purge. The hook is not even asked.
  if (!d.target.writable() || d.target.is_null()) {
    rec.detail = d.target.is_null() ? "not purged: the null target has no device" : "not purged: the device was not opened for writing";
    return rec;
  }
  if (!d.target.info().block_device) {
    rec.detail = "not purged: a regular file is neither formatted nor discarded";
    return rec;
  }
  std::string why_not_nvme = "this front end issues no NVMe admin commands";
  if (hooks.nvme_purge) {
    const auto t0 = SteadyClock::now();
    const std::string& dev = d.device.path;
    PurgeProgress progress = [&](double fraction, std::optional<double> eta_s, const std::string& detail) {
      ev.on_progress(ProgressEvent{dev, Phase::purge, "", std::clamp(fraction, 0.0, 1.0), since(t0), eta_s, detail});
    };
    NvmePurgeAnswer a = hooks.nvme_purge(d.device, d.target, progress);
    if (a.record) {
      a.record->requested = true;
      return *a.record;
    }
    why_not_nvme = a.why_not;
  }
  auto fd = d.target.reopen();
  if (!fd) {
    rec.detail = why_not_nvme + "; " + fd.error().message();
    return rec;
  }
  const auto t0 = SteadyClock::now();
  uint64_t range[2] = {region.offset_bytes, region.size_bytes};
  if (ioctl(fd->get(), BLKDISCARD, &range) == 0) {
    rec.method = "discard";
    rec.duration_s = since(t0);
    rec.detail = fmt::format("{}; BLKDISCARD over {} bytes", why_not_nvme, region.size_bytes);
  } else {
    rec.detail = fmt::format("{}; BLKDISCARD failed ({}): none", why_not_nvme, std::strerror(errno));
  }
  return rec;
}

NvmePurgeAnswer purge_nvme(const devices::Device& /*d*/, const Target& t, const PurgeProgress& progress) {
  if (!t.writable() || t.is_null()) return {std::nullopt, "no NVMe purge: the device was not opened for writing"};
  // A descriptor on the gate's own open file (O_RDWR): the commands reach the namespace it holds.
  auto fd = t.reopen();
  if (!fd) return {std::nullopt, "no NVMe purge: " + fd.error().message()};
  devices::NvmePurgeOutcome o = devices::nvme_purge(fd->get(), t.info().path, progress);
  if (!o.method) return {std::nullopt, o.detail};
  PurgeRecord rec;
  rec.requested = true;
  rec.method = std::string(devices::to_string(*o.method));
  rec.detail = o.detail;
  rec.duration_s = o.duration_s;
  rec.failed = !o.ok;
  return {rec, ""};
}

}  // namespace diskvet::runner
