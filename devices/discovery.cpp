// Discovery from sysfs (and udev where it has a database): identity and queue facts per disk.
#include "devices/discovery.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "devices/health.hpp"
#include "devices/identity.hpp"
#include "devices/nvme.hpp"
#include "devices/protection.hpp"
#include "devices/sysfs.hpp"

namespace diskvet::devices {

namespace fs = std::filesystem;

namespace {

std::string attr(const fs::path& p) { return read_attr(p).value_or(""); }

std::string prop(const UdevProperties& u, const char* key) {
  auto it = u.find(key);
  return it == u.end() ? std::string() : it->second;
}

DeviceKind kind_of(const std::string& name, const fs::path& sysdir) {
  auto starts = [&](std::string_view p) { return std::string_view(name).starts_with(p); };
  if (starts("nvme")) return DeviceKind::nvme;
  if (starts("loop")) return DeviceKind::loop;
  if (starts("zram")) return DeviceKind::zram;
  std::error_code ec;
  if (starts("md") && fs::exists(sysdir / "md", ec)) return DeviceKind::md;
  if (starts("dm-") || fs::exists(sysdir / "dm", ec)) return DeviceKind::dm;
  if (starts("sd")) return DeviceKind::scsi;
  if (starts("vd")) return DeviceKind::virtio;
  return DeviceKind::other;
}

// SCSI Unit Serial Number VPD page (SPC-5 7.7.18, page 80h): 4-byte header, length at byte 3.
std::string serial_from_vpd80(const std::string& page) {
  if (page.size() < 4 || static_cast<uint8_t>(page[1]) != 0x80) return {};
  size_t len = std::min<size_t>(static_cast<uint8_t>(page[3]), page.size() - 4);
  std::string s = page.substr(4, len);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.pop_back();
  size_t start = s.find_first_not_of(' ');
  return start == std::string::npos ? std::string() : s.substr(start);
}

// NVMe: the namespace's controller. A multipath head (nvmeXnY under nvme-subsystem) has the
// subsystem as its device; any live controller of that subsystem answers admin commands.
void fill_nvme(Device& d, const fs::path& sysdir) {
  d.bus = "nvme";
  d.wwn = attr(sysdir / "wwid");
  d.nvme_nsid = static_cast<uint32_t>(read_u64(sysdir / "nsid").value_or(0));
  std::error_code ec;
  fs::path dev = fs::canonical(sysdir / "device", ec);
  if (ec) return;
  std::string leaf = dev.filename().string();
  if (leaf.starts_with("nvme-subsys")) {
    std::vector<std::string> ctrls;
    for (const auto& e : fs::directory_iterator(dev, ec)) {
      std::string n = e.path().filename().string();
      if (n.starts_with("nvme") && !n.starts_with("nvme-subsys") && n.find('n', 4) == std::string::npos) ctrls.push_back(n);
    }
    std::sort(ctrls.begin(), ctrls.end());
    for (const auto& c : ctrls)
      if (attr(dev / c / "state") == "live" || d.nvme_controller.empty()) {
        d.nvme_controller = c;
        if (attr(dev / c / "state") == "live") break;
      }
  } else {
    d.nvme_controller = leaf;
  }
  d.model = attr(dev / "model");
  d.serial = attr(dev / "serial");
  d.firmware = attr(dev / "firmware_rev");
  if (d.firmware.empty() && !d.nvme_controller.empty()) d.firmware = attr(dev / d.nvme_controller / "firmware_rev");
}

void fill_scsi(Device& d, const fs::path& sysdir) {
  fs::path dev = sysdir / "device";
  d.vendor = attr(dev / "vendor");
  d.model = attr(dev / "model");
  d.firmware = attr(dev / "rev");
  d.serial = serial_from_vpd80(read_raw(dev / "vpd_pg80"));
  d.wwn = attr(dev / "wwid");
  d.bus = "scsi";
}

void fill_other_identity(Device& d, const fs::path& sysdir) {
  switch (d.kind) {
    case DeviceKind::virtio:
      d.serial = attr(sysdir / "serial");
      d.model = "virtio disk";
      d.bus = "virtio";
      break;
    case DeviceKind::loop:
      d.backing_file = attr(sysdir / "loop" / "backing_file");
      d.model = "loop device";
      break;
    case DeviceKind::zram:
      d.model = "zram";
      break;
    case DeviceKind::md:
      d.model = fmt::format("md {}", attr(sysdir / "md" / "level"));
      d.wwn = attr(sysdir / "md" / "uuid");
      break;
    case DeviceKind::dm:
      d.model = fmt::format("dm {}", attr(sysdir / "dm" / "name"));
      d.serial = attr(sysdir / "dm" / "uuid");
      break;
    default:
      d.model = attr(sysdir / "device" / "model");
      d.serial = attr(sysdir / "device" / "serial");
      d.firmware = attr(sysdir / "device" / "firmware_rev");
      d.wwn = attr(sysdir / "device" / "wwid");
      break;
  }
}

// Identity from udev wins where udev has it: it reads VPD pages and ATA IDENTIFY that sysfs lacks.
void apply_udev(Device& d, const UdevProperties& u) {
  auto set = [](std::string& field, std::string value) {
    if (!value.empty()) field = std::move(value);
  };
  std::string model = prop(u, "ID_MODEL_ENC");
  set(d.model, model.empty() ? prop(u, "ID_MODEL") : udev_unescape(model));
  while (!d.model.empty() && d.model.back() == ' ') d.model.pop_back();
  set(d.serial, prop(u, "ID_SERIAL_SHORT"));
  std::string wwn = prop(u, "ID_WWN_WITH_EXTENSION");
  set(d.wwn, wwn.empty() ? prop(u, "ID_WWN") : wwn);
  set(d.firmware, prop(u, "ID_REVISION"));
  set(d.bus, prop(u, "ID_BUS"));
  set(d.id_path, prop(u, "ID_PATH"));
}

void fill_queue(Device& d, const fs::path& sysdir) {
  fs::path q = sysdir / "queue";
  d.size_bytes = read_u64(sysdir / "size").value_or(0) * 512;  // sysfs size is in 512-byte sectors
  d.logical_block_size = static_cast<uint32_t>(read_u64(q / "logical_block_size").value_or(512));
  d.physical_block_size = static_cast<uint32_t>(read_u64(q / "physical_block_size").value_or(d.logical_block_size));
  d.rotational = read_u64(q / "rotational").value_or(0) != 0;
  d.removable = read_u64(sysdir / "removable").value_or(0) != 0;
  d.read_only = read_u64(sysdir / "ro").value_or(0) != 0;
  d.write_cache = attr(q / "write_cache");
  d.discard = read_u64(q / "discard_max_bytes").value_or(0) > 0;
  d.max_transfer_bytes = read_u64(q / "max_hw_sectors_kb").value_or(0) * 1024;
  d.scheduler = selected_choice(attr(q / "scheduler"));
  d.zoned = attr(q / "zoned");
}

}  // namespace

std::optional<Device> describe_disk(const fs::path& sysdir_in, const HostPaths& host, const UdevProperties& udev) {
  std::error_code ec;
  fs::path sysdir = fs::canonical(sysdir_in, ec);
  if (ec) return std::nullopt;
  // Partitions are not disks; hidden disks are NVMe multipath paths (nvme0c0n1) behind a head.
  if (fs::exists(sysdir / "partition", ec)) return std::nullopt;
  if (read_u64(sysdir / "hidden").value_or(0) != 0) return std::nullopt;
  Device d;
  d.name = sysdir.filename().string();
  std::string node = devname(sysdir);
  d.path = (host.dev / (node.empty() ? d.name : node)).string();
  d.dev_id = attr(sysdir / "dev");
  d.sysfs_path = sysdir.string();
  d.kind = kind_of(d.name, sysdir);
  if (d.kind == DeviceKind::nvme) fill_nvme(d, sysdir);
  else if (d.kind == DeviceKind::scsi) fill_scsi(d, sysdir);
  else fill_other_identity(d, sysdir);
  apply_udev(d, udev);
  fill_queue(d, sysdir);
  std::error_code part_ec;
  for (const auto& e : fs::directory_iterator(sysdir, ec))
    if (fs::exists(e.path() / "partition", part_ec)) d.partitions.push_back(e.path().filename().string());
  std::sort(d.partitions.begin(), d.partitions.end());
  return d;
}

Result<std::vector<Device>> discover(const DiscoveryOptions& options) {
  const HostPaths& host = options.host;
  std::map<std::string, UdevProperties> udev_by_name;
  std::vector<fs::path> dirs;
  if (options.use_udev && host.live()) {
    if (auto disks = udev_whole_disks())
      for (auto& disk : *disks) {
        udev_by_name[disk.syspath.filename().string()] = std::move(disk.properties);
        dirs.push_back(disk.syspath);
      }
  }
  if (dirs.empty()) {
    std::error_code ec;
    fs::directory_iterator it(host.sysfs / "block", ec);
    if (ec) return system_error((host.sysfs / "block").string(), "cannot list block devices", ec.value(), "is sysfs mounted?");
    for (const auto& e : it) dirs.push_back(e.path());
  }
  std::map<std::string, std::string> nvme_ctrls;
  bool nvme_scanned = false;
  std::vector<Device> devices;
  std::vector<Device> unlisted;  // empty disks left out: they still share serials and WWNs
  // The host's mounts, loop backings and writers, read once for every disk's stack.
  const StackFacts facts = options.assess_protection ? gather_stack_facts(host) : StackFacts{};
  for (const auto& dir : dirs) {
    static const UdevProperties kNone;
    auto found = udev_by_name.find(dir.filename().string());
    auto d = describe_disk(dir, host, found == udev_by_name.end() ? kNone : found->second);
    if (!d) continue;
    if (d->size_bytes == 0 && !options.include_empty) {
      unlisted.push_back(std::move(*d));
      continue;
    }
    if (options.assess_protection)
      apply(*d, assess_protection(*d, host, ProtectionProbes{.signatures = true, .facts = &facts}));
    if (d->kind == DeviceKind::nvme && host.live()) {
      if (d->nvme_controller.empty()) {
        if (!nvme_scanned) nvme_ctrls = nvme_namespace_controllers(), nvme_scanned = true;
        if (auto it = nvme_ctrls.find(d->name); it != nvme_ctrls.end()) d->nvme_controller = it->second;
      }
      if (options.read_health)
        if (auto r = read_nvme(*d)) apply(*d, *r);
    }
    if (options.read_health) {
      if (d->kind == DeviceKind::nvme && d->health.known) evaluate_health(d->health);
      else d->health = read_health(*d, host);
    }
    devices.push_back(std::move(*d));
  }
  std::sort(devices.begin(), devices.end(), [](const Device& a, const Device& b) { return a.name < b.name; });
  std::vector<Device> host_disks = devices;
  host_disks.insert(host_disks.end(), unlisted.begin(), unlisted.end());
  for (auto& d : devices) d.consent_id = consent_id(d, host_disks);
  return devices;
}

std::vector<Device> describe_disks(const HostPaths& host) {
  std::vector<Device> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(host.sysfs / "block", ec))
    if (auto d = describe_disk(e.path(), host)) out.push_back(std::move(*d));
  return out;
}

Result<Device> find_device(std::string_view id, const std::vector<Device>& devices) {
  std::string resolved = resolve_device_path(id);
  std::vector<const Device*> hits;
  for (const auto& d : devices)
    if (identifies(d, id) || identifies(d, resolved)) hits.push_back(&d);
  if (hits.size() == 1) return *hits.front();
  if (hits.empty())
    return usage_error(std::string(id), "names no disk on this host", "see 'diskvet list' for paths, serials and WWNs");
  std::string names;
  for (const auto* d : hits) names += (names.empty() ? "" : ", ") + d->path;
  return usage_error(std::string(id), fmt::format("names {} disks ({})", hits.size(), names),
                     "name one by its /dev path, its WWN, or SERIAL/NSID for an NVMe namespace (see 'diskvet list')");
}

Result<Device> find_device(std::string_view id, const DiscoveryOptions& options) {
  auto all = discover(options);
  if (!all) return all.error();
  return find_device(id, *all);
}

}  // namespace diskvet::devices
