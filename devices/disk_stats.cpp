// Reading a block device's sysfs stat counters.
#include "devices/disk_stats.hpp"

#include <sys/sysmacros.h>

#include <fmt/format.h>

#include <regex>
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
  d.read_sectors = delta(read_sectors, before.read_sectors);
  d.read_ticks_ms = delta(read_ticks_ms, before.read_ticks_ms);
  d.write_ios = delta(write_ios, before.write_ios);
  d.write_merges = delta(write_merges, before.write_merges);
  d.write_sectors = delta(write_sectors, before.write_sectors);
  d.write_ticks_ms = delta(write_ticks_ms, before.write_ticks_ms);
  d.io_ticks_ms = delta(io_ticks_ms, before.io_ticks_ms);
  d.in_queue_ms = delta(in_queue_ms, before.in_queue_ms);
  return d;
}

namespace {

std::optional<DiskStats> read_stat(const std::filesystem::path& dir) {
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
  s.read_sectors = f[2];
  s.read_ticks_ms = f[3];
  s.write_ios = f[4];
  s.write_merges = f[5];
  s.write_sectors = f[6];
  s.write_ticks_ms = f[7];
  s.io_ticks_ms = f[9];
  s.in_queue_ms = f[10];
  return s;
}

}  // namespace

std::optional<DiskStats> read_disk_stats(dev_t rdev, const std::filesystem::path& sys_root) {
  return read_stat(sys_root / "dev" / "block" / fmt::format("{}:{}", major(rdev), minor(rdev)));
}

SectorsWritten sectors_written(const std::string& name, const std::string& nvme_controller, const std::filesystem::path& sys_root) {
  auto written = [](const std::filesystem::path& dir) -> std::optional<uint64_t> {
    auto s = read_stat(dir);
    return s ? std::optional<uint64_t>(s->write_sectors) : std::nullopt;
  };
  SectorsWritten out;
  if (nvme_controller.empty()) {
    out.device = out.covered = written(sys_root / "block" / name);
    return out;
  }
  // The controller's namespaces as its own children: nvmeXnZ, or with native multipath the path
  // nvmeXcYnZ of head nvmeXnZ. Counted on the path: a head counts no I/O before Linux 6.3, and
  // after it counts the same I/O again.
  static const std::regex ns_name(R"(nvme(\d+)(c\d+)?n(\d+))");
  std::error_code ec;
  bool complete = true;
  for (const auto& e : std::filesystem::directory_iterator(sys_root / "class" / "nvme" / nvme_controller, ec)) {
    std::smatch m;
    const std::string entry = e.path().filename().string();
    if (!std::regex_match(entry, m, ns_name)) continue;
    auto w = written(e.path());
    if (!w) {
      complete = false;  // a namespace the sum would miss: no sum
      continue;
    }
    out.covered = out.covered.value_or(0) + *w;
    if ("nvme" + m[1].str() + "n" + m[3].str() == name) out.device = out.device.value_or(0) + *w;
  }
  if (!complete) out.covered.reset();
  if (!out.device) out.device = written(sys_root / "block" / name);
  return out;
}

}  // namespace diskvet::devices
