// A device's I/O errors: the first few kept with test and LBA, and told in words.
#include "runner/run/io_error_report.hpp"

#include <gtest/gtest.h>

#include <cerrno>

using namespace diskvet;
using namespace diskvet::runner;

namespace {

Measurement with_errors(std::initializer_list<uint64_t> offsets) {
  Measurement m;
  for (uint64_t off : offsets) m.first_errors.push_back(IoError{Direction::read, off, EIO, -EIO});
  m.io_errors = offsets.size();
  return m;
}

}  // namespace

TEST(IoErrorReport, KeepsTheFirstErrorsOfEveryWorkloadInOrderUpToALimit) {
  std::vector<DeviceIoError> kept;
  keep_first_io_errors(kept, "seqread", with_errors({16u << 20, (16u << 20) + 4096}), 4096);
  keep_first_io_errors(kept, "randread", with_errors({0, 1, 2, 3, 4, 5, 6, 7, 8}), 512);
  ASSERT_EQ(kept.size(), kMaxDeviceIoErrors);
  EXPECT_EQ(kept[0].test_id, "seqread");
  EXPECT_EQ(kept[0].lba, 4096u);  // 16 MiB in 4 KiB blocks
  EXPECT_EQ(kept[1].lba, 4097u);
  EXPECT_EQ(kept[2].test_id, "randread");
  EXPECT_EQ(kept.back().error.offset_bytes, 5u);
}

TEST(IoErrorReport, AnErrorIsToldWithItsDirectionLbaOffsetTestAndErrno) {
  DeviceIoError e{"seqread-128k", IoError{Direction::read, 16u << 20, EIO, -EIO}, 32768};
  std::string s = describe_io_error(e);
  EXPECT_NE(s.find("read at LBA 32768"), std::string::npos) << s;
  EXPECT_NE(s.find("in seqread-128k"), std::string::npos) << s;
  EXPECT_NE(s.find("(errno 5)"), std::string::npos) << s;
  DeviceIoError short_read{"seqread-128k", IoError{Direction::read, 4096, 0, 0}, 8};
  EXPECT_NE(describe_io_error(short_read).find("short transfer (0 bytes)"), std::string::npos) << describe_io_error(short_read);
}
