// A FAT16 volume built byte by byte in memory (4 MiB, one sector per cluster), with a volume label,
// a serial and root-directory files under long names, as mformat/mcopy make the boot medium's
// DISKVET partition; for tests of what is read from a FAT without mounting it.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace diskvet::test {

class FatImage {
 public:
  static constexpr uint32_t kSector = 512, kSectors = 8192, kFatSectors = 32, kRootEntries = 512;
  static constexpr uint32_t kRootSector = 1 + 2 * kFatSectors;
  static constexpr uint32_t kDataSector = kRootSector + kRootEntries * 32 / kSector;

  FatImage(const std::string& label, uint32_t serial) : bytes_(size_t(kSectors) * kSector, '\0') {
    uint8_t* b = at(0);
    const uint8_t jump[] = {0xEB, 0x3C, 0x90};
    std::memcpy(b, jump, 3);
    std::memcpy(b + 3, "MSWIN4.1", 8);
    put16(b + 11, kSector);
    b[13] = 1;          // sectors per cluster
    put16(b + 14, 1);   // reserved sectors
    b[16] = 2;          // FATs
    put16(b + 17, kRootEntries);
    put16(b + 19, kSectors);
    b[21] = 0xF8;
    put16(b + 22, kFatSectors);
    put16(b + 24, 32);
    put16(b + 26, 64);
    b[36] = 0x80;
    b[38] = 0x29;
    put32(b + 39, serial);
    std::memcpy(b + 43, padded(label, 11).data(), 11);
    std::memcpy(b + 54, "FAT16   ", 8);
    b[510] = 0x55;
    b[511] = 0xAA;
    for (uint32_t f = 0; f < 2; ++f) {
      uint8_t* fat = at(1 + f * kFatSectors);
      put16(fat, 0xFFF8);
      put16(fat + 2, 0xFFFF);
    }
    uint8_t* e = next_entry();
    std::memcpy(e, padded(label, 11).data(), 11);
    e[11] = 0x08;  // volume label
  }

  // A file in the root directory under `long_name` (its 8.3 alias is FILE~N), in one cluster.
  void add_file(const std::string& long_name, const std::string& content) {
    uint32_t cluster = next_cluster_++;
    for (uint32_t f = 0; f < 2; ++f) put16(at(1 + f * kFatSectors) + cluster * 2, 0xFFFF);
    std::memcpy(at(kDataSector + cluster - 2), content.data(), content.size());
    std::string short_name = padded("FILE~" + std::to_string(cluster), 8) + "   ";
    uint8_t sum = 0;
    for (char c : short_name) sum = static_cast<uint8_t>(((sum & 1) << 7) + (sum >> 1) + static_cast<uint8_t>(c));
    std::vector<uint16_t> chars(long_name.begin(), long_name.end());
    chars.push_back(0);
    size_t pieces = (chars.size() + 12) / 13;
    chars.resize(pieces * 13, 0xFFFF);
    static constexpr int kChars[13] = {1, 3, 5, 7, 9, 14, 16, 18, 20, 22, 24, 28, 30};
    for (size_t piece = pieces; piece >= 1; --piece) {
      uint8_t* l = next_entry();
      l[0] = static_cast<uint8_t>(piece | (piece == pieces ? 0x40 : 0));
      l[11] = 0x0F;
      l[13] = sum;
      for (int i = 0; i < 13; ++i) put16(l + kChars[i], chars[(piece - 1) * 13 + i]);
    }
    uint8_t* e = next_entry();
    std::memcpy(e, short_name.data(), 11);
    e[11] = 0x20;
    put16(e + 26, static_cast<uint16_t>(cluster));
    put32(e + 28, static_cast<uint32_t>(content.size()));
  }

  const std::string& bytes() const { return bytes_; }

 private:
  uint8_t* at(uint32_t sector) { return reinterpret_cast<uint8_t*>(bytes_.data()) + size_t(sector) * kSector; }
  uint8_t* next_entry() { return at(kRootSector) + 32 * entries_++; }
  static void put16(uint8_t* p, uint32_t v) { p[0] = uint8_t(v), p[1] = uint8_t(v >> 8); }
  static void put32(uint8_t* p, uint32_t v) { put16(p, v & 0xFFFF), put16(p + 2, v >> 16); }
  static std::string padded(std::string s, size_t n) {
    s.resize(n, ' ');
    return s;
  }

  std::string bytes_;
  size_t entries_ = 0;
  uint32_t next_cluster_ = 2;
};

}  // namespace diskvet::test
