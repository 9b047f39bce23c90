// `diskvet io` as a user runs it: fio-shaped JSON, one clear line and exit 2 for bad input, interrupts.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "tests/support/lab.hpp"

using diskvet::testing::have_program;
using diskvet::testing::run_command;
using diskvet::testing::ScratchFile;
namespace json = boost::json;

namespace {

diskvet::testing::CommandResult io(std::vector<std::string> args, int interrupt_ms = 0) {
  args.insert(args.begin(), {DISKVET_BIN, "io"});
  return run_command(args, {.interrupt_after_ms = interrupt_ms});
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

namespace {

// The file's blocks of bs bytes, as strings.
std::vector<std::string> blocks_of(const std::string& path, size_t bs) {
  std::ifstream in(path, std::ios::binary);
  std::vector<std::string> out;
  std::string b(bs, '\0');
  while (in.read(b.data(), static_cast<std::streamsize>(bs))) out.push_back(b);
  return out;
}

size_t distinct(const std::vector<std::string>& blocks) { return std::set<std::string>(blocks.begin(), blocks.end()).size(); }

// zstd's compressed size of the file over its size.
double zstd_ratio(const std::string& path) {
  auto r = run_command({"zstd", "-q", "-c", "-3", path});
  return static_cast<double>(r.out.size()) / static_cast<double>(std::filesystem::file_size(path));
}

}  // namespace

TEST(CliIo, AWritePassLeavesNoTwoBlocksAlike) {
  // One 4K pass over 64 MiB: every block written once. Before, each slot's buffer was written
  // unchanged and the pass left 8 distinct blocks (one per slot) of 16384.
  ScratchFile f("cli-unique");
  auto r = io({"--filename", f.path(), "--size", "64m", "--io-size", "64m", "--rw", "write", "--bs", "4k", "--iodepth", "8", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto blocks = blocks_of(f.path(), 4096);
  ASSERT_EQ(blocks.size(), 16384u);
  EXPECT_EQ(distinct(blocks), 16384u);
  const json::value doc = json::parse(r.out);
  const auto& opts = doc.at("jobs").at(0).at("job options");
  EXPECT_NE(std::string(opts.at("write_data").as_string()).find("unique per write"), std::string::npos) << opts;
  if (have_program("zstd")) {
    EXPECT_GT(zstd_ratio(f.path()), 0.99) << "default write data compresses";
  }
}

TEST(CliIo, CompressPercentageIsWhatZstdFinds) {
  if (!have_program("zstd")) GTEST_SKIP() << "zstd is not installed (scripts/packages/lab.txt)";
  ScratchFile f("cli-compress");
  auto r = io({"--filename", f.path(), "--size", "16m", "--io-size", "16m", "--rw", "write", "--bs", "4k", "--iodepth", "8",
               "--buffer_compress_percentage", "50", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NEAR(zstd_ratio(f.path()), 0.50, 0.03);
  EXPECT_EQ(json::parse(r.out).at("jobs").at(0).at("job options").at("buffer_compress_percentage").to_number<int>(), 50);
}

TEST(CliIo, DedupePercentageRepeatsThatShareOfBlocks) {
  ScratchFile f("cli-dedupe");
  auto r = io({"--filename", f.path(), "--size", "16m", "--io-size", "16m", "--rw", "write", "--bs", "4k", "--iodepth", "8",
               "--dedupe-percentage", "50", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto blocks = blocks_of(f.path(), 4096);
  ASSERT_EQ(blocks.size(), 4096u);
  EXPECT_NEAR(static_cast<double>(distinct(blocks)) / 4096, 0.5, 0.05);
  EXPECT_NE(r.out.find("write data: 50% of writes repeat an earlier write"), std::string::npos) << r.out;
}

TEST(CliIo, RateIopsCapsEachDirectionOfEachJobAsFioDoes) {
  // fio --rw randrw --numjobs 2 --rate_iops 1000: 2000 reads and 2000 writes per second.
  auto r = io({"--engine", "null", "--rw", "randrw", "--numjobs", "2", "--rate-iops", "1000", "--runtime", "1s", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json::value doc = json::parse(r.out);
  const auto& job = doc.at("jobs").at(0);
  for (const char* dir : {"read", "write"}) {
    EXPECT_LE(job.at(dir).at("total_ios").to_number<double>(), 2002) << dir;
    EXPECT_GE(job.at(dir).at("total_ios").to_number<double>(), 1500) << dir;
  }
  auto split = io({"--engine", "null", "--rw", "randrw", "--rate-iops", "1000,100", "--runtime", "1s", "--json"});
  ASSERT_EQ(split.exit_code, 0) << split.err;
  const json::value doc2 = json::parse(split.out);
  const auto& j2 = doc2.at("jobs").at(0);
  EXPECT_LE(j2.at("write").at("total_ios").to_number<double>(), 101);
  EXPECT_GE(j2.at("read").at("total_ios").to_number<double>(), 700);
  EXPECT_EQ(j2.at("job options").at("rate_iops").as_string(), "1000,100");
}

TEST(CliIo, RateIopsInAnotherFormIsRefused) {
  expect_one_line_usage_error(io({"--engine", "null", "--rate-iops", "1,2,3", "--runtime", "1"}), "--rate-iops");
  expect_one_line_usage_error(io({"--engine", "null", "--rate-iops", "fast", "--runtime", "1"}), "--rate-iops");
}

TEST(CliIo, InterruptEndsARunAtOnceNotAtTheNextIntervalOrToken) {
  // One I/O per second per direction and one interval a minute: the job sleeps between tokens and the
  // sampler between intervals. Interrupted 1.2 s in, a run that waited for either would end 58 s
  // later; the deadline below only tells that from a prompt exit (the job's promptness to within a
  // poll is JobLoop.AnIdleRateCappedJobSeesItsStopFlagWithinAPollNotAtItsNextToken, on the loop's
  // own synthetic clock).
  auto r = io({"--engine", "null", "--rw", "randread", "--rate-iops", "1", "--runtime", "600s", "--interval", "60s", "--json"}, 1200);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_LT(r.exit_after_interrupt_ms, 30'000);
  EXPECT_TRUE(json::parse(r.out).at("jobs").at(0).at("interrupted").as_bool());
}

TEST(CliIo, EachRunWritesDataOfItsOwnUnlessItsSeedIsAskedFor) {
  // Two runs of one workload over one file: before, a fixed seed made them byte-identical.
  ScratchFile f("cli-seed");
  const std::vector<std::string> args{"--filename", f.path(), "--size", "4m", "--io-size", "4m", "--rw", "randwrite", "--bs", "4k",
                                      "--iodepth", "4", "--destroy-data", f.path(), "--json"};
  std::vector<uint64_t> seeds;
  std::vector<std::vector<std::string>> images;
  auto once = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = args;
    a.insert(a.end(), extra.begin(), extra.end());
    auto r = io(a);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json::value doc = json::parse(r.out);
    seeds.push_back(doc.at("randseed").to_number<uint64_t>());
    EXPECT_NE(std::string(doc.at("fio_equivalent").as_string()).find(" --randseed=" + std::to_string(seeds.back())), std::string::npos);
    images.push_back(blocks_of(f.path(), 4096));
  };
  once({});
  once({});
  ASSERT_EQ(seeds.size(), 2u);
  EXPECT_NE(seeds[0], seeds[1]);
  std::set<std::string> first(images[0].begin(), images[0].end());
  size_t repeated = 0;
  for (const auto& b : images[1]) repeated += first.count(b);
  EXPECT_EQ(repeated, 0u) << "the second run rewrote blocks of the first byte for byte";
  once({"--randseed", std::to_string(seeds[0])});
  ASSERT_EQ(seeds.size(), 3u);
  EXPECT_EQ(seeds[2], seeds[0]);
  EXPECT_EQ(images[2], images[0]) << "--randseed repeats the run's offsets and data";
  expect_one_line_usage_error(io({"--engine", "null", "--randseed", "12x"}), "--randseed");
}

namespace {

// A directory of the test's own for log files, removed with everything in it whatever happens.
struct LogDir {
  explicit LogDir(const ScratchFile& name) : path(name.path() + ".d") { std::filesystem::create_directory(path); }
  ~LogDir() { std::filesystem::remove_all(path); }
  LogDir(const LogDir&) = delete;
  LogDir& operator=(const LogDir&) = delete;
  std::string path;
};

std::vector<std::vector<uint64_t>> log_lines(const std::string& path) {
  std::vector<std::vector<uint64_t>> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::vector<uint64_t> fields;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, ',');) fields.push_back(std::stoull(f));
    lines.push_back(std::move(fields));
  }
  return lines;
}

}  // namespace

TEST(CliIo, JsonPlusAndFiosLogsCarryTheSameIos) {
  ScratchFile f("cli-jsonplus");
  LogDir dir(f);
  const std::string name = dir.path + "/job";
  auto r = io({"--filename", f.path(), "--size", "8m", "--rw", "randrw", "--bs", "4k", "--iodepth", "2", "--runtime", "1s",
               "--output-format", "json+", "--log_avg_msec", "250", "--write_bw_log", name, "--write_iops_log", name,
               "--write_lat_log", name, "--write_hist_log", name, "--log_hist_msec", "500"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json::value doc = json::parse(r.out);
  const json::object& job = doc.at("jobs").as_array().at(0).as_object();
  EXPECT_TRUE(job.contains("trim"));
  EXPECT_TRUE(job.contains("latency_us"));
  for (const char* suffix : {"_bw.1.log", "_iops.1.log", "_lat.1.log", "_clat.1.log", "_slat.1.log", "_clat_hist.1.log"})
    EXPECT_TRUE(std::filesystem::is_regular_file(name + suffix)) << suffix;
  for (int d = 0; d < 2; ++d) {
    const json::object& dir_obj = job.at(d ? "write" : "read").as_object();
    const uint64_t ios = dir_obj.at("total_ios").to_number<uint64_t>();
    ASSERT_GT(ios, 0u);
    for (const char* lat : {"lat_ns", "clat_ns"}) {
      uint64_t binned = 0;
      for (const auto& [k, v] : dir_obj.at(lat).at("bins").as_object()) binned += v.to_number<uint64_t>();
      EXPECT_EQ(binned, ios) << lat;
    }
    // The histogram log's windows hold every I/O of the window once: 1856 bins after time, direction, block size.
    uint64_t hist = 0;
    for (const auto& line : log_lines(name + "_clat_hist.1.log")) {
      ASSERT_EQ(line.size(), 3u + 1856u);
      EXPECT_EQ(line[2], 4096u);
      if (line[1] == static_cast<uint64_t>(d))
        for (size_t i = 3; i < line.size(); ++i) hist += line[i];
    }
    EXPECT_EQ(hist, ios);
  }
  // fio's windowed lines: time, value, direction, 0, 0, in time order.
  const auto iops = log_lines(name + "_iops.1.log");
  ASSERT_FALSE(iops.empty());
  for (size_t i = 0; i < iops.size(); ++i) {
    ASSERT_EQ(iops[i].size(), 5u);
    EXPECT_LE(iops[i][2], 1u);
    if (i) {
      EXPECT_LE(iops[i - 1][0], iops[i][0]);
    }
  }
}

TEST(CliIo, ALogThatCannotBeCreatedRefusesTheRunBeforeTheTargetIsMade) {
  ScratchFile f("cli-badlog");
  auto r = io({"--filename", f.path(), "--size", "8m", "--rw", "randwrite", "--runtime", "1s", "--write_bw_log",
               "/proc/job"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("/proc/job_bw.1.log: cannot be"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(f.path()));  // the target it would have created was never made
}

TEST(CliIo, FioOutputOptionsThatCannotWorkNameTheirOption) {
  ScratchFile f("cli-fio-options", 1 << 20);
  expect_one_line_usage_error(io({"--filename", f.path(), "--output-format", "xml"}), "unknown format 'xml'");
  // log_avg_msec is the interval: both given would be two windows for one series.
  expect_one_line_usage_error(io({"--filename", f.path(), "--log_avg_msec", "100", "--interval", "1s"}), "--log_avg_msec: and --interval");
  // A histogram window is whole intervals.
  expect_one_line_usage_error(io({"--filename", f.path(), "--write_hist_log", f.path() + "-h", "--log_hist_msec", "100"}),
                              "--log_hist_msec: 100 ms is shorter than the interval");
  EXPECT_FALSE(std::filesystem::exists(f.path() + "-h_clat_hist.1.log"));
}
