// The protection rules of DESIGN.md ("Safety"), each checked on the disk and on every partition.
#include "devices/protection.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <fmt/format.h>

#include <algorithm>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <map>

#include "common/fd.hpp"
#include "devices/boot_medium.hpp"
#include "devices/host_state.hpp"
#include "devices/signatures.hpp"
#include "devices/sysfs.hpp"

namespace diskvet::devices {

namespace fs = std::filesystem;

bool overridable(ProtectionClass c) { return c == ProtectionClass::partition_table || c == ProtectionClass::signature; }

bool Protection::only_overridable() const {
  return is_protected() && std::all_of(reasons.begin(), reasons.end(), [](const auto& r) { return overridable(r.cls); });
}

std::vector<std::string> Protection::texts() const {
  std::vector<std::string> out;
  for (const auto& r : reasons) out.push_back(r.text);
  return out;
}

void apply(Device& d, const Protection& p) {
  d.is_protected = p.is_protected();
  d.protection_reasons = p.texts();
  d.protection_overridable = p.only_overridable();
}

namespace {

// Mountpoints whose device is the medium the system booted from (/media/boot: image/init's ISO 9660).
// The appliance's medium is also known by its marker, mounted or not (boot_medium.hpp).
constexpr const char* kBootMountpoints[] = {"/boot", "/boot/efi", "/efi", "/run/live/medium", "/lib/live/mount/medium",
                                            "/cdrom", "/run/initramfs/live", "/media/boot"};

// The disk and each partition: device number -> how to name it in a reason.
struct Parts {
  std::map<std::string, std::string> by_id;    // "8:1" -> "partition sda1"; "8:0" -> "" (the disk)
  std::map<std::string, std::string> by_node;  // "/dev/sda1" -> "partition sda1"
};

Parts parts_of(const Device& d, const HostPaths& host) {
  Parts p;
  fs::path sysdir = host.sysfs / "block" / d.name;
  std::string own = d.dev_id.empty() ? read_attr(sysdir / "dev").value_or("") : d.dev_id;
  if (!own.empty()) p.by_id[own] = "";
  p.by_node[d.path] = "";
  for (const auto& part : d.partitions) {
    std::string label = "partition " + part;
    if (auto id = read_attr(sysdir / part / "dev")) p.by_id[*id] = label;
    p.by_node[(host.dev / part).string()] = label;
  }
  return p;
}

std::string phrase(const std::string& who, const std::string& what) {
  return who.empty() ? what : who + " " + what;
}

// Which part a kernel-reported device (number or node) is, if any.
const std::string* part_for(const Parts& parts, const std::string& dev_id, const std::string& node, const HostPaths& host) {
  if (auto it = parts.by_id.find(dev_id); it != parts.by_id.end()) return &it->second;
  if (!node.starts_with("/")) return nullptr;
  if (auto it = parts.by_node.find(node); it != parts.by_node.end()) return &it->second;
  if (host.live())
    if (auto it = parts.by_id.find(block_dev_id(node)); it != parts.by_id.end()) return &it->second;
  return nullptr;
}

void check_mounts(const Parts& parts, const std::vector<MountEntry>& mounts, const HostPaths& host, Protection& p) {
  std::map<std::string, std::vector<std::string>> where;  // part -> mountpoints
  for (const auto& m : mounts)
    if (const std::string* who = part_for(parts, m.dev_id, m.source, host)) where[*who].push_back(m.mountpoint);
  for (auto& [who, points] : where) {
    std::string list = points.front();
    if (points.size() > 1) list += fmt::format(" (and {} more)", points.size() - 1);
    p.reasons.push_back({ProtectionClass::mounted, phrase(who, "is mounted at " + list)});
  }
}

void check_holders(const Device& d, const HostPaths& host, Protection& p) {
  fs::path sysdir = host.sysfs / "block" / d.name;
  auto holders_of = [](const fs::path& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir / "holders", ec)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  };
  auto report = [&](const std::string& who, const std::vector<std::string>& names) {
    if (names.empty()) return;
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    p.reasons.push_back({ProtectionClass::holders, phrase(who, "is held by " + list + " (LVM, MD or dm)")});
  };
  report("", holders_of(sysdir));
  for (const auto& part : d.partitions) report("partition " + part, holders_of(sysdir / part));
}

void check_swap(const Parts& parts, const std::vector<std::string>& swaps, const HostPaths& host, Protection& p) {
  for (const auto& s : swaps)
    if (const std::string* who = part_for(parts, "", s, host)) p.reasons.push_back({ProtectionClass::swap, phrase(*who, "is in use as swap")});
}

bool backs(const Device& d, const std::string& dev_id, const HostPaths& host) {
  auto disks = backing_disks(dev_id, host);
  return std::find(disks.begin(), disks.end(), d.name) != disks.end();
}

std::string id_of_node(const std::string& node, const HostPaths& host) {
  if (!host.live() || !node.starts_with("/")) return {};
  return block_dev_id(node);
}

void check_system(const Device& d, const std::vector<MountEntry>& mounts, const HostPaths& host, Protection& p) {
  bool root = false;
  std::string boot_at;
  for (const auto& m : mounts) {
    bool hit = backs(d, m.dev_id, host) || backs(d, id_of_node(m.source, host), host);
    if (!hit) continue;
    if (m.mountpoint == "/") root = true;
    for (const char* b : kBootMountpoints)
      if (m.mountpoint == b && boot_at.empty()) boot_at = b;
  }
  if (host.live()) {
    struct stat st{};
    if (::stat("/", &st) == 0 && backs(d, fmt::format("{}:{}", major(st.st_dev), minor(st.st_dev)), host)) root = true;
  }
  std::string cmdline = read_attr(host.proc / "cmdline").value_or("");
  if (std::string spec = cmdline_value(cmdline, "root"); !spec.empty() && host.live()) {
    std::string node = resolve_device_spec(spec);
    if (!node.empty() && backs(d, block_dev_id(node), host)) root = true;
  }
  // The medium by what it is: the marker, the image's volume, diskvet.boot= from the boot loader,
  // each read from the nodes themselves, so an unmounted boot stick is as protected as a mounted one.
  std::vector<std::string> evidence;
  if (!boot_at.empty()) evidence.push_back(boot_at);
  for (auto& e : boot_medium_evidence(identify_nodes(d, host), cmdline_value(cmdline, "diskvet.boot")))
    evidence.push_back(std::move(e));
  if (root) p.reasons.push_back({ProtectionClass::root, "backs the running root filesystem"});
  if (!evidence.empty()) {
    std::string list;
    for (const auto& e : evidence) list += (list.empty() ? "" : "; ") + e;
    p.reasons.push_back({ProtectionClass::boot_medium, "holds the boot medium (" + list + ")"});
  }
}

void check_signatures(const Device& d, Protection& p) {
  auto sig = probe_signatures(d.path);
  if (!sig) {
    p.reasons.push_back({ProtectionClass::unprobed, sig.error().what + (sig.error().fix.empty() ? "" : " (" + sig.error().fix + ")")});
    return;
  }
  if (!sig->partition_table.empty())
    p.reasons.push_back({ProtectionClass::partition_table,
                         fmt::format("has a {} partition table ({} partitions)", sig->partition_table,
                                     std::max(sig->partition_count, d.partitions.size()))});
  if (!sig->type.empty() || sig->ambivalent) p.reasons.push_back({ProtectionClass::signature, describe_signature(*sig)});
}

// Programs with the disk or a partition open for writing (mkfs, dd, a VM using it as its disk), seen
// in /proc/PID/fd and fdinfo without opening the device: looking never claims what it looks at.
// This process is left out (a running suite holds its own devices).
void check_writers(const Parts& parts, const HostPaths& host, Protection& p) {
  std::map<std::string, std::string> found;  // part -> "pid 12 (mkfs.ext4)"
  const std::string self = std::to_string(::getpid());
  std::error_code ec;
  for (const auto& proc_entry : fs::directory_iterator(host.proc, ec)) {
    std::string pid = proc_entry.path().filename().string();
    int ignored = 0;
    if (pid == self || std::from_chars(pid.data(), pid.data() + pid.size(), ignored).ec != std::errc{}) continue;
    std::error_code fd_ec;
    for (const auto& fd_entry : fs::directory_iterator(proc_entry.path() / "fd", fd_ec)) {
      std::error_code link_ec;
      std::string target = fs::read_symlink(fd_entry.path(), link_ec).string();
      if (link_ec || !target.starts_with("/")) continue;  // sockets, pipes, anon inodes
      std::string dev_id;
      if (host.live()) {
        // Only device nodes are looked at: stat() of a file on a stalled FUSE or NFS mount could
        // hang the listing.
        if (!target.starts_with("/dev/")) continue;
        struct stat st{};
        if (::stat(fd_entry.path().c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) continue;
        dev_id = fmt::format("{}:{}", major(st.st_rdev), minor(st.st_rdev));
      }
      const std::string* who = nullptr;
      if (auto it = parts.by_id.find(dev_id); !dev_id.empty() && it != parts.by_id.end()) who = &it->second;
      else if (auto it2 = parts.by_node.find(target); it2 != parts.by_node.end()) who = &it2->second;
      if (!who || found.contains(*who)) continue;
      // fdinfo's "flags:" is octal; O_WRONLY and O_RDWR are the access modes that write.
      std::string info = read_raw(proc_entry.path() / "fdinfo" / fd_entry.path().filename());
      auto at = info.find("flags:");
      if (at == std::string::npos) continue;
      unsigned long flags = std::strtoul(info.c_str() + at + 6, nullptr, 8);
      if ((flags & O_ACCMODE) == O_RDONLY) continue;
      std::string comm = read_attr(proc_entry.path() / "comm").value_or("?");
      found[*who] = fmt::format("pid {} ({})", pid, comm);
    }
  }
  for (const auto& [who, by] : found) p.reasons.push_back({ProtectionClass::busy, phrase(who, "is open for writing by " + by)});
}

// The read-only ioctl on the live device node, opened without O_EXCL: an exclusive open, even for a
// moment, could make another program's own exclusive open fail. Exclusive holders are found by the
// write gate, whose O_EXCL open of a device about to be written is the one claim diskvet makes.
void check_open(const Device& d, Protection& p) {
  UniqueFd fd(::open(d.path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd.valid()) {
    int err = errno;
    p.reasons.push_back({ProtectionClass::unprobed, fmt::format("cannot be opened to check it is unused: {}{}", std::strerror(err),
                                                                (err == EACCES || err == EPERM) ? " (run as root, with access to the device)" : "")});
    return;
  }
  int ro = 0;
  if (!d.read_only && ::ioctl(fd.get(), BLKROGET, &ro) == 0 && ro)
    p.reasons.push_back({ProtectionClass::read_only, "is read-only (BLKROGET)"});
}

}  // namespace

Protection assess_protection(const Device& d, const HostPaths& host, const ProtectionProbes& probes) {
  Protection p;
  Parts parts = parts_of(d, host);
  std::string mountinfo_text = read_raw(host.proc / "self" / "mountinfo");
  if (mountinfo_text.empty())
    p.reasons.push_back({ProtectionClass::unprobed, "cannot tell whether it is mounted (no /proc/self/mountinfo; mount /proc)"});
  auto mounts = parse_mountinfo(mountinfo_text);
  check_mounts(parts, mounts, host, p);
  check_holders(d, host, p);
  check_swap(parts, parse_swaps(read_raw(host.proc / "swaps")), host, p);
  check_writers(parts, host, p);
  check_system(d, mounts, host, p);
  if (d.read_only) p.reasons.push_back({ProtectionClass::read_only, "is read-only"});
  if (d.kind == DeviceKind::dm || d.kind == DeviceKind::md)
    p.reasons.push_back({ProtectionClass::stacked, fmt::format("is a {} device (writing it writes the disks below)", to_string(d.kind))});
  if (host.live()) check_open(d, p);
  if (probes.signatures && host.live()) check_signatures(d, p);
  return p;
}

}  // namespace diskvet::devices
