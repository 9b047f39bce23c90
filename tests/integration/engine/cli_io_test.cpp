// `diskvet io` as a user runs it: fio-shaped JSON, one clear line and exit 2 for bad input, interrupts.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "tests/support/lab.hpp"

using diskvet::testing::run_command;
using diskvet::testing::ScratchFile;
namespace json = boost::json;

namespace {

diskvet::testing::CommandResult io(std::vector<std::string> args, int interrupt_ms = 0) {
  args.insert(args.begin(), {DISKVET_BIN, "io"});
  return run_command(args, interrupt_ms);
}

void expect_one_line_usage_error(const diskvet::testing::CommandResult& r, const std::string& mentions) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(mentions), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

}  // namespace

TEST(CliIo, JsonHasFiosShapeForEachDirection) {
  ScratchFile f("cli-json");
  auto r = io({"--filename", f.path(), "--size", "8m", "--rw", "randrw", "--rwmixread", "70", "--bs", "8k",
               "--iodepth", "4", "--runtime", "1s", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json::value doc = json::parse(r.out);
  const json::object& job = doc.at("jobs").as_array().at(0).as_object();
  for (const char* dir : {"read", "write"}) {
    const json::object& d = job.at(dir).as_object();
    for (const char* key : {"iops", "bw_bytes", "bw", "io_bytes", "io_kbytes", "runtime", "total_ios", "iops_stddev"})
      EXPECT_TRUE(d.contains(key)) << dir << "." << key;
    const json::object& lat = d.at("lat_ns").as_object();
    for (const char* key : {"min", "max", "mean", "stddev", "N", "percentile"}) EXPECT_TRUE(lat.contains(key)) << key;
    EXPECT_TRUE(lat.at("percentile").as_object().contains("99.000000"));
    EXPECT_TRUE(lat.at("percentile").as_object().contains("99.999900"));
    EXPECT_GT(d.at("total_ios").to_number<double>(), 0);
    EXPECT_EQ(d.at("io_bytes").to_number<uint64_t>(), d.at("total_ios").to_number<uint64_t>() * 8192);
    EXPECT_EQ(lat.at("N").to_number<uint64_t>(), d.at("total_ios").to_number<uint64_t>());
  }
  EXPECT_TRUE(job.contains("usr_cpu"));
  EXPECT_TRUE(job.contains("sys_cpu"));
  EXPECT_FALSE(job.at("intervals").as_array().empty());
  for (const auto& iv : job.at("intervals").as_array()) {
    EXPECT_TRUE(iv.as_object().contains("lat_p99_ns"));
    EXPECT_TRUE(iv.at("read").as_object().contains("lat_p99_ns"));
    EXPECT_TRUE(iv.at("write").as_object().contains("lat_p99_ns"));
  }
  EXPECT_GT(job.at("intervals").as_array().at(0).at("lat_p99_ns").to_number<uint64_t>(), 0u);
  EXPECT_FALSE(job.at("interrupted").as_bool());
}

TEST(CliIo, UnknownOptionIsOneLineAndExit2) {
  auto r = io({"--filename", "x", "--frobnicate", "3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("frobnicate"), std::string::npos) << r.err;
}

TEST(CliIo, BlockSizeNotAMultipleOfTheLogicalBlockSizeIsRefused) {
  ScratchFile f("cli-bs", 1 << 20);
  expect_one_line_usage_error(io({"--filename", f.path(), "--bs", "1000", "--runtime", "1"}), "--bs");
}

TEST(CliIo, RegionPastTheEndIsRefused) {
  ScratchFile f("cli-region", 1 << 20);
  expect_one_line_usage_error(io({"--filename", f.path(), "--offset", "512k", "--size", "1m", "--runtime", "1"}), "--size");
}

TEST(CliIo, MissingPathIsRefused) {
  expect_one_line_usage_error(io({"--rw", "randread", "--runtime", "1"}), "--filename");
  expect_one_line_usage_error(io({"--filename", "/nonexistent/dir/file", "--runtime", "1"}), "does not exist");
}

TEST(CliIo, TargetThatRefusesODirectIsRefused) {
  // procfs files are regular files that refuse O_DIRECT on every kernel (tmpfs accepts it since 6.6).
  auto r = io({"--filename", "/proc/version", "--runtime", "1"});
  expect_one_line_usage_error(r, "O_DIRECT");
}

TEST(CliIo, BadValuesNameTheirOption) {
  ScratchFile f("cli-values", 1 << 20);
  expect_one_line_usage_error(io({"--filename", f.path(), "--rw", "sideways"}), "--rw");
  expect_one_line_usage_error(io({"--filename", f.path(), "--bs", "4q"}), "--bs");
  expect_one_line_usage_error(io({"--filename", f.path(), "--runtime", "soon"}), "--runtime");
  expect_one_line_usage_error(io({"--filename", f.path(), "--engine", "aio"}), "--engine");
}

// Found by fuzzing the units: 4295 s of polling in microseconds overflows 32 bits and used to wrap
// to 32704 us, a run nobody asked for.
TEST(CliIo, SpinTooLongForItsCounterIsRefusedNotWrapped) {
  ScratchFile f("cli-spin", 1 << 20);
  expect_one_line_usage_error(io({"--filename", f.path(), "--runtime", "1", "--spin", "4295s"}), "more than a second");
  expect_one_line_usage_error(io({"--filename", f.path(), "--runtime", "1", "--spin", "99999999999h"}), "--spin");
}

TEST(CliIo, InterruptStopsCleanlyAndReportsWhatWasMeasured) {
  ScratchFile f("cli-int");
  auto r = io({"--filename", f.path(), "--size", "8m", "--runtime", "60s", "--json"}, 1500);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  json::value doc = json::parse(r.out);
  const json::object& job = doc.at("jobs").as_array().at(0).as_object();
  EXPECT_TRUE(job.at("interrupted").as_bool());
  EXPECT_GT(job.at("read").at("total_ios").to_number<double>(), 0);
  EXPECT_LT(job.at("elapsed_s").to_number<double>(), 30);
}

TEST(CliIo, HumanOutputShowsTheNinesAndMarksInterruption) {
  ScratchFile f("cli-text");
  auto r = io({"--filename", f.path(), "--size", "8m", "--runtime", "60s", "-q"}, 1200);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.out.find("INTERRUPTED"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("99.9999%"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("IOPS="), std::string::npos) << r.out;
}

TEST(CliIo, NullEngineNeedsNoTarget) {
  auto r = io({"--engine", "null", "--iodepth", "8", "--runtime", "0.3s", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json::value doc = json::parse(r.out);
  EXPECT_GT(doc.at("jobs").at(0).at("read").at("iops").to_number<double>(), 0);
}
