// Write gate: identifies the whole disk behind a node, asks protection and consent, then holds the
// disk with O_EXCL and asks protection once more under the hold.
#include "devices/write_gate.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <fmt/format.h>

#include "devices/discovery.hpp"
#include "devices/host_state.hpp"
#include "devices/protection.hpp"
#include "devices/sysfs.hpp"

namespace diskvet::devices {

namespace fs = std::filesystem;

namespace {

Result<Device> whole_disk(const std::string& path, dev_t rdev, const HostPaths& host) {
  std::string id = fmt::format("{}:{}", major(rdev), minor(rdev));
  std::error_code ec;
  fs::path sysdir = fs::canonical(host.sysfs / "dev" / "block" / id, ec);
  if (ec) return safety_error(path, "PROTECTED: not found in sysfs, so it cannot be checked; refusing to write", "mount /sys");
  if (fs::exists(sysdir / "partition", ec))
    return safety_error(path, fmt::format("PROTECTED: is a partition of {}; diskvet writes whole disks only, refusing to write",
                                          sysdir.parent_path().filename().string()),
                        "nothing was written");
  auto d = describe_disk(sysdir, host);
  if (!d) return safety_error(path, "PROTECTED: is not a whole disk diskvet can check; refusing to write", "nothing was written");
  // d->path is the kernel's node (/dev/sda) even when the operator named a by-id symlink; consent
  // ids are resolved the same way, and the open below is checked to be this very device.
  return *d;
}

}  // namespace

Status check_scratch_file(const std::string& path, const HostPaths& host) {
  std::error_code ec;
  fs::path file = fs::canonical(path, ec);
  if (ec) return ok_status();  // not there yet: a new scratch file backs nothing
  struct stat st{};
  if (::stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return ok_status();
  for (const auto& e : fs::directory_iterator(host.sysfs / "block", ec)) {
    auto backing = read_attr(e.path() / "loop" / "backing_file");
    if (!backing || backing->empty()) continue;
    struct stat bst{};
    bool same = *backing == file.string() ||
                (::stat(backing->c_str(), &bst) == 0 && bst.st_dev == st.st_dev && bst.st_ino == st.st_ino);
    if (same)
      return safety_error(path, fmt::format("PROTECTED: backs loop device /dev/{}; refusing to write the file behind it",
                                            e.path().filename().string()),
                          fmt::format("nothing was written; test /dev/{} itself (with --destroy-data) instead",
                                      e.path().filename().string()));
  }
  for (const auto& swap : parse_swaps(read_raw(host.proc / "swaps"))) {
    struct stat sst{};
    if (::stat(swap.c_str(), &sst) == 0 && S_ISREG(sst.st_mode) && sst.st_dev == st.st_dev && sst.st_ino == st.st_ino)
      return safety_error(path, "PROTECTED: is an active swap file; refusing to write", "nothing was written");
  }
  return ok_status();
}

Result<WriteGrant> open_for_write(const std::string& path, const Consent& consent) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return usage_error(path, "does not exist");
    return system_error(path, "cannot stat", errno);
  }
  if (!S_ISBLK(st.st_mode)) {
    if (auto ok = check_scratch_file(path); !ok) return ok.error();
    UniqueFd fd(::open(path.c_str(), O_RDWR | O_DIRECT | O_CLOEXEC));
    if (!fd.valid()) return system_error(path, "cannot open for writing", errno);
    return WriteGrant{path, std::move(fd), false, {}};
  }
  HostPaths host;
  auto disk = whole_disk(path, st.st_rdev, host);
  if (!disk) return disk.error();
  // Whether a serial or WWN names this disk alone is decided against every disk of the host, read
  // from the same source (sysfs) as this one.
  const std::vector<Device> host_disks = describe_disks(host);
  Protection before = assess_protection(*disk, host);
  if (auto ok = check_consent(*disk, before, consent, host_disks); !ok) return ok.error();

  UniqueFd fd(::open(path.c_str(), O_RDWR | O_DIRECT | O_EXCL | O_CLOEXEC));
  if (!fd.valid()) {
    if (errno == EBUSY)
      return safety_error(path, "PROTECTED: is held open exclusively by another program; refusing to write", "nothing was written");
    return system_error(path, "cannot open for writing", errno);
  }
  // Under the hold nobody can mount or claim it; whatever is true now stays true for the test.
  struct stat held{};
  if (::fstat(fd.get(), &held) != 0 || held.st_rdev != st.st_rdev)
    return safety_error(path, "PROTECTED: the device node changed while it was being opened; refusing to write", "try again");
  Protection under = assess_protection(*disk, host, ProtectionProbes{.signatures = true, .exclusive = false});
  if (auto ok = check_consent(*disk, under, consent, host_disks); !ok) return ok.error();
  apply(*disk, under);
  return WriteGrant{path, std::move(fd), true, std::move(*disk)};
}

}  // namespace diskvet::devices
