// Interim device identity from sysfs: model, serial, WWN, firmware, size, block sizes, kind.
#include "cli/device_describe.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "runner/target.hpp"

namespace diskvet::cli {

namespace fs = std::filesystem;

namespace {
std::string read_trimmed(const fs::path& p) {
  std::ifstream in(p);
  std::string s;
  std::getline(in, s);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\t')) s.pop_back();
  size_t start = s.find_first_not_of(' ');
  return start == std::string::npos ? std::string() : s.substr(start);
}
}  // namespace

Result<devices::Device> describe_device(const std::string& path) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) return usage_error(path, "does not exist", "check the path with 'diskvet list'");
  devices::Device d;
  d.path = path;
  d.name = fs::path(path).filename().string();
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return system_error(path, "cannot open to identify it", errno, "run as root");
  auto info = runner::probe_fd(fd.get(), path);
  if (!info) return info.error();
  d.size_bytes = info->size_bytes;
  d.logical_block_size = info->logical_block_size;
  d.physical_block_size = info->physical_block_size;
  if (!S_ISBLK(st.st_mode)) {
    d.kind = devices::DeviceKind::other;
    d.model = "regular file";
    return d;
  }
  std::error_code ec;
  fs::path sys = fs::canonical(fmt::format("/sys/dev/block/{}:{}", major(st.st_rdev), minor(st.st_rdev)), ec);
  d.name = sys.filename().string();
  if (d.name.starts_with("nvme")) d.kind = devices::DeviceKind::nvme;
  else if (d.name.starts_with("loop")) d.kind = devices::DeviceKind::loop;
  else if (d.name.starts_with("vd")) d.kind = devices::DeviceKind::virtio;
  else if (d.name.starts_with("sd")) d.kind = devices::DeviceKind::scsi;
  else if (d.name.starts_with("zram")) d.kind = devices::DeviceKind::zram;
  d.model = read_trimmed(sys / "device" / "model");
  d.serial = read_trimmed(sys / "device" / "serial");
  d.firmware = read_trimmed(sys / "device" / "firmware_rev");
  d.wwn = read_trimmed(sys / "wwid");
  if (d.wwn.empty()) d.wwn = read_trimmed(sys / "device" / "wwid");
  if (d.kind == devices::DeviceKind::loop) d.backing_file = read_trimmed(sys / "loop" / "backing_file");
  d.rotational = read_trimmed(sys / "queue" / "rotational") == "1";
  d.read_only = read_trimmed(sys / "ro") == "1";
  return d;
}

}  // namespace diskvet::cli
