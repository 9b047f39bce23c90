// Stack facts from the live kernel: loop backings by ioctl on a verified node, writers from
// /proc/PID/fd and /proc/PID/maps by identity (statx that never waits on a network or FUSE server).
#include "devices/stack_facts.hpp"

#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <set>
#include <sstream>

#include "common/deadline.hpp"
#include "common/fd.hpp"
#include "devices/sysfs.hpp"

namespace diskvet::devices {

namespace fs = std::filesystem;

std::string dev_id_of(dev_t rdev) { return fmt::format("{}:{}", major(rdev), minor(rdev)); }

namespace {

bool is_pid(const std::string& s) {
  int ignored = 0;
  return !s.empty() && std::from_chars(s.data(), s.data() + s.size(), ignored).ec == std::errc{} &&
         s.find_first_not_of("0123456789") == std::string::npos;
}

struct LoopAnswer {
  int err = 0;             // errno of the open or the ioctl; 0 when answered
  std::string not_this;    // the node is another device: what it is
  loop_info64 info{};
};

// The loop device's status through /dev/NAME, checked by fstat to be device `dev_id`; the open and
// the ioctl run under a deadline (LOOP_GET_STATUS64 stats the backing file, which can block).
LoopAnswer ask_loop(const std::string& node, const std::string& dev_id) {
  LoopAnswer a;
  UniqueFd fd(::open(node.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (!fd.valid()) {
    a.err = errno;
    return a;
  }
  struct stat st{};
  if (::fstat(fd.get(), &st) != 0) {
    a.err = errno;
    return a;
  }
  if (!S_ISBLK(st.st_mode) || dev_id_of(st.st_rdev) != dev_id) {
    a.not_this = S_ISBLK(st.st_mode) ? "device " + dev_id_of(st.st_rdev) : "not a block device";
    return a;
  }
  if (::ioctl(fd.get(), LOOP_GET_STATUS64, &a.info) != 0) a.err = errno;
  return a;
}

// statx that answers from what the kernel holds: AT_STATX_DONT_SYNC keeps FUSE and NFS from asking
// their server, so a stalled one cannot hang the look.
bool quick_statx(const std::string& path, struct statx& sx) {
  return ::statx(AT_FDCWD, path.c_str(), AT_STATX_DONT_SYNC | AT_NO_AUTOMOUNT, STATX_TYPE | STATX_INO, &sx) == 0;
}

void identify(const struct statx& sx, Writer& w) {
  if (S_ISBLK(sx.stx_mode)) w.dev_id = fmt::format("{}:{}", sx.stx_rdev_major, sx.stx_rdev_minor);
  else if (S_ISREG(sx.stx_mode)) w.file = {makedev(sx.stx_dev_major, sx.stx_dev_minor), static_cast<ino_t>(sx.stx_ino)};
}

// fdinfo's "flags:" is octal; O_WRONLY and O_RDWR are the access modes that write.
bool opened_for_writing(const fs::path& fdinfo) {
  std::string info = read_raw(fdinfo);
  auto at = info.find("flags:");
  if (at == std::string::npos) return false;
  unsigned long flags = std::strtoul(info.c_str() + at + 6, nullptr, 8);
  return (flags & O_ACCMODE) != O_RDONLY;
}

void fd_writers(const fs::path& pid_dir, const Writer& who, bool live, std::vector<Writer>& out) {
  std::error_code ec;
  for (const auto& fd_entry : fs::directory_iterator(pid_dir / "fd", ec)) {
    std::error_code link_ec;
    std::string target = fs::read_symlink(fd_entry.path(), link_ec).string();
    if (link_ec || !target.starts_with("/")) continue;  // sockets, pipes, anon inodes
    if (!opened_for_writing(pid_dir / "fdinfo" / fd_entry.path().filename())) continue;
    Writer w = who;
    w.how = "open for writing";
    w.node = target;
    if (live) {
      struct statx sx{};
      if (!quick_statx(fd_entry.path().string(), sx)) continue;
      identify(sx, w);
      if (w.dev_id.empty() && !w.file.known()) continue;
    }
    out.push_back(std::move(w));
  }
}

// /proc/PID/maps: "7f..-7f.. rw-s 00000000 00:05 123 /dev/loop3". A shared writable mapping writes
// its object even after its descriptor is closed. map_files/ gives the object itself (its st_rdev for
// a device); without it (no CAP_SYS_ADMIN) the line's own device and inode name a file.
void map_writers(const fs::path& pid_dir, const Writer& who, bool live, std::vector<Writer>& out) {
  std::istringstream lines(read_raw(pid_dir / "maps"));
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream f(line);
    std::string range, perms, offset, dev, inode, name;
    if (!(f >> range >> perms >> offset >> dev >> inode)) continue;
    std::getline(f >> std::ws, name);
    if (perms.size() < 4 || perms[1] != 'w' || perms[3] != 's' || inode == "0") continue;
    Writer w = who;
    w.how = "mapped shared and writable";
    w.node = name;
    if (live) {
      struct statx sx{};
      if (quick_statx((pid_dir / "map_files" / range).string(), sx)) {
        identify(sx, w);
      } else {
        unsigned maj = 0, min = 0;
        if (std::sscanf(dev.c_str(), "%x:%x", &maj, &min) == 2)
          w.file = {makedev(maj, min), static_cast<ino_t>(std::strtoull(inode.c_str(), nullptr, 10))};
      }
      if (w.dev_id.empty() && !w.file.known()) continue;
    }
    out.push_back(std::move(w));
  }
}

}  // namespace

std::vector<LoopBacking> read_loops(const HostPaths& host) {
  std::vector<LoopBacking> out;
  if (!host.live()) return out;  // fake trees: the tests give their facts
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(host.sysfs / "block", ec)) {
    std::string name = e.path().filename().string();
    auto file_name = read_attr(e.path() / "loop" / "backing_file");
    if (!name.starts_with("loop") || !file_name) continue;  // not a loop device, or not attached
    LoopBacking l;
    l.name = name;
    l.dev_id = read_attr(e.path() / "dev").value_or("");
    l.file_name = *file_name;
    std::string node = (host.dev / name).string();
    auto answer = call_with_deadline(kStackCallDeadline, [node, id = l.dev_id] { return ask_loop(node, id); });
    if (!answer) {
      l.timed_out = true;
      l.why_unknown = fmt::format("did not say what backs it within {} s", kStackCallDeadline.count() / 1000.0);
    } else if (!answer->not_this.empty()) {
      l.why_unknown = fmt::format("{} here is {}, not {} ({}): another device has its name in this mount namespace", node,
                                  answer->not_this, name, l.dev_id);
    } else if (answer->err != 0) {
      l.err = answer->err;
      l.why_unknown = fmt::format("cannot tell what backs it: {}", std::strerror(answer->err));
    } else {
      l.known = true;
      const loop_info64& i = answer->info;
      l.offset_bytes = i.lo_offset;
      l.sizelimit_bytes = i.lo_sizelimit;
      if (i.lo_rdevice != 0) l.backing_dev_id = dev_id_of(static_cast<dev_t>(i.lo_rdevice));
      else l.file = {static_cast<dev_t>(i.lo_device), static_cast<ino_t>(i.lo_inode)};
    }
    out.push_back(std::move(l));
  }
  return out;
}

bool is_active_swap_file(dev_t dev, ino_t ino, const HostPaths& host) {
  for (const auto& swap : parse_swaps(read_raw(host.proc / "swaps"))) {
    struct stat sst{};
    if (::stat(swap.c_str(), &sst) == 0 && S_ISREG(sst.st_mode) && sst.st_dev == dev && sst.st_ino == ino) return true;
  }
  return false;
}

std::vector<MountEntry> read_all_mounts(const HostPaths& host) {
  std::vector<MountEntry> out = parse_mountinfo(read_raw(host.proc / "self" / "mountinfo"));
  if (!host.live()) return out;
  std::error_code ec;
  std::set<std::string> namespaces;
  std::string own = fs::read_symlink(host.proc / "self" / "ns" / "mnt", ec).string();
  if (!ec) namespaces.insert(own);
  for (const auto& proc_entry : fs::directory_iterator(host.proc, ec)) {
    if (!is_pid(proc_entry.path().filename().string())) continue;
    std::error_code ns_ec;
    std::string ns = fs::read_symlink(proc_entry.path() / "ns" / "mnt", ns_ec).string();
    if (ns_ec || !namespaces.insert(ns).second) continue;
    auto theirs = parse_mountinfo(read_raw(proc_entry.path() / "mountinfo"));
    out.insert(out.end(), std::make_move_iterator(theirs.begin()), std::make_move_iterator(theirs.end()));
  }
  return out;
}

std::vector<Writer> read_writers(const HostPaths& host) {
  std::vector<Writer> out;
  const std::string self = std::to_string(::getpid());
  std::error_code ec;
  for (const auto& proc_entry : fs::directory_iterator(host.proc, ec)) {
    std::string pid = proc_entry.path().filename().string();
    if (pid == self || !is_pid(pid)) continue;
    Writer who;
    who.pid = pid;
    who.comm = read_attr(proc_entry.path() / "comm").value_or("?");
    fd_writers(proc_entry.path(), who, host.live(), out);
    map_writers(proc_entry.path(), who, host.live(), out);
  }
  return out;
}

}  // namespace diskvet::devices
