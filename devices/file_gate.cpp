// File gate: open first, decide on what was opened, write only that.
#include "devices/file_gate.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>

#include "common/file_kind.hpp"
#include "common/units.hpp"
#include "devices/host_state.hpp"
#include "devices/stack_facts.hpp"
#include "devices/sysfs.hpp"

namespace diskvet::devices {

namespace fs = std::filesystem;

std::string loop_backed_by(dev_t dev, ino_t ino, const HostPaths& host) {
  const FileId file{dev, ino};
  auto loops = read_loops(host);
  for (const auto& l : loops)
    if (l.known && l.file == file) return l.name;
  auto mounts = parse_mountinfo(read_raw(host.proc / "self" / "mountinfo"));
  for (const auto& l : loops) {
    if (l.known) continue;
    if (l.timed_out) {
      // Its backing file system is stalled: the file cannot be ruled out when the backing file's name
      // lies on this file's file system, or on none this namespace shows.
      const MountEntry* best = nullptr;
      for (const auto& m : mounts)
        if (l.file_name.starts_with(m.mountpoint) && (!best || m.mountpoint.size() > best->mountpoint.size())) best = &m;
      if (!best || best->dev_id == dev_id_of(dev))
        return fmt::format("{} (it {}, and its backing file {} may be this one)", l.name, l.why_unknown, l.file_name);
    } else if (l.err == EACCES || l.err == EPERM || l.err == ENOENT || l.err == 0) {
      // Its node could not be asked here (no permission, no node, another device's node): the name the
      // kernel gives for its backing file, looked at without waiting on any server.
      struct statx sx{};
      if (::statx(AT_FDCWD, l.file_name.c_str(), AT_STATX_DONT_SYNC | AT_NO_AUTOMOUNT, STATX_INO, &sx) == 0 &&
          makedev(sx.stx_dev_major, sx.stx_dev_minor) == dev && sx.stx_ino == ino)
        return l.name;
    }
    // Otherwise the kernel could not stat its backing file (ENOTCONN: a FUSE daemon gone): a file
    // this process just examined on a working file system is not that one.
  }
  return {};
}

Status check_replaceable(const std::string& path, const HostPaths& host) {
  UniqueFd anchor(::open(path.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
  if (!anchor.valid()) return ok_status();  // nothing there (or nothing reachable): the caller's checks say which
  struct stat st{};
  if (::fstat(anchor.get(), &st) != 0 || !S_ISREG(st.st_mode)) return ok_status();
  if (auto loop = loop_backed_by(st.st_dev, st.st_ino, host); !loop.empty())
    return safety_error(path, fmt::format("PROTECTED: backs loop device /dev/{}; a report is never written over it", loop),
                        "nothing was written; choose another output path");
  if (is_active_swap_file(st.st_dev, st.st_ino, host))
    return safety_error(path, "PROTECTED: is an active swap file; a report is never written over it", "nothing was written; choose another output path");
  return ok_status();
}

Status decide_file_write(const std::string& path, const OpenedFile& f, const Consent& consent) {
  if (S_ISLNK(f.mode))
    return safety_error(path, "PROTECTED: is a symbolic link; diskvet never writes through a link to a file, refusing to write",
                        "nothing was written; name the file itself, or for a disk the disk");
  if (S_ISBLK(f.mode))
    return safety_error(path, "PROTECTED: became a block device node while it was being opened as a file; refusing to write",
                        "nothing was written; name the disk itself, with --destroy-data");
  if (!S_ISREG(f.mode))
    return safety_error(path, fmt::format("PROTECTED: is {}, not a regular file or a disk; refusing to write", file_kind(f.mode)),
                        "nothing was written");
  if (!f.backs_loop.empty())
    return safety_error(path, fmt::format("PROTECTED: backs loop device /dev/{}; refusing to write the file behind it", f.backs_loop),
                        fmt::format("nothing was written; test /dev/{} itself (with --destroy-data) instead", f.backs_loop));
  if (f.swap) return safety_error(path, "PROTECTED: is an active swap file; refusing to write", "nothing was written");
  if (f.created) return ok_status();
  if (const ConsentId* bad = consent.refused())
    return safety_error(path, fmt::format("--destroy-data {} {}; refusing to write", bad->text, bad->refused),
                        "nothing was written; name the file by its path");
  // Consent names the inode its id resolved to when diskvet started, never a path looked up now.
  bool named = f.id.known() && std::any_of(consent.resolved.begin(), consent.resolved.end(),
                                           [&](const ConsentId& c) { return c.file.known() && c.file == f.id; });
  if (named) return ok_status();
  return safety_error(path,
                      fmt::format("is an existing file ({}) that diskvet did not create: writing it destroys its data and needs consent",
                                  format_bytes(f.size_bytes)),
                      fmt::format("nothing was written; add --destroy-data {} if its contents may be lost; {} does not cover files",
                                  path, kAllUnprotected));
}

Result<FileGrant> open_file_for_write(const std::string& path, const Consent& consent, uint64_t create_size_bytes, const HostPaths& host) {
  if (create_size_bytes > 0) {
    // O_EXCL with O_CREAT never follows a link, dangling or not: whatever is there makes it fail.
    UniqueFd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0644));
    if (fd.valid()) return FileGrant{std::move(fd), true, 0};
    if (errno != EEXIST) return system_error(path, "cannot create the scratch file", errno, "check that the directory exists and is writable");
  }
  UniqueFd anchor(::open(path.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
  if (!anchor.valid()) {
    if (errno == ENOENT) return usage_error(path, "does not exist", "give --size to create a scratch file of that size");
    return system_error(path, "cannot open", errno);
  }
  struct stat st{};
  if (::fstat(anchor.get(), &st) != 0) return system_error(path, "cannot stat", errno);
  OpenedFile f{st.st_mode, false, static_cast<uint64_t>(st.st_size), {}, false, {st.st_dev, st.st_ino}};
  if (S_ISREG(st.st_mode)) {
    f.backs_loop = loop_backed_by(st.st_dev, st.st_ino, host);
    f.swap = is_active_swap_file(st.st_dev, st.st_ino, host);
  }
  if (auto ok = decide_file_write(path, f, consent); !ok) return ok.error();

  // Reopen the very inode that was judged, through its descriptor (not the path again).
  std::string self = fmt::format("{}/self/fd/{}", host.proc.string(), anchor.get());
  UniqueFd fd(::open(self.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC));
  if (!fd.valid() && errno == ENOENT)  // no /proc: the path again, then checked to be the same inode
    fd.reset(::open(path.c_str(), O_RDWR | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC));
  if (!fd.valid()) return system_error(path, "cannot open for writing", errno, "check the permissions");
  struct stat now{};
  if (::fstat(fd.get(), &now) != 0 || now.st_dev != st.st_dev || now.st_ino != st.st_ino || !S_ISREG(now.st_mode))
    return safety_error(path, "PROTECTED: the file changed while it was being opened; refusing to write", "nothing was written; try again");
  return FileGrant{std::move(fd), false, static_cast<uint64_t>(now.st_size)};
}

}  // namespace diskvet::devices
