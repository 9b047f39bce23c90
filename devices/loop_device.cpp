// Loop devices through /dev/loop-control and LOOP_CONFIGURE, the way losetup -f --direct-io=on does.
#include "devices/loop_device.hpp"

#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace diskvet::devices {

bool can_create_loop_devices() { return geteuid() == 0 && access("/dev/loop-control", W_OK) == 0; }

Result<LoopDevice> LoopDevice::create(const std::string& backing, uint64_t size_bytes, const LoopOptions& options) {
  // A new file of our own: O_EXCL fails on anything already there (a planted link included).
  UniqueFd file(::open(backing.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0600));
  if (!file.valid()) return system_error(backing, "cannot create the scratch backing file", errno);
  LoopDevice loop;
  loop.backing_ = backing;  // from here on the destructor removes it
  loop.owns_backing_ = true;
  if (ftruncate(file.get(), static_cast<off_t>(size_bytes)) != 0) return system_error(backing, "cannot size the scratch backing file", errno);
  return configure(std::move(loop), file, options);
}

Result<LoopDevice> LoopDevice::attach(const std::string& backing, const LoopOptions& options) {
  UniqueFd file(::open(backing.c_str(), (options.read_only ? O_RDONLY : O_RDWR) | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC));
  if (!file.valid()) return system_error(backing, "cannot open the scratch backing file", errno);
  LoopDevice loop;
  loop.backing_ = backing;
  return configure(std::move(loop), file, options);
}

Result<LoopDevice> LoopDevice::configure(LoopDevice loop, const UniqueFd& file, const LoopOptions& options) {
  const std::string& backing = loop.backing_;
  UniqueFd ctl(::open("/dev/loop-control", O_RDWR | O_CLOEXEC));
  if (!ctl.valid()) return system_error("/dev/loop-control", "cannot open", errno, "run as root");
  // Another program may take the free device between GET_FREE and CONFIGURE: retry.
  for (int attempt = 0; attempt < 16; ++attempt) {
    int n = ioctl(ctl.get(), LOOP_CTL_GET_FREE);
    if (n < 0) return system_error("/dev/loop-control", "no free loop device", errno);
    std::string path = fmt::format("/dev/loop{}", n);
    UniqueFd dev(::open(path.c_str(), O_RDWR | O_CLOEXEC));
    if (!dev.valid()) return system_error(path, "cannot open", errno);
    loop_config cfg{};
    cfg.fd = static_cast<uint32_t>(file.get());
    cfg.block_size = options.logical_block_bytes;
    cfg.info.lo_flags = (options.direct_io ? LO_FLAGS_DIRECT_IO : 0) | (options.read_only ? LO_FLAGS_READ_ONLY : 0) |
                        (options.partscan ? LO_FLAGS_PARTSCAN : 0);
    std::snprintf(reinterpret_cast<char*>(cfg.info.lo_file_name), LO_NAME_SIZE, "%s", backing.c_str());
    int rc = ioctl(dev.get(), LOOP_CONFIGURE, &cfg);
    if (rc != 0 && errno == EINVAL && (cfg.info.lo_flags & LO_FLAGS_DIRECT_IO)) {  // backing file system without direct I/O: buffered loop
      cfg.info.lo_flags &= ~static_cast<uint32_t>(LO_FLAGS_DIRECT_IO);
      rc = ioctl(dev.get(), LOOP_CONFIGURE, &cfg);
    }
    if (rc == 0) {
      // Kept open read-only from here on (LOOP_CLR_FD needs no write access): a descriptor open
      // for writing is how the protection rules recognise another program writing a disk, and
      // the process that made the loop device is not writing it.
      UniqueFd held(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
      if (!held.valid()) {
        int err = errno;
        ioctl(dev.get(), LOOP_CLR_FD, 0);
        return system_error(path, "cannot reopen the scratch loop device", err);
      }
      loop.path_ = path;
      loop.dev_ = std::move(held);
      return loop;
    }
    if (errno != EBUSY) return system_error(path, "cannot attach the scratch file", errno);
  }
  return runtime_error("/dev/loop-control", "every free loop device was taken while attaching", "retry");
}

LoopDevice::LoopDevice(LoopDevice&& o) noexcept
    : path_(std::exchange(o.path_, {})), backing_(std::exchange(o.backing_, {})), owns_backing_(std::exchange(o.owns_backing_, false)),
      dev_(std::move(o.dev_)) {}

void LoopDevice::detach() {
  if (dev_.valid()) {
    // Only the device this object attached: its own descriptor, never a path lookup.
    for (int i = 0; i < 50 && ioctl(dev_.get(), LOOP_CLR_FD, 0) != 0 && errno == EBUSY; ++i) usleep(20'000);
    dev_.reset();
    // While another opener (udev probing the change) holds it, the kernel defers the detach to the
    // last close (autoclear); wait up to 2 s so the caller sees it gone.
    std::string name = path_.substr(path_.rfind('/') + 1);
    std::string attached = "/sys/block/" + name + "/loop/backing_file";
    for (int i = 0; i < 100 && access(attached.c_str(), F_OK) == 0; ++i) usleep(20'000);
  }
  if (owns_backing_ && !backing_.empty()) ::unlink(backing_.c_str());
  owns_backing_ = false;
  path_.clear();
  backing_.clear();
}

LoopDevice::~LoopDevice() { detach(); }

}  // namespace diskvet::devices
