// The report's JSON (runner/report/report_json.hpp): a device's I/O errors listed with test and LBA.
#include "runner/report/report_json.hpp"

#include <gtest/gtest.h>

#include <cerrno>

using namespace diskvet;
using namespace diskvet::runner;

TEST(IoErrorReport, TheReportListsTheDevicesCountAndFirstErrorsWithTheirLba) {
  RunResult r;
  DeviceResult d;
  d.device.path = "/dev/nvme0n1";
  d.facts.io_errors = 3;
  d.first_io_errors.push_back(DeviceIoError{"seqread", IoError{Direction::write, 1u << 20, EIO, -EIO}, 2048});
  r.devices.push_back(d);
  r.devices.push_back(DeviceResult{});
  auto doc = report_json(r, HostInfo{});
  const auto& dev = doc.at("devices").as_array()[0].as_object();
  EXPECT_EQ(dev.at("io_errors").as_uint64(), 3u);
  const auto& first = dev.at("first_io_errors").as_array().at(0).as_object();
  EXPECT_EQ(first.at("lba").as_uint64(), 2048u);
  EXPECT_EQ(first.at("offset_bytes").as_uint64(), 1u << 20);
  EXPECT_EQ(first.at("direction").as_string(), "write");
  EXPECT_EQ(first.at("test").as_string(), "seqread");
  EXPECT_EQ(first.at("errno").as_int64(), EIO);
  EXPECT_TRUE(doc.at("devices").as_array()[1].as_object().at("first_io_errors").as_array().empty()) << "a clean device lists none";
}
