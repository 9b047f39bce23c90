// Reading one small file from a FAT root directory without mounting: the boot medium's marker.
#include "devices/fat_file.hpp"

#include <gtest/gtest.h>

#include <cstring>

#include "tests/unit/devices/fat_image.hpp"

namespace diskvet::devices {
namespace {

ReadAt reader(const std::string& bytes) {
  return [&bytes](uint64_t offset, void* buf, size_t len) {
    if (offset > bytes.size() || len > bytes.size() - offset) return false;
    std::memcpy(buf, bytes.data() + offset, len);
    return true;
  };
}

TEST(FatFile, ReadsARootFileByItsLongName) {
  test::FatImage fat("DISKVET", 0x0123abcd);
  fat.add_file("diskvet.conf.example", "run=quick\n");
  fat.add_file("diskvet-medium-id", "0123abcd4567ef89\n");
  EXPECT_EQ(read_fat_root_file(reader(fat.bytes()), "diskvet-medium-id", 256), "0123abcd4567ef89\n");
  EXPECT_EQ(read_fat_root_file(reader(fat.bytes()), "DISKVET-MEDIUM-ID", 256), "0123abcd4567ef89\n");
  EXPECT_EQ(read_fat_root_file(reader(fat.bytes()), "diskvet.conf.example", 256), "run=quick\n");
}

TEST(FatFile, FindsNothingWhenTheFileIsAbsentOrTooLong) {
  test::FatImage fat("DISKVET", 1);
  fat.add_file("diskvet-medium-id-old", "x");
  fat.add_file("big", std::string(300, 'b'));
  EXPECT_FALSE(read_fat_root_file(reader(fat.bytes()), "diskvet-medium-id", 256));
  EXPECT_FALSE(read_fat_root_file(reader(fat.bytes()), "big", 256));
}

TEST(FatFile, FindsNothingOnAVolumeThatIsNotFat) {
  std::string zeros(1 << 20, '\0');
  EXPECT_FALSE(read_fat_root_file(reader(zeros), "diskvet-medium-id", 256));
  test::FatImage fat("DISKVET", 1);
  fat.add_file("diskvet-medium-id", "abc");
  std::string broken = fat.bytes();
  broken[11] = 3;  // 771 bytes per sector: not a FAT boot sector
  EXPECT_FALSE(read_fat_root_file(reader(broken), "diskvet-medium-id", 256));
  std::string short_read = fat.bytes().substr(0, 4096);  // root directory beyond the end
  EXPECT_FALSE(read_fat_root_file(reader(short_read), "diskvet-medium-id", 256));
}

}  // namespace
}  // namespace diskvet::devices
