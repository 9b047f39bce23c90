// A fake sysfs tree in a temporary directory, removed when the object goes away; for discovery
// and protection tests that must not depend on the host's disks.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace diskvet::test {

class FakeSysfs {
 public:
  FakeSysfs() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "diskvet-devices-fake-XXXXXX").string();
    root_ = ::mkdtemp(tmpl.data()) ? std::filesystem::path(tmpl) : std::filesystem::path();
    std::filesystem::create_directories(sysfs() / "block");
    std::filesystem::create_directories(dev());
    std::filesystem::create_directories(proc() / "self");
  }
  FakeSysfs(const FakeSysfs&) = delete;
  FakeSysfs& operator=(const FakeSysfs&) = delete;
  ~FakeSysfs() {
    std::error_code ec;
    if (!root_.empty()) std::filesystem::remove_all(root_, ec);
  }

  std::filesystem::path sysfs() const { return root_ / "sys"; }
  std::filesystem::path dev() const { return root_ / "dev"; }
  std::filesystem::path proc() const { return root_ / "proc"; }

  // Writes a file (creating its directories) under the fake root, relative to sys/.
  void write(const std::string& rel, const std::string& text) const {
    auto p = sysfs() / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }
  void write_proc(const std::string& rel, const std::string& text) const {
    auto p = proc() / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }
  // A disk at sys/devices/<parent>/block/<name>, linked from sys/block/<name>, with queue facts.
  std::filesystem::path add_disk(const std::string& parent, const std::string& name, const std::string& dev_id,
                                 uint64_t sectors, uint32_t lbs = 512) const {
    std::string base = "devices/" + parent + "/block/" + name;
    write(base + "/dev", dev_id + "\n");
    write(base + "/size", std::to_string(sectors) + "\n");
    write(base + "/ro", "0\n");
    write(base + "/removable", "0\n");
    write(base + "/uevent", "MAJOR=0\nMINOR=0\nDEVNAME=" + name + "\nDEVTYPE=disk\n");
    write(base + "/queue/logical_block_size", std::to_string(lbs) + "\n");
    write(base + "/queue/physical_block_size", "4096\n");
    write(base + "/queue/rotational", "0\n");
    write(base + "/queue/write_cache", "write back\n");
    write(base + "/queue/discard_max_bytes", "2199023255040\n");
    write(base + "/queue/max_hw_sectors_kb", "128\n");
    write(base + "/queue/scheduler", "[none] mq-deadline\n");
    write(base + "/queue/zoned", "none\n");
    std::filesystem::create_directories(sysfs() / base / "holders");
    std::filesystem::create_symlink(std::filesystem::path("../") / base, sysfs() / "block" / name);
    return sysfs() / base;
  }
  void add_partition(const std::filesystem::path& disk, const std::string& name, const std::string& dev_id) const {
    auto rel = std::filesystem::relative(disk / name, sysfs()).string();
    write(rel + "/partition", "1\n");
    write(rel + "/dev", dev_id + "\n");
    std::filesystem::create_directories(disk / name / "holders");
  }

 private:
  std::filesystem::path root_;
};

}  // namespace diskvet::test
