// The unwritten-space probe.
#include "runner/run/probe.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <memory>

namespace diskvet::runner {

Result<ProbeRecord> probe_unwritten(const Target& target, Region region, uint32_t samples, double max_zero_pct) {
  ProbeRecord rec;
  const uint32_t bs = std::max<uint32_t>(4096, target.info().logical_block_size);
  const uint64_t blocks = region.size_bytes / bs;
  if (blocks == 0 || samples == 0) return runtime_error(target.info().path, "region too small to probe");
  auto fd = target.reopen();
  if (!fd) return fd.error();
  void* mem = nullptr;
  if (posix_memalign(&mem, 4096, bs) != 0) return runtime_error(target.info().path, "out of memory for the probe");
  std::unique_ptr<void, decltype(&free)> buf(mem, &free);
  const uint64_t n = std::min<uint64_t>(samples, blocks);
  for (uint64_t i = 0; i < n; ++i) {
    // Evenly spread, offset by half a stride so the first and last blocks are not special.
    uint64_t block = (i * blocks + blocks / 2) / n;
    off_t off = static_cast<off_t>(region.offset_bytes + block * bs);
    ssize_t r = pread(fd->get(), mem, bs, off);
    if (r != static_cast<ssize_t>(bs))
      return system_error(target.info().path, fmt::format("probe read at offset {} failed", off), r < 0 ? errno : EIO);
    const auto* words = static_cast<const uint64_t*>(mem);
    bool zero = std::all_of(words, words + bs / 8, [](uint64_t w) { return w == 0; });
    rec.zero_samples += zero;
  }
  rec.performed = true;
  rec.samples = static_cast<uint32_t>(n);
  rec.unwritten = static_cast<double>(rec.zero_samples) * 100 > max_zero_pct * static_cast<double>(rec.samples);
  rec.detail = fmt::format("{} of {} sampled blocks read back as zeros{}", rec.zero_samples, rec.samples,
                           rec.unwritten ? ": the region was never written (thin or fresh), read numbers would be fiction" : "");
  return rec;
}

}  // namespace diskvet::runner
