// Reading a block device's sysfs stat counters.
#include "devices/disk_stats.hpp"

#include <sys/sysmacros.h>

#include <fmt/format.h>

#include <sstream>

#include "devices/sysfs.hpp"

namespace diskvet::devices {

namespace {

uint64_t delta(uint64_t after, uint64_t before) { return after >= before ? after - before : 0; }

}  // namespace

DiskStats DiskStats::since(const DiskStats& before) const {
  DiskStats d;
  d.name = name;
  d.read_ios = delta(read_ios, before.read_ios);
  d.read_merges = delta(read_merges, before.read_merges);
  d.read_ticks_ms = delta(read_ticks_ms, before.read_ticks_ms);
  d.write_ios = delta(write_ios, before.write_ios);
  d.write_merges = delta(write_merges, before.write_merges);
  d.write_ticks_ms = delta(write_ticks_ms, before.write_ticks_ms);
  d.io_ticks_ms = delta(io_ticks_ms, before.io_ticks_ms);
  d.in_queue_ms = delta(in_queue_ms, before.in_queue_ms);
  return d;
}

std::optional<DiskStats> read_disk_stats(dev_t rdev, const std::filesystem::path& sys_root) {
  const std::filesystem::path dir = sys_root / "dev" / "block" / fmt::format("{}:{}", major(rdev), minor(rdev));
  auto text = read_attr(dir / "stat");
  if (!text) return std::nullopt;
  // read I/Os, merges, sectors, ticks; write I/Os, merges, sectors, ticks; in flight, io_ticks, time_in_queue
  std::istringstream in(*text);
  uint64_t f[11] = {};
  for (uint64_t& v : f)
    if (!(in >> v)) return std::nullopt;
  DiskStats s;
  s.name = devname(dir);
  s.read_ios = f[0];
  s.read_merges = f[1];
  s.read_ticks_ms = f[3];
  s.write_ios = f[4];
  s.write_merges = f[5];
  s.write_ticks_ms = f[7];
  s.io_ticks_ms = f[9];
  s.in_queue_ms = f[10];
  return s;
}

}  // namespace diskvet::devices
