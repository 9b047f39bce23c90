// FAT as Microsoft's "FAT: General Overview of On-Disk Format" (v1.03) lays it out: the BIOS
// parameter block in sector 0, the root directory after the FATs (FAT12/16) or as a cluster chain
// (FAT32), long names (VFAT) as 0x0F entries before their 8.3 entry. Read-only, bounded.
#include "devices/fat_file.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <vector>

namespace diskvet::devices {

namespace {

uint16_t u16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint32_t u32(const uint8_t* p) { return u16(p) | (static_cast<uint32_t>(u16(p + 2)) << 16); }

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

struct Volume {
  uint32_t bytes_per_sector = 0;
  uint32_t cluster_bytes = 0;
  uint64_t fat_offset = 0;      // first FAT
  uint64_t root_offset = 0;     // FAT12/16: the fixed root directory
  uint32_t root_bytes = 0;      // FAT12/16
  uint32_t root_cluster = 0;    // FAT32 (root_bytes == 0)
  uint64_t data_offset = 0;     // cluster 2
  uint64_t cluster_offset(uint32_t c) const { return data_offset + uint64_t(c - 2) * cluster_bytes; }
};

std::optional<Volume> parse_boot_sector(const uint8_t* b) {
  if (b[510] != 0x55 || b[511] != 0xAA) return std::nullopt;
  Volume v;
  v.bytes_per_sector = u16(b + 11);
  uint32_t per_cluster = b[13];
  uint32_t reserved = u16(b + 14), fats = b[16], root_entries = u16(b + 17);
  uint32_t fat_sectors = u16(b + 22) ? u16(b + 22) : u32(b + 36);
  bool sector_ok = v.bytes_per_sector == 512 || v.bytes_per_sector == 1024 || v.bytes_per_sector == 2048 ||
                   v.bytes_per_sector == 4096;
  bool cluster_ok = per_cluster != 0 && (per_cluster & (per_cluster - 1)) == 0 && per_cluster <= 128;
  if (!sector_ok || !cluster_ok || reserved == 0 || fats == 0 || fats > 2 || fat_sectors == 0) return std::nullopt;
  v.cluster_bytes = per_cluster * v.bytes_per_sector;
  v.fat_offset = uint64_t(reserved) * v.bytes_per_sector;
  v.root_offset = v.fat_offset + uint64_t(fats) * fat_sectors * v.bytes_per_sector;
  v.root_bytes = root_entries * 32;
  uint32_t root_sectors = (v.root_bytes + v.bytes_per_sector - 1) / v.bytes_per_sector;
  v.data_offset = v.root_offset + uint64_t(root_sectors) * v.bytes_per_sector;
  if (root_entries == 0) {
    v.root_cluster = u32(b + 44);
    if (v.root_cluster < 2) return std::nullopt;
  }
  return v;
}

// The root directory's bytes: the fixed area, or the FAT32 chain (at most 64 clusters).
std::optional<std::vector<uint8_t>> root_directory(const ReadAt& read_at, const Volume& v) {
  std::vector<uint8_t> dir;
  if (v.root_bytes) {
    dir.resize(v.root_bytes);
    if (!read_at(v.root_offset, dir.data(), dir.size())) return std::nullopt;
    return dir;
  }
  uint32_t c = v.root_cluster;
  for (int n = 0; n < 64 && c >= 2 && c < 0x0FFFFFF8; ++n) {
    size_t at = dir.size();
    dir.resize(at + v.cluster_bytes);
    if (!read_at(v.cluster_offset(c), dir.data() + at, v.cluster_bytes)) return std::nullopt;
    uint8_t next[4];
    if (!read_at(v.fat_offset + uint64_t(c) * 4, next, 4)) return std::nullopt;
    c = u32(next) & 0x0FFFFFFF;
  }
  return dir;
}

}  // namespace

std::optional<std::string> read_fat_root_file(const ReadAt& read_at, std::string_view name, size_t max_bytes) {
  uint8_t boot[512];
  if (!read_at(0, boot, sizeof boot)) return std::nullopt;
  auto v = parse_boot_sector(boot);
  if (!v) return std::nullopt;
  auto dir = root_directory(read_at, *v);
  if (!dir) return std::nullopt;
  std::string long_name(260, '\0');
  bool have_long = false;
  for (size_t at = 0; at + 32 <= dir->size(); at += 32) {
    const uint8_t* e = dir->data() + at;
    if (e[0] == 0x00) break;  // end of the directory
    if (e[0] == 0xE5) {       // deleted
      have_long = false;
      continue;
    }
    uint8_t attr = e[11];
    if (attr == 0x0F) {  // a long-name piece: 13 UTF-16 characters, pieces numbered from 1
      uint32_t seq = e[0] & 0x1F;
      if (e[0] & 0x40) std::fill(long_name.begin(), long_name.end(), '\0'), have_long = true;
      if (seq == 0 || seq > 20) {
        have_long = false;
        continue;
      }
      static constexpr int kChars[13] = {1, 3, 5, 7, 9, 14, 16, 18, 20, 22, 24, 28, 30};
      for (int i = 0; i < 13; ++i) {
        uint16_t ch = u16(e + kChars[i]);
        long_name[(seq - 1) * 13 + i] = (ch == 0 || ch == 0xFFFF) ? '\0' : (ch < 0x80 ? static_cast<char>(ch) : '?');
      }
      continue;
    }
    std::string lfn = have_long ? std::string(long_name.c_str()) : std::string();
    have_long = false;
    if (attr & 0x18) continue;  // volume label or directory
    std::string base(reinterpret_cast<const char*>(e), 8), ext(reinterpret_cast<const char*>(e + 8), 3);
    base.erase(base.find_last_not_of(' ') + 1);
    ext.erase(ext.find_last_not_of(' ') + 1);
    std::string short_name = ext.empty() ? base : base + "." + ext;
    if (!same_name(lfn, name) && !same_name(short_name, name)) continue;
    uint32_t size = u32(e + 28);
    uint32_t cluster = u16(e + 26) | (v->root_bytes ? 0u : static_cast<uint32_t>(u16(e + 20)) << 16);
    if (size > max_bytes || size > v->cluster_bytes) return std::nullopt;
    if (size == 0) return std::string();
    if (cluster < 2) return std::nullopt;
    std::string data(size, '\0');
    if (!read_at(v->cluster_offset(cluster), data.data(), size)) return std::nullopt;
    return data;
  }
  return std::nullopt;
}

std::optional<std::string> read_fat_root_file(int fd, std::string_view name, size_t max_bytes) {
  return read_fat_root_file(
      [fd](uint64_t offset, void* buf, size_t len) {
        ssize_t n = ::pread(fd, buf, len, static_cast<off_t>(offset));
        return n == static_cast<ssize_t>(len);
      },
      name, max_bytes);
}

}  // namespace diskvet::devices
