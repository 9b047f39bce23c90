// Finding a namespace's generic char device through sysfs by device number (DESIGN.md: decide on
// the object, never on a name), and encoding the NVMe I/O commands sent through it.
#include "runner/io/nvme_passthrough.hpp"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <fmt/format.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <optional>

#include "runner/io/passthrough_size.hpp"
#include "runner/io/target.hpp"

namespace diskvet::runner {

namespace fs = std::filesystem;

namespace {

constexpr const char* kNoNode =
    "io_uring_cmd needs the namespace's generic char device (/dev/ngXnY, Linux 5.13 or later with the nvme driver); "
    "use --engine io_uring on the block device";

// "MAJ:MIN" as sysfs' dev files hold it.
std::optional<dev_t> read_dev_file(const fs::path& file) {
  std::ifstream in(file);
  unsigned maj = 0, min = 0;
  char colon = 0;
  if (!(in >> maj >> colon >> min) || colon != ':') return std::nullopt;
  return makedev(maj, min);
}

std::string dev_string(dev_t d) { return fmt::format("{}:{}", major(d), minor(d)); }

fs::path canonical_or_same(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::canonical(p, ec);
  return ec ? p : c;
}

// nvme<digits>n<digits>, the name of a namespace's block device (not a partition nvme0n1p1, not a
// multipath member nvme0c0n1), and the same after "ng" for its generic node; the part after the
// prefix is returned.
std::optional<std::string> namespace_suffix(const std::string& name, std::string_view prefix) {
  if (name.rfind(prefix, 0) != 0) return std::nullopt;
  const std::string rest = name.substr(prefix.size());
  const size_t n = rest.find('n');
  auto digits = [](std::string_view s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos; };
  if (n == std::string::npos || !digits(std::string_view(rest).substr(0, n)) || !digits(std::string_view(rest).substr(n + 1)))
    return std::nullopt;
  return rest;
}

}  // namespace

Result<DeviceNode> generic_node_of_block(dev_t block_rdev, const SystemRoots& roots) {
  const std::string id = dev_string(block_rdev);
  const fs::path block = canonical_or_same(fs::path(roots.sysfs) / "dev" / "block" / id);
  std::error_code ec;
  if (!fs::exists(block / "dev", ec)) return usage_error(id, "is not a block device sysfs knows", kNoNode);
  const std::string name = block.filename().string();
  if (fs::exists(block / "partition", ec))
    return usage_error(fmt::format("/dev/{}", name), "is a partition: NVMe passthrough addresses the whole namespace",
                       "name the namespace's block device, e.g. /dev/nvme0n1");
  const auto suffix = namespace_suffix(name, "nvme");
  if (!suffix) return usage_error(fmt::format("/dev/{}", name), "is not an NVMe namespace", kNoNode);
  const std::string ng = "ng" + *suffix;
  const fs::path generic = fs::path(roots.sysfs) / "class" / "nvme-generic" / ng;
  const auto rdev = read_dev_file(generic / "dev");
  // The sibling check: the ng node hangs under the same controller (or subsystem) as the disk.
  if (!rdev || canonical_or_same(generic).parent_path() != block.parent_path())
    return usage_error(fmt::format("/dev/{}", name), fmt::format("has no generic char device ({} is not in sysfs beside it)", ng), kNoNode);
  return DeviceNode{ng, (fs::path(roots.dev) / ng).string(), *rdev};
}

Result<DeviceNode> block_of_generic_node(dev_t char_rdev, const SystemRoots& roots) {
  const std::string id = dev_string(char_rdev);
  const fs::path cls = fs::path(roots.sysfs) / "class" / "nvme-generic";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(cls, ec)) {
    if (read_dev_file(entry.path() / "dev") != char_rdev) continue;
    const std::string ng = entry.path().filename().string();
    const auto suffix = namespace_suffix(ng, "ng");
    if (!suffix) break;
    const std::string name = "nvme" + *suffix;
    const fs::path block = canonical_or_same(entry.path()).parent_path() / name;
    const auto rdev = read_dev_file(block / "dev");
    if (!rdev) break;
    return DeviceNode{name, (fs::path(roots.dev) / name).string(), *rdev};
  }
  return usage_error(id, "is not the generic char device of an NVMe namespace with a block device",
                     "name the namespace's block device, e.g. /dev/nvme0n1, or its /dev/ngXnY");
}

Result<UniqueFd> open_generic_node(const DeviceNode& node, bool writable) {
  UniqueFd fd(::open(node.path.c_str(), (writable ? O_RDWR : O_RDONLY) | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC));
  if (!fd.valid()) {
    const int e = errno;
    if (e == ENOENT) return usage_error(node.path, "does not exist although sysfs lists it", "create the node (mdev, udev) or use --engine io_uring");
    return system_error(node.path, "cannot open the generic char device", e, "run as root");
  }
  struct stat st{};
  if (::fstat(fd.get(), &st) != 0) return system_error(node.path, "cannot stat", errno);
  if (!S_ISCHR(st.st_mode) || st.st_rdev != node.rdev)
    return safety_error(node.path, fmt::format("is not the char device {} that sysfs names for it", dev_string(node.rdev)),
                        "check /dev: the node was replaced");
  return fd;
}

Result<uint32_t> namespace_id(int fd, const std::string& path) {
  const int id = ::ioctl(fd, NVME_IOCTL_ID);
  if (id <= 0) return system_error(path, "cannot read the namespace id", id < 0 ? errno : EINVAL, "use --engine io_uring");
  return static_cast<uint32_t>(id);
}

nvme_uring_cmd encode_nvme_rw(Direction d, uint64_t offset_bytes, uint32_t len_bytes, uint32_t lba_bytes, uint32_t nsid, uint64_t buffer_addr) {
  nvme_uring_cmd c{};
  c.opcode = d == Direction::read ? kNvmeCmdRead : kNvmeCmdWrite;
  c.nsid = nsid;
  c.addr = buffer_addr;
  c.data_len = len_bytes;
  const uint64_t slba = offset_bytes / lba_bytes;
  c.cdw10 = static_cast<uint32_t>(slba);
  c.cdw11 = static_cast<uint32_t>(slba >> 32);
  c.cdw12 = (len_bytes / lba_bytes - 1) & 0xffff;
  return c;
}

uint64_t max_passthrough_bytes(dev_t block_rdev, uint32_t lba_bytes, const SystemRoots& roots) {
  std::ifstream in(fs::path(roots.sysfs) / "dev" / "block" / dev_string(block_rdev) / "queue" / "max_hw_sectors_kb");
  uint64_t kb = 0;
  if (!(in >> kb) || kb == 0) return 0;
  return std::min<uint64_t>(kb * 1024, uint64_t{65536} * lba_bytes);
}

Status check_passthrough_size(uint32_t bs_bytes, const TargetInfo& t) {
  if (const uint64_t most = max_passthrough_bytes(t.rdev, t.logical_block_size); most && bs_bytes > most)
    return usage_error("--bs", fmt::format("{} bytes is more than one NVMe command on {} may carry ({} bytes)", bs_bytes, t.passthrough_path, most),
                       fmt::format("use --bs {} or less", most));
  return ok_status();
}

}  // namespace diskvet::runner
