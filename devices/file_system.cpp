// A file's file system from mountinfo: matched by device number, narrowed by mount point.
#include "devices/file_system.hpp"

#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include <fmt/format.h>

#include <charconv>
#include <filesystem>

#include "common/units.hpp"
#include "devices/sysfs.hpp"

namespace diskvet::devices {

namespace {

bool holds(const std::string& mountpoint, const std::string& path) {
  if (mountpoint == "/") return !path.empty() && path[0] == '/';
  return path == mountpoint || (path.size() > mountpoint.size() && path.compare(0, mountpoint.size(), mountpoint) == 0 &&
                                path[mountpoint.size()] == '/');
}

// statfs(2) f_type of the file systems a test file is likely on, for when mountinfo does not show
// the mount (a chroot whose root is a directory of a larger mount).
std::string fstype_of_magic(unsigned long magic) {
  switch (magic) {
    case 0xEF53: return "ext2/3/4";
    case 0x58465342: return "xfs";
    case 0x9123683E: return "btrfs";
    case 0x6969: return "nfs";
    case 0x01021994: return "tmpfs";
    case 0x794C7630: return "overlay";
    case 0x65735546: return "fuse";
    case 0xFF534D42: return "cifs";
    case 0x2FC12FC1: return "zfs";
    case 0x47504653: return "gpfs";
    case 0x0BD00BD0: return "lustre";
    case 0x00C36400: return "ceph";
    default: return fmt::format("unknown (statfs type {:#x})", magic);
  }
}

uint64_t to_u64(const std::string& s) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() ? v : 0;
}

}  // namespace

std::string option_value(const std::string& options, const std::string& key) {
  size_t start = 0;
  while (start <= options.size()) {
    size_t end = options.find(',', start);
    if (end == std::string::npos) end = options.size();
    std::string_view item(options.data() + start, end - start);
    if (item.size() > key.size() && item.compare(0, key.size(), key) == 0 && item[key.size()] == '=')
      return std::string(item.substr(key.size() + 1));
    start = end + 1;
  }
  return {};
}

std::optional<FileSystemFacts> file_system_of(const std::string& dev_id, const std::string& canonical_path,
                                              const std::vector<MountEntry>& mounts) {
  const MountEntry* best = nullptr;
  const MountEntry* first = nullptr;
  for (const auto& m : mounts) {
    if (m.dev_id != dev_id) continue;
    if (!first) first = &m;
    if (holds(m.mountpoint, canonical_path) && (!best || m.mountpoint.size() >= best->mountpoint.size())) best = &m;
  }
  const MountEntry* m = best ? best : first;
  if (!m) return std::nullopt;
  FileSystemFacts f;
  f.mountpoint = m->mountpoint;
  f.fstype = m->fstype;
  f.source = m->source;
  f.mount_options = m->mount_options;
  f.super_options = m->super_options;
  if (f.fstype == "nfs" || f.fstype == "nfs4") {
    f.nfs_server = option_value(f.super_options, "addr");
    if (f.nfs_server.empty()) {
      // "server:/export", "[fe80::1]:/export"
      auto colon = f.source.rfind(":/");
      if (colon != std::string::npos) f.nfs_server = f.source.substr(0, colon);
    }
    f.nfs_version = option_value(f.super_options, "vers");
    f.nfs_rsize_bytes = to_u64(option_value(f.super_options, "rsize"));
    f.nfs_wsize_bytes = to_u64(option_value(f.super_options, "wsize"));
  }
  return f;
}

Result<FileSystemFacts> file_system_of_path(const std::string& path, const HostPaths& host) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) return system_error(path, "cannot stat", errno);
  std::error_code ec;
  std::string canonical = std::filesystem::weakly_canonical(path, ec).string();
  if (ec) canonical = path;
  std::string dev_id = fmt::format("{}:{}", major(st.st_dev), minor(st.st_dev));
  auto f = file_system_of(dev_id, canonical, parse_mountinfo(read_raw(host.proc / "self" / "mountinfo")));
  if (f) return *f;
  // Not in this process's mount table (a chroot): the type from statfs, the rest unknown, and said so.
  struct statfs sf{};
  if (::statfs(path.c_str(), &sf) != 0) return system_error(path, "cannot statfs", errno);
  FileSystemFacts g;
  g.fstype = fstype_of_magic(static_cast<unsigned long>(sf.f_type));
  g.source = "unknown";
  g.mountpoint = fmt::format("unknown (device {} is not in /proc/self/mountinfo, as in a chroot)", dev_id);
  g.mount_options = "unknown";
  return g;
}

std::string describe(const FileSystemFacts& f) {
  std::string s = fmt::format("{} {} at {} ({})", f.fstype, f.source, f.mountpoint, f.mount_options);
  if (!f.nfs_server.empty() || f.nfs_rsize_bytes || f.nfs_wsize_bytes) {
    s += fmt::format(", NFS server {}", f.nfs_server.empty() ? "unknown" : f.nfs_server);
    if (!f.nfs_version.empty()) s += ", vers " + f.nfs_version;
    s += fmt::format(", rsize {}, wsize {}", f.nfs_rsize_bytes ? format_bytes(f.nfs_rsize_bytes) : "unknown",
                     f.nfs_wsize_bytes ? format_bytes(f.nfs_wsize_bytes) : "unknown");
  }
  if (!f.direct_io) s += "; O_DIRECT refused: buffered I/O through the page cache";
  return s;
}

}  // namespace diskvet::devices
