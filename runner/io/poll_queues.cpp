// Reading a block device's io_poll through /sys/dev/block/MAJ:MIN (DESIGN.md: decide on the object
// opened, by its device number, never by a name).
#include "runner/io/poll_queues.hpp"

#include <sys/sysmacros.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

namespace diskvet::runner {

namespace {

constexpr const char* kFix =
    "polled completions need a driver with poll queues: for NVMe, boot with nvme.poll_queues=N (or load the nvme module "
    "with poll_queues=N); otherwise drop --hipri";

}  // namespace

Status check_poll_queues(const TargetInfo& target, const std::string& sysfs_root) {
  if (!target.block_device)
    return usage_error("--hipri",
                       fmt::format("{} is not a block device: diskvet polls completions only on a device's own queue", target.path),
                       "run it on the block device, or drop --hipri");
  namespace fs = std::filesystem;
  const fs::path dev = fs::path(sysfs_root) / "dev" / "block" / fmt::format("{}:{}", major(target.rdev), minor(target.rdev));
  std::error_code ec;
  fs::path node = fs::canonical(dev, ec);
  if (ec) node = dev;
  // A partition has no queue of its own: it is its disk's.
  if (fs::exists(node / "partition", ec)) node = node.parent_path();
  const fs::path io_poll = node / "queue" / "io_poll";
  std::ifstream in(io_poll);
  int value = -1;
  if (!(in >> value))
    return usage_error(target.path, fmt::format("cannot tell whether its queue polls ({} is unreadable)", io_poll.string()), kFix);
  if (value != 1)
    return usage_error(
        target.path,
        fmt::format("its driver has no poll queues (/sys/block/{}/queue/io_poll is {}), so --hipri cannot poll its completions",
                    node.filename().string(), value),
        kFix);
  return ok_status();
}

}  // namespace diskvet::runner
