// Opening and probing targets with O_DIRECT.
#include "runner/io/target.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <linux/stat.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <memory>
#include <vector>

#include "common/file_kind.hpp"
#include "runner/io/rng.hpp"

namespace diskvet::runner {

Result<TargetInfo> probe_fd(int fd, const std::string& path) {
  struct stat st{};
  if (fstat(fd, &st) != 0) return system_error(path, "cannot stat", errno);
  TargetInfo info;
  info.path = path;
  if (S_ISBLK(st.st_mode)) {
    info.block_device = true;
    info.rdev = st.st_rdev;
    uint64_t size = 0;
    int lbs = 0;
    unsigned int pbs = 0;
    if (ioctl(fd, BLKGETSIZE64, &size) != 0) return system_error(path, "cannot read the device size", errno);
    if (ioctl(fd, BLKSSZGET, &lbs) != 0) return system_error(path, "cannot read the logical block size", errno);
    if (ioctl(fd, BLKPBSZGET, &pbs) != 0) pbs = static_cast<unsigned>(lbs);
    info.size_bytes = size;
    info.logical_block_size = static_cast<uint32_t>(lbs);
    info.physical_block_size = pbs;
  } else if (S_ISREG(st.st_mode)) {
    info.size_bytes = static_cast<uint64_t>(st.st_size);
    // statx reports the file system's direct-I/O alignment (Linux 6.1+); 512 is the safe default.
    struct statx sx{};
    if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN) && sx.stx_dio_offset_align)
      info.logical_block_size = sx.stx_dio_offset_align;
    info.physical_block_size = static_cast<uint32_t>(st.st_blksize);
  } else {
    return usage_error(path, "is neither a regular file nor a block device", "name a file or a /dev block device");
  }
  return info;
}

namespace {

Status fill_file(int fd, const std::string& path, uint64_t from, uint64_t to) {
  constexpr size_t kChunk = 1 << 20;
  void* mem = nullptr;
  if (posix_memalign(&mem, 4096, kChunk) != 0) return runtime_error(path, "out of memory laying out the file");
  std::unique_ptr<void, decltype(&free)> buf(mem, &free);
  Rng rng(from ^ 0x5eed);
  auto* words = static_cast<uint64_t*>(mem);
  for (size_t i = 0; i < kChunk / 8; ++i) words[i] = rng.next();
  for (uint64_t off = from; off < to;) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(kChunk, to - off));
    ssize_t w = pwrite(fd, mem, n, static_cast<off_t>(off));
    if (w < 0) return system_error(path, fmt::format("cannot lay out the file at offset {}", off), errno, "check free space");
    off += static_cast<uint64_t>(w);
  }
  if (fsync(fd) != 0) return system_error(path, "cannot fsync the laid-out file", errno);
  return ok_status();
}

}  // namespace

Result<Target> Target::adopt(UniqueFd fd, const std::string& path, bool writable, bool allow_buffered) {
  int flags = fcntl(fd.get(), F_GETFL);
  if (flags < 0) return system_error(path, "bad descriptor", errno);
  bool direct = true;
  if (!(flags & O_DIRECT) && fcntl(fd.get(), F_SETFL, flags | O_DIRECT) != 0) {
    struct stat st{};
    const int e = errno;
    if (!(allow_buffered && e == EINVAL && ::fstat(fd.get(), &st) == 0 && S_ISREG(st.st_mode)))
      return system_error(path, "refuses O_DIRECT", e, "use a file system or device that supports direct I/O (tmpfs does not)");
    direct = false;
  }
  auto info = probe_fd(fd.get(), path);
  if (!info) return info.error();
  info->direct = direct;
  Target t;
  t.info_ = std::move(*info);
  t.fd_ = std::move(fd);
  t.writable_ = writable;
  return t;
}

Result<Target> Target::lay_out(UniqueFd created, const std::string& path, uint64_t size_bytes, bool writable, bool allow_buffered) {
  // On failure remove what this process created, and only that: the name must still be its inode.
  struct stat mine{};
  const bool known = ::fstat(created.get(), &mine) == 0;
  auto remove_created = [&] {
    struct stat there{};
    if (known && ::lstat(path.c_str(), &there) == 0 && mine.st_dev == there.st_dev && mine.st_ino == there.st_ino) ::unlink(path.c_str());
  };
  auto filled = fill_file(created.get(), path, 0, size_bytes);
  if (!filled) {
    remove_created();
    return filled.error();
  }
  auto t = adopt(std::move(created), path, writable, allow_buffered);
  if (!t) remove_created();  // e.g. a file system without O_DIRECT
  return t;
}

