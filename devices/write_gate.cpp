// Write gate: identifies the whole disk behind a node, asks protection and consent, then holds the
// disk with O_EXCL and asks protection once more under the hold; files go to the file gate.
#include "devices/write_gate.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <fmt/format.h>

#include "devices/discovery.hpp"
#include "devices/file_gate.hpp"
#include "devices/protection.hpp"

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

Result<WriteGrant> open_for_write(const std::string& path, const Consent& consent, uint64_t create_size_bytes) {
  // O_PATH opens nothing for I/O (no device open, no side effect): it only says what is there.
  struct stat st{};
  UniqueFd probe(::open(path.c_str(), O_PATH | O_CLOEXEC));
  bool is_block = probe.valid() && ::fstat(probe.get(), &st) == 0 && S_ISBLK(st.st_mode);
  if (!probe.valid() && errno != ENOENT) return system_error(path, "cannot open", errno);
  if (!is_block) {
    auto file = open_file_for_write(path, consent, create_size_bytes);
    if (!file) return file.error();
    return WriteGrant{path, std::move(file->fd), false, file->created, {}};
  }
  HostPaths host;
  auto disk = whole_disk(path, st.st_rdev, host);
  if (!disk) return disk.error();
  // Whether a serial or WWN names this disk alone is decided against every disk of the host, read
  // from the same source (sysfs) as this one.
  const std::vector<Device> host_disks = describe_disks(host);
  Protection before = assess_protection(*disk, host);
  if (auto ok = check_consent(*disk, before, consent, host_disks); !ok) return ok.error();

  // The one exclusive open diskvet makes: consent reached this device and it is about to be written.
  UniqueFd fd(::open(path.c_str(), O_RDWR | O_DIRECT | O_EXCL | O_CLOEXEC));
  if (!fd.valid()) {
    if (errno == EBUSY)
      return safety_error(path, "PROTECTED: is held open exclusively by another program; refusing to write", "nothing was written");
    return system_error(path, "cannot open for writing", errno);
  }
  // Under the hold nobody can mount or claim it; whatever is true now stays true for the test.
  struct stat held{};
  if (::fstat(fd.get(), &held) != 0 || !S_ISBLK(held.st_mode) || held.st_rdev != st.st_rdev)
    return safety_error(path, "PROTECTED: the device node changed while it was being opened; refusing to write", "try again");
  Protection under = assess_protection(*disk, host);
  if (auto ok = check_consent(*disk, under, consent, host_disks); !ok) return ok.error();
  apply(*disk, under);
  return WriteGrant{path, std::move(fd), true, false, std::move(*disk)};
}

}  // namespace diskvet::devices
