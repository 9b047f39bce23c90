// Write gate, first cut: mounted, held, swap and read-only block devices are refused, others need
// consent by path or all-unprotected; the device is then held with O_EXCL.
#include "devices/write_gate.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace diskvet::devices {

namespace fs = std::filesystem;

namespace {

// The disk and its partitions as "major:minor" strings, from sysfs.
std::vector<std::string> disk_and_partitions(const fs::path& sysdir, std::string own) {
  std::vector<std::string> ids{std::move(own)};
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(sysdir, ec)) {
    std::ifstream dev(e.path() / "dev");
    std::string id;
    if (fs::exists(e.path() / "partition") && (dev >> id)) ids.push_back(id);
  }
  return ids;
}

std::optional<std::string> reason_protected(const std::string& path, dev_t rdev) {
  std::string own = fmt::format("{}:{}", major(rdev), minor(rdev));
  fs::path sysdir = fs::path("/sys/dev/block") / own;
  std::error_code ec;
  sysdir = fs::canonical(sysdir, ec);
  auto ids = disk_and_partitions(sysdir, own);

  std::ifstream mountinfo("/proc/self/mountinfo");
  for (std::string line; std::getline(mountinfo, line);) {
    std::istringstream in(line);
    std::string id, parent, devno, root, mountpoint;
    in >> id >> parent >> devno >> root >> mountpoint;
    if (std::find(ids.begin(), ids.end(), devno) != ids.end()) return fmt::format("is mounted at {}", mountpoint);
  }
  for (const auto& e : fs::directory_iterator(sysdir, ec)) {
    fs::path holders = fs::exists(e.path() / "partition") ? e.path() / "holders" : fs::path();
    if (!holders.empty() && !fs::is_empty(holders, ec)) return fmt::format("partition {} has holders (LVM, MD or dm)", e.path().filename().string());
  }
  if (!fs::is_empty(sysdir / "holders", ec) && !ec) return "has holders (LVM, MD or dm)";
  std::ifstream swaps("/proc/swaps");
  for (std::string line; std::getline(swaps, line);) {
    std::string name = line.substr(0, line.find_first_of(" \t"));
    struct stat st{};
    if (::stat(name.c_str(), &st) == 0 && S_ISBLK(st.st_mode)) {
      std::string sid = fmt::format("{}:{}", major(st.st_rdev), minor(st.st_rdev));
      if (std::find(ids.begin(), ids.end(), sid) != ids.end()) return "is in use as swap";
    }
  }
  std::ifstream ro(sysdir / "ro");
  int flag = 0;
  if ((ro >> flag) && flag) return "is read-only";
  (void)path;
  return std::nullopt;
}

}  // namespace

Result<WriteGrant> open_for_write(const std::string& path, const Consent& consent) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return usage_error(path, "does not exist");
    return system_error(path, "cannot stat", errno);
  }
  if (!S_ISBLK(st.st_mode)) {
    UniqueFd fd(::open(path.c_str(), O_RDWR | O_DIRECT | O_CLOEXEC));
    if (!fd.valid()) return system_error(path, "cannot open for writing", errno);
    return WriteGrant{path, std::move(fd), false};
  }
  if (auto why = reason_protected(path, st.st_rdev))
    return safety_error(path, "PROTECTED: " + *why + "; refusing to write", "nothing was written");
  bool named = std::any_of(consent.ids.begin(), consent.ids.end(), [&](const std::string& id) {
    return id == "all-unprotected" || id == path;
  });
  if (!named)
    return safety_error(path, "a write test destroys the data on this device and needs consent",
                        fmt::format("add --destroy-data {} if its contents may be lost", path));
  UniqueFd fd(::open(path.c_str(), O_RDWR | O_DIRECT | O_EXCL | O_CLOEXEC));
  if (!fd.valid()) {
    if (errno == EBUSY) return safety_error(path, "PROTECTED: held open exclusively by another program; refusing to write");
    return system_error(path, "cannot open for writing", errno);
  }
  return WriteGrant{path, std::move(fd), true};
}

}  // namespace diskvet::devices
