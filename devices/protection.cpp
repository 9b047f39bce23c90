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
#include <deque>
#include <map>
#include <optional>
#include <set>

#include "common/fd.hpp"
#include "common/deadline.hpp"
#include "common/file_kind.hpp"
#include "common/units.hpp"
#include "devices/boot_medium.hpp"
#include "devices/host_state.hpp"
#include "devices/signatures.hpp"
#include "devices/stack_facts.hpp"
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

// A device that does not answer (a loop device over a stalled FUSE or network file, a dying USB
// disk) must not hang the look at every other disk: reading its first blocks runs under a deadline,
// and a device that misses it is protected, with that reason.
std::string no_answer() {
  return fmt::format("did not answer a read of its first blocks within {} s (a stalled device?); cannot tell what is on it",
                     kStackCallDeadline.count() / 1000.0);
}

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
  auto nodes = host.live() ? call_with_deadline(kStackCallDeadline, [d, host] { return identify_nodes(d, host); })
                           : std::optional(identify_nodes(d, host));
  if (!nodes)
    p.reasons.push_back({ProtectionClass::unprobed, fmt::format("did not answer a read of its volumes (is it the boot medium?) within {} s",
                                                                kStackCallDeadline.count() / 1000.0)});
  for (auto& e : boot_medium_evidence(nodes ? *nodes : std::vector<NodeIdentity>{}, cmdline_value(cmdline, "diskvet.boot")))
    evidence.push_back(std::move(e));
  if (root) p.reasons.push_back({ProtectionClass::root, "backs the running root filesystem"});
  if (!evidence.empty()) {
    std::string list;
    for (const auto& e : evidence) list += (list.empty() ? "" : "; ") + e;
    p.reasons.push_back({ProtectionClass::boot_medium, "holds the boot medium (" + list + ")"});
  }
}

