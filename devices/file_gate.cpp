// File gate: open first, decide on what was opened, write only that.
#include "devices/file_gate.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "common/units.hpp"
#include "devices/host_state.hpp"
#include "devices/sysfs.hpp"

namespace diskvet::devices {

namespace fs = std::filesystem;

namespace {

std::string kind_of(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISBLK(mode)) return "a block device node";
  if (S_ISCHR(mode)) return "a character device node";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// The path with its directories resolved and its last component kept as it is (never followed).
std::string canonical_keeping_last(const std::string& path) {
  fs::path p(path);
  std::error_code ec;
  fs::path dir = fs::canonical(p.has_parent_path() ? p.parent_path() : fs::path("."), ec);
  if (ec) return fs::absolute(p, ec).lexically_normal().string();
  return (dir / p.filename()).string();
}

}  // namespace

std::string loop_backed_by(dev_t dev, ino_t ino, const HostPaths& host) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(host.sysfs / "block", ec)) {
    auto backing = read_attr(e.path() / "loop" / "backing_file");
    if (!backing || backing->empty()) continue;
    struct stat bst{};
    if (::stat(backing->c_str(), &bst) == 0 && bst.st_dev == dev && bst.st_ino == ino) return e.path().filename().string();
  }
  return {};
}

bool is_active_swap_file(dev_t dev, ino_t ino, const HostPaths& host) {
  for (const auto& swap : parse_swaps(read_raw(host.proc / "swaps"))) {
    struct stat sst{};
    if (::stat(swap.c_str(), &sst) == 0 && S_ISREG(sst.st_mode) && sst.st_dev == dev && sst.st_ino == ino) return true;
  }
  return false;
}

Status decide_file_write(const std::string& path, const std::string& canonical, const OpenedFile& f, const Consent& consent) {
  if (S_ISLNK(f.mode))
    return safety_error(path, "PROTECTED: is a symbolic link; diskvet never writes through a link to a file, refusing to write",
                        "nothing was written; name the file itself, or for a disk the disk");
  if (S_ISBLK(f.mode))
    return safety_error(path, "PROTECTED: became a block device node while it was being opened as a file; refusing to write",
                        "nothing was written; name the disk itself, with --destroy-data");
  if (!S_ISREG(f.mode))
    return safety_error(path, fmt::format("PROTECTED: is {}, not a regular file or a disk; refusing to write", kind_of(f.mode)),
                        "nothing was written");
  if (!f.backs_loop.empty())
    return safety_error(path, fmt::format("PROTECTED: backs loop device /dev/{}; refusing to write the file behind it", f.backs_loop),
                        fmt::format("nothing was written; test /dev/{} itself (with --destroy-data) instead", f.backs_loop));
  if (f.swap) return safety_error(path, "PROTECTED: is an active swap file; refusing to write", "nothing was written");
  if (f.created) return ok_status();
  bool named = std::any_of(consent.ids.begin(), consent.ids.end(),
                           [&](const std::string& id) { return id == path || (!canonical.empty() && id == canonical); });
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
  OpenedFile f{st.st_mode, false, static_cast<uint64_t>(st.st_size), {}, false};
  if (S_ISREG(st.st_mode)) {
    f.backs_loop = loop_backed_by(st.st_dev, st.st_ino, host);
    f.swap = is_active_swap_file(st.st_dev, st.st_ino, host);
  }
  if (auto ok = decide_file_write(path, canonical_keeping_last(path), f, consent); !ok) return ok.error();

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
