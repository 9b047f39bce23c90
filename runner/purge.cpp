// The purge chain: nvme hook -> discard -> none.
#include "runner/purge.hpp"

#include <linux/fs.h>
#include <sys/ioctl.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

namespace diskvet::runner {

PurgeRecord purge(const DevicePlan& d, Region region, const RunHooks& hooks) {
  PurgeRecord rec;
  rec.requested = true;
  if (!d.target.writable()) {
    rec.detail = "not purged: the device was not opened for writing";
    return rec;
  }
  std::string why_not_nvme = "not an NVMe device";
  if (d.device.nvme)
    why_not_nvme = d.device.nvme->format_supported || d.device.nvme->sanitize_block_erase || d.device.nvme->sanitize_crypto_erase
                       ? "the controller supports format/sanitize, but this build issues no NVMe admin commands yet"
                       : "the controller supports neither format nor sanitize";
  if (hooks.nvme_purge) {
    if (auto r = hooks.nvme_purge(d.device, d.target)) return *r;
    why_not_nvme = "the controller supports neither format with user-data erase nor sanitize";
  }
  if (!d.target.info().block_device) {
    rec.detail = why_not_nvme + "; a regular file cannot be discarded: none";
    return rec;
  }
  auto fd = d.target.reopen();
  if (!fd) {
    rec.detail = why_not_nvme + "; " + fd.error().message();
    return rec;
  }
  uint64_t range[2] = {region.offset_bytes, region.size_bytes};
  if (ioctl(fd->get(), BLKDISCARD, &range) == 0) {
    rec.method = "discard";
    rec.detail = fmt::format("{}; BLKDISCARD over {} bytes", why_not_nvme, region.size_bytes);
  } else {
    rec.detail = fmt::format("{}; BLKDISCARD failed ({}): none", why_not_nvme, std::strerror(errno));
  }
  return rec;
}

}  // namespace diskvet::runner