void check_signatures(const Device& d, Protection& p) {
  auto answered = call_with_deadline(kStackCallDeadline, [path = d.path, id = d.dev_id] { return probe_signatures(path, id); });
  if (!answered) {
    p.reasons.push_back({ProtectionClass::unprobed, no_answer()});
    return;
  }
  auto& sig = *answered;
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

// Programs writing the disk or a partition through any node anywhere, or through a shared
// writable mapping (stack_facts.hpp), matched by device number; fake trees by node name.
void check_writers(const Parts& parts, const StackFacts& facts, Protection& p) {
  std::map<std::string, std::string> found;  // part -> "pid 12 (mkfs.ext4)"
  for (const auto& w : facts.writers) {
    const std::string* who = nullptr;
    if (auto it = parts.by_id.find(w.dev_id); !w.dev_id.empty() && it != parts.by_id.end()) who = &it->second;
    else if (auto it2 = parts.by_node.find(w.node); w.dev_id.empty() && it2 != parts.by_node.end()) who = &it2->second;
    if (!who || found.contains(*who)) continue;
    found[*who] = fmt::format("{} by pid {} ({})", w.how, w.pid, w.comm);
  }
  for (const auto& [who, by] : found) p.reasons.push_back({ProtectionClass::busy, phrase(who, "is " + by)});
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
  struct stat st{};
  if (::fstat(fd.get(), &st) != 0 || !S_ISBLK(st.st_mode) || dev_id_of(st.st_rdev) != d.dev_id) {
    p.reasons.push_back({ProtectionClass::unprobed, fmt::format("{} stopped being this device while it was checked", d.path)});
    return;
  }
  int ro = 0;
  if (!d.read_only && ::ioctl(fd.get(), BLKROGET, &ro) == 0 && ro)
    p.reasons.push_back({ProtectionClass::read_only, "is read-only (BLKROGET)"});
}

// Rule 1 (DESIGN.md Safety): a device is read only through a node that is that device. In a mount
// namespace whose /dev gives its kernel name to another disk (a container's --device mapping), the
// name would show that other disk's signatures, read-only flag and boot marker.
bool nodes_are_this_device(const Device& d, const HostPaths& host, Protection& p) {
  fs::path sysdir = host.sysfs / "block" / d.name;
  std::vector<std::pair<std::string, std::string>> nodes{{d.path, d.dev_id}};
  for (const auto& part : d.partitions) nodes.emplace_back((host.dev / part).string(), read_attr(sysdir / part / "dev").value_or(""));
  bool all = true;
  for (const auto& [node, id] : nodes) {
    struct stat st{};
    if (::stat(node.c_str(), &st) != 0) continue;  // no node: nothing reads through it (check_open says so for the disk)
    if (S_ISBLK(st.st_mode) && dev_id_of(st.st_rdev) == id) continue;
    all = false;
    p.reasons.push_back({ProtectionClass::unprobed,
                         fmt::format("cannot be read by its name: {} here is {}, not {} ({}); another device has that name in this mount "
                                     "namespace, and diskvet reads a device only through a node that is it",
                                     node, S_ISBLK(st.st_mode) ? "device " + dev_id_of(st.st_rdev) : std::string(file_kind(st.st_mode)),
                                     fs::path(node).filename().string(), id)});
  }
  return all;
}

// Every rule on the device itself (not yet its stack). A member of another device's stack is judged
// on what uses it; its signatures count only below the target (what a write to the target destroys).
Protection assess_one(const Device& d, const HostPaths& host, bool signatures, const StackFacts& facts, bool member) {
  Protection p;
  Parts parts = parts_of(d, host);
  check_mounts(parts, facts.mounts, host, p);
  check_holders(d, host, p);
  check_swap(parts, parse_swaps(read_raw(host.proc / "swaps")), host, p);
  check_writers(parts, facts, p);
  check_system(d, facts.mounts, host, p);
  if (d.read_only && !member) p.reasons.push_back({ProtectionClass::read_only, "is read-only"});
  if (d.kind == DeviceKind::dm || d.kind == DeviceKind::md)
    p.reasons.push_back({ProtectionClass::stacked, fmt::format("is a {} device (writing it writes the disks below)", to_string(d.kind))});
  if (host.live() && nodes_are_this_device(d, host, p)) {
    if (!member) check_open(d, p);
    if (signatures) check_signatures(d, p);
  }
  return p;
}

// A member of a stack as sysfs describes it: what the rules need (name, node, number, partitions,
// kind), without the identity and health discovery reads.
std::optional<Device> stack_member(const fs::path& sysdir_in, const HostPaths& host) {
  std::error_code ec;
  fs::path sysdir = fs::canonical(sysdir_in, ec);
  if (ec) return std::nullopt;
  Device d;
  d.name = sysdir.filename().string();
  d.dev_id = read_attr(sysdir / "dev").value_or("");
  if (d.dev_id.empty()) return std::nullopt;
  std::string node = devname(sysdir);
  d.path = (host.dev / (node.empty() ? d.name : node)).string();
  d.sysfs_path = sysdir.string();
  if (d.name.starts_with("loop")) d.kind = DeviceKind::loop;
  else if (d.name.starts_with("dm-")) d.kind = DeviceKind::dm;
  else if (d.name.starts_with("md")) d.kind = DeviceKind::md;
  std::error_code part_ec;
  for (const auto& e : fs::directory_iterator(sysdir, ec))
    if (fs::exists(e.path() / "partition", part_ec)) d.partitions.push_back(e.path().filename().string());
  std::sort(d.partitions.begin(), d.partitions.end());
  return d;
}

// The device backing a loop device: the whole disk holding it (itself, or the parent of a
// partition) whose use is judged, the exact device whose data a write reaches (signatures), and
// how to name it.
struct Lower {
  Device disk;
  Device exact;  // the partition, or the disk
  std::string words;
};
std::optional<Lower> lower_device(const std::string& id, const HostPaths& host) {
  std::error_code ec;
  fs::path dir = fs::canonical(host.sysfs / "dev" / "block" / id, ec);
  if (ec) return std::nullopt;
  bool partition = fs::exists(dir / "partition", ec);
  auto disk = stack_member(partition ? dir.parent_path() : dir, host);
  if (!disk) return std::nullopt;
  Lower l{*disk, *disk, disk->name};
  if (partition) {
    l.exact.name = dir.filename().string();
    l.exact.path = (host.dev / l.exact.name).string();
    l.exact.dev_id = id;
    l.exact.partitions.clear();
    l.words = l.exact.name + " (a partition of " + disk->name + ")";
  }
  return l;
}

std::optional<Device> loop_device(const LoopBacking& l, const HostPaths& host) { return stack_member(host.sysfs / "block" / l.name, host); }

std::string link(const std::string& chain, const std::string& text) { return chain.empty() ? text : chain + "; " + text; }

// Rule 2 (DESIGN.md Safety): everything a write to d reaches or that reaches d — what backs a loop
// device (a disk or partition, or a file and every loop device sharing it), and the loop devices
// over d or its partitions — recursively; whatever protects any of them protects d, named by the
// chain that leads there ("is backed by sdb at offset 16 MiB; sdb: partition sdb1 is mounted at /data").
void check_stack(const Device& d, const HostPaths& host, const ProtectionProbes& probes, const StackFacts& facts, Protection& p) {
  struct Member {
    Device dev;
    std::string chain;
    std::optional<Device> below;  // under d: the exact device a write to d reaches, probed for signatures
  };
  std::set<std::string> seen{d.dev_id};
  std::deque<Member> todo;
  auto add = [&](std::optional<Device> dev, std::string chain, std::optional<Device> below, const std::string& id) {
    if (!dev) {
      p.reasons.push_back({ProtectionClass::unprobed, chain + ", which cannot be examined (device " + id + ")"});
      return;
    }
    if (seen.insert(dev->dev_id).second) todo.push_back({std::move(*dev), std::move(chain), std::move(below)});
  };
  // What stands on or under x (subject: how its own reasons name it, empty for d itself).
  auto expand = [&](const Device& x, const std::string& chain, const std::string& subject) {
    auto said = [&](const std::string& text) { return link(chain, subject.empty() ? text : subject + " " + text); };
    Parts parts = parts_of(x, host);
    for (const auto& l : facts.loops) {
      if (l.dev_id == x.dev_id) {
        if (!l.known) {
          p.reasons.push_back({ProtectionClass::unprobed, said("is a loop device that " + l.why_unknown)});
        } else if (!l.backing_dev_id.empty()) {
          auto lower = lower_device(l.backing_dev_id, host);
          std::string words = fmt::format("is backed by {}{}", lower ? lower->words : l.backing_dev_id,
                                          l.offset_bytes ? " at offset " + format_bytes(l.offset_bytes) : "");
          if (lower) add(lower->disk, said(words), lower->exact, l.backing_dev_id);
          else add(std::nullopt, said(words), std::nullopt, l.backing_dev_id);
        } else {
          for (const auto& other : facts.loops)
            if (other.known && other.file.known() && other.file == l.file && other.dev_id != x.dev_id)
              add(loop_device(other, host), said(fmt::format("shares its backing file {} with {}", l.file_name, other.name)), std::nullopt,
                  other.dev_id);
          for (const auto& w : facts.writers)
            if (l.file.known() && w.file == l.file)
              p.reasons.push_back({ProtectionClass::busy, said(fmt::format("is backed by {}, which is {} by pid {} ({})", l.file_name, w.how, w.pid, w.comm))});
          if (host.live() && l.file.known() && is_active_swap_file(l.file.dev, l.file.ino, host))
            p.reasons.push_back({ProtectionClass::swap, said(fmt::format("is backed by {}, an active swap file", l.file_name))});
        }
      } else if (l.known && !l.backing_dev_id.empty() && parts.by_id.contains(l.backing_dev_id)) {
        const std::string& part = parts.by_id.at(l.backing_dev_id);
        add(loop_device(l, host), link(chain, fmt::format("{} is backed by {}", l.name, part.empty() ? (subject.empty() ? "it" : subject) : part)),
            std::nullopt, l.dev_id);
      }
    }
  };
  expand(d, "", "");
  for (size_t steps = 0; !todo.empty() && steps < 64; ++steps) {
    Member m = std::move(todo.front());
    todo.pop_front();
    Protection mp = assess_one(m.dev, host, false, facts, true);
    // What is written under d is someone's data: its partition table or signature protects d too.
    if (m.below && probes.signatures && host.live()) {
      Protection sig;
      if (nodes_are_this_device(*m.below, host, sig)) check_signatures(*m.below, sig);
      for (auto& r : sig.reasons) mp.reasons.push_back({r.cls, (m.below->name == m.dev.name ? "" : m.below->name + " ") + r.text});
    }
    for (auto& r : mp.reasons) p.reasons.push_back({r.cls, m.chain + "; " + m.dev.name + ": " + r.text});
    expand(m.dev, m.chain, m.dev.name);
  }
  if (!todo.empty())
    p.reasons.push_back({ProtectionClass::unprobed, "stands in a storage stack too deep to judge (more than 64 devices)"});
}

}  // namespace

Protection assess_protection(const Device& d, const HostPaths& host, const ProtectionProbes& probes) {
  StackFacts gathered;
  if (!probes.facts) gathered = gather_stack_facts(host);
  const StackFacts& facts = probes.facts ? *probes.facts : gathered;
  Protection p;
  if (facts.mounts.empty())
    p.reasons.push_back({ProtectionClass::unprobed, "cannot tell whether it is mounted (no /proc/self/mountinfo; mount /proc)"});
  Protection own = assess_one(d, host, probes.signatures, facts, false);
  p.reasons.insert(p.reasons.end(), own.reasons.begin(), own.reasons.end());
  check_stack(d, host, probes, facts, p);
  // One fact reached by two paths through the stack is said once.
  std::set<std::string> said;
  std::erase_if(p.reasons, [&](const ProtectionReason& r) { return !said.insert(r.text).second; });
  return p;
}

}  // namespace diskvet::devices