Result<Target> Target::open(const std::string& path, bool writable, uint64_t min_size) {
  if (min_size > 0) {
    // Lay out a new scratch file with buffered writes first; O_DIRECT is added when it is adopted.
    UniqueFd lay(::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0644));
    if (lay.valid()) return lay_out(std::move(lay), path, min_size, writable);
    if (errno != EEXIST) {
      if (errno == ENOENT) return usage_error(path, "does not exist", "check that its directory exists");
      return system_error(path, "cannot create the scratch file", errno);
    }
  }
  // Reads may follow a link (a by-id name of a disk). Writes never do: the path is looked at through
  // O_PATH (nothing opened for I/O), judged on fstat, and reopened through that descriptor.
  std::string open_path = path;
  UniqueFd anchor;
  // A FIFO, socket or character device is refused on its type before any open that could block.
  struct stat seen{};
  if (::stat(path.c_str(), &seen) == 0 && !S_ISREG(seen.st_mode) && !S_ISBLK(seen.st_mode))
    return usage_error(path, fmt::format("is {}; a target is a block device or a regular file", file_kind(seen.st_mode)), "name a disk or a file");
  if (writable) {
    anchor.reset(::open(path.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
    struct stat st{};
    if (anchor.valid() && ::fstat(anchor.get(), &st) == 0) {
      if (S_ISLNK(st.st_mode)) return safety_error(path, "is a symbolic link; diskvet never writes through one", "name the file itself");
      if (S_ISBLK(st.st_mode)) return safety_error(path, "block devices are opened for writing only through the protection gate");
      if (!S_ISREG(st.st_mode)) return usage_error(path, "is not a regular file", "name a file or a /dev block device");
      open_path = fmt::format("/proc/self/fd/{}", anchor.get());
    }
  }
  // O_NONBLOCK: a FIFO named as a target is refused below instead of blocking the open forever.
  int flags = (writable ? O_RDWR | O_NOCTTY : O_RDONLY | O_NOCTTY) | O_DIRECT | O_CLOEXEC | O_NONBLOCK;
  UniqueFd fd(::open(open_path.c_str(), flags));
  if (!fd.valid() && anchor.valid() && errno == ENOENT) fd.reset(::open(path.c_str(), flags | O_NOFOLLOW));  // no /proc
  if (!fd.valid()) {
    int e = errno;
    if (e == EINVAL) return usage_error(path, "refuses O_DIRECT", "use a file system or device that supports direct I/O (tmpfs does not)");
    if (e == EACCES || e == EPERM) return system_error(path, "permission denied", e, "run as root or fix the permissions");
    if (e == EROFS) return system_error(path, "is on a read-only file system", e);
    if (e == ENOENT) return usage_error(path, "does not exist", "give --size to create a scratch file of that size");
    return system_error(path, "cannot open", e);
  }
  struct stat st{};
  if (::fstat(fd.get(), &st) != 0) return system_error(path, "cannot stat", errno);
  if (writable && !S_ISREG(st.st_mode)) return safety_error(path, "changed while it was being opened; refusing to write", "try again");
  if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
    return usage_error(path, fmt::format("is {}; a target is a block device or a regular file", file_kind(st.st_mode)), "name a disk or a file");
  // The I/O itself blocks as it should: O_NONBLOCK was for the open only.
  if (::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK) != 0) return system_error(path, "cannot clear O_NONBLOCK", errno);
  return adopt(std::move(fd), path, writable);
}

Target Target::null(uint64_t size_bytes, uint32_t lbs) {
  Target t;
  t.info_.path = "null";
  t.info_.size_bytes = size_bytes;
  t.info_.logical_block_size = lbs;
  t.info_.physical_block_size = lbs;
  t.writable_ = true;
  return t;
}

namespace {

// A new descriptor on the open file `anchor` through /proc/self/fd, or a duplicate of it.
Result<UniqueFd> reopen_fd(int anchor, int flags, const std::string& path) {
  std::string self = fmt::format("/proc/self/fd/{}", anchor);
  UniqueFd fd(::open(self.c_str(), flags));
  if (!fd.valid()) {
    // /proc may be absent in a minimal environment: share the anchor's open file instead.
    fd.reset(::fcntl(anchor, F_DUPFD_CLOEXEC, 0));
    if (!fd.valid()) return system_error(path, "cannot open a job descriptor", errno);
  }
  return fd;
}

}  // namespace

Result<UniqueFd> Target::reopen() const {
  return reopen_fd(fd_.get(), (writable_ ? O_RDWR : O_RDONLY) | (info_.direct ? O_DIRECT : 0) | O_CLOEXEC, info_.path);
}

Status Target::attach_passthrough(const SystemRoots& roots) {
  if (!info_.block_device)
    return usage_error(info_.path, "is not a block device: NVMe passthrough needs an NVMe namespace", "name /dev/nvmeXnY, or use --engine io_uring");
  auto node = generic_node_of_block(info_.rdev, roots);
  if (!node) return node.error();
  auto fd = open_generic_node(*node, writable_);
  if (!fd) return fd.error();
  auto nsid = namespace_id(fd->get(), node->path);
  if (!nsid) return nsid.error();
  passthrough_fd_ = std::move(*fd);
  info_.passthrough_path = node->path;
  info_.passthrough_rdev = node->rdev;
  info_.nsid = *nsid;
  return ok_status();
}

Result<UniqueFd> Target::reopen_passthrough() const {
  if (!passthrough_fd_.valid()) return usage_error(info_.path, "has no NVMe passthrough node attached", "use --engine io_uring");
  return reopen_fd(passthrough_fd_.get(), (writable_ ? O_RDWR : O_RDONLY) | O_CLOEXEC, info_.passthrough_path);
}

}  // namespace diskvet::runner
