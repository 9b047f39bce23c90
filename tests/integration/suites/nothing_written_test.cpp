// Issue 23: nothing is written until everything that can fail has been checked. Each case names a
// consented file target (written only with --destroy-data naming it) or a new file, gives diskvet an
// input, output or option that cannot work, and checks exit 2, one line naming the problem, the
// target byte for byte unchanged and nothing left behind. Any user; no loop device.
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/run_lab.hpp"

using diskvet::testing::RunLab;
namespace fs = std::filesystem;

namespace {

// A suite whose first test writes the target and whose second test cannot run on it: a CPU the host
// does not have, or (with bad_second false) a second test that is fine.
std::string write_suite(const std::string& second_workload) {
  return R"({
    "name": "writes-then-cannot", "region": "8m",
    "probe": {"enabled": false}, "precondition": {"enabled": false}, "steady_state": {"enabled": false},
    "warmup": {"enabled": false},
    "defaults": {"runtime": "0.3s", "ramp": "0s", "engine": "psync", "interval": "0.1s"},
    "tests": [
      {"id": "writes", "workloads": [{"rw": "randwrite", "bs": "4k", "iodepth": 1}]},
      {"id": "second", "workloads": [)" +
         second_workload + R"(]}]})";
}

}  // namespace

class NothingWritten : public RunLab {
 protected:
  void SetUp() override {
    RunLab::SetUp();
    // 8 MiB of data (not a hole): the consented target whose bytes must not change.
    original_ = std::string(8u << 20, 'd');
    for (size_t i = 0; i < original_.size(); i += 4096) original_[i] = static_cast<char>('a' + (i / 4096) % 26);
    std::ofstream(file("target.img"), std::ios::binary) << original_;
    write_file("writes.json", write_suite(R"({"rw": "randread", "bs": "4k", "iodepth": 1})"));
  }
  std::string target() const { return file("target.img").string(); }
  // `run` of a suite on the consented target; the rest of the arguments follow.
  std::string run_on_target(const std::string& suite, const std::string& rest) {
    return "run --suite " + file(suite).string() + " --device " + target() + " --destroy-data " + target() + " --profile none -q " + rest;
  }
  // diskvet under a deadline (coreutils timeout, exit 124): a FIFO that blocks the old code fails
  // the test instead of hanging it. The deadline is never an assertion on how long anything took.
  int bounded(const std::string& args) { return diskvet_with_prefix("timeout -s KILL 20 ", args); }
  int diskvet_with_prefix(const std::string& prefix, const std::string& args) {
    return diskvet::testing::run_command(diskvet::testing::words(prefix + std::string(DISKVET_BIN) + " " + args), {.output_file = log_.string()})
        .exit_code;
  }
  bool target_unchanged() const { return read_text(file("target.img")) == original_; }
  // The log holds exactly one line, and it mentions `what`.
  void expect_one_line(const std::string& what) const {
    const std::string l = log();
    EXPECT_EQ(std::count(l.begin(), l.end(), '\n'), 1) << l;
    EXPECT_NE(l.find(what), std::string::npos) << l;
  }
  // Nothing in the test's directory but what SetUp and the test put there (no temporary report).
  void expect_no_leftovers(const std::vector<std::string>& expected) const {
    for (const auto& e : fs::directory_iterator(dir_)) {
      const std::string name = e.path().filename().string();
      EXPECT_NE(std::find(expected.begin(), expected.end(), name), expected.end()) << "left behind: " << name;
    }
  }
  bool direct_io_refused() const { return log().find("refuses O_DIRECT") != std::string::npos; }
  std::string original_;
};

TEST_F(NothingWritten, TheWriteSuiteRunsOnTheTargetWhenNothingIsWrong) {
  // The control: the same suite and target do write when nothing refuses (so "unchanged" below means something).
  int rc = diskvet(run_on_target("writes.json", "--out " + file("ok.json").string()));
  if (direct_io_refused()) GTEST_SKIP() << "this file system refuses O_DIRECT";
  EXPECT_EQ(rc, 0) << log();
  EXPECT_FALSE(target_unchanged()) << "the control run should have written the target";
}

TEST_F(NothingWritten, AnOutThatCannotBeCreatedIsRefusedBeforeTheTargetIsWritten) {
  write_file("plain.txt", "a file, not a directory");
  const std::vector<std::string> outs = {
      "/proc/diskvet-r.json",                                 // a directory that takes no new file
      "/sys/kernel/diskvet-r.json",                           // nor this one
      file("plain.txt").string() + "/r.json",                 // ENOTDIR
      file(std::string(300, 'n') + ".json").string(),         // ENAMETOOLONG
  };
  for (const auto& out : outs) {
    int rc = diskvet(run_on_target("writes.json", "--out " + out));
    EXPECT_EQ(rc, 2) << out << "\n" << log();
    expect_one_line(out.substr(0, 40));
    EXPECT_TRUE(target_unchanged()) << out;
  }
  expect_no_leftovers({"target.img", "writes.json", "plain.txt", "diskvet.log"});
}

TEST_F(NothingWritten, AnIologThatCannotBeCreatedIsRefusedBeforeTheTargetIsWritten) {
  int rc = diskvet("io --filename " + target() + " --destroy-data " + target() +
                   " --rw randwrite --bs 4k --runtime 0.3s --engine psync --write-iolog /proc/diskvet-io.log");
  EXPECT_EQ(rc, 2) << log();
  expect_one_line("/proc/diskvet-io.log");
  EXPECT_TRUE(target_unchanged());
}

TEST_F(NothingWritten, AReportHtmlThatCannotBeCreatedIsExitTwo) {
  int rc = diskvet(run_on_target("writes.json", "--out " + file("r.json").string()));
  if (direct_io_refused()) GTEST_SKIP() << "this file system refuses O_DIRECT";
  ASSERT_EQ(rc, 0) << log();
  EXPECT_EQ(diskvet("report " + file("r.json").string() + " --html /proc/diskvet-r.html"), 2) << log();
  expect_one_line("/proc/diskvet-r.html");
}

TEST_F(NothingWritten, ABadIoOptionIsRefusedBeforeTheNewFileIsCreated) {
  const std::vector<std::string> bad = {"--bs 3", "--iodepth 0", "--numjobs 300", "--offset 1", "--rwmixread 101", "--bs 128m"};
  for (const auto& option : bad) {
    const std::string made = file("new.img").string();
    int rc = diskvet("io --filename " + made + " --size 64m --rw randrw --runtime 0.3s --engine psync " + option);
    EXPECT_EQ(rc, 2) << option << "\n" << log();
    expect_one_line(option.substr(0, option.find(' ')));
    EXPECT_FALSE(fs::exists(made)) << option << ": the file was created (and filled) for a run that was refused";
  }
}

TEST_F(NothingWritten, ADurationBeyondAYearIsAUsageError) {
  int rc = diskvet(run_on_target("writes.json", "--duration 400d --out " + file("r.json").string()));
  EXPECT_EQ(rc, 2) << log();
  expect_one_line("--duration");
  EXPECT_TRUE(target_unchanged());
  EXPECT_FALSE(fs::exists(file("r.json"))) << "a usage error writes no report";
}

TEST_F(NothingWritten, ADirectoryThatTakesNoFileIsAUsageError) {
  int rc = diskvet("run --suite " + file("writes.json").string() + " --directory /proc --size 64m --profile none -q --out " + file("r.json").string());
  EXPECT_EQ(rc, 2) << log();
  expect_one_line("/proc");
  expect_no_leftovers({"target.img", "writes.json", "diskvet.log"});
}

TEST_F(NothingWritten, ALaterTestThatCannotRunOnTheDeviceRefusesTheRunBeforeTheFirstWrites) {
  // CPU 1000 is past any host this runs on (the loader accepts it: it is a CPU list).
  write_file("cpus.json", write_suite(R"({"rw": "randread", "bs": "4k", "iodepth": 1, "cpus_allowed": "1000"})"));
  int rc = diskvet(run_on_target("cpus.json", "--out " + file("r.json").string()));
  EXPECT_EQ(rc, 2) << log();
  expect_one_line("second");
  EXPECT_TRUE(target_unchanged()) << "the first test wrote the device of a run that could not finish";
  expect_no_leftovers({"target.img", "writes.json", "cpus.json", "diskvet.log"});
}

TEST_F(NothingWritten, ALaterTestWhoseRegionCannotHoldItsJobsRefusesTheRun) {
  // Sequential 4 MiB blocks over the 8 MiB region cannot be split over 4 jobs: known only against the device.
  write_file("jobs.json", write_suite(R"({"rw": "read", "bs": "4m", "iodepth": 1, "numjobs": 4})"));
  int rc = diskvet(run_on_target("jobs.json", "--out " + file("r.json").string()));
  EXPECT_EQ(rc, 2) << log();
  expect_one_line("second");
  EXPECT_TRUE(target_unchanged());
}

TEST_F(NothingWritten, AFifoGivenAsAnyInputIsRefusedNotWaitedOn) {
  ASSERT_EQ(::mkfifo(file("fifo").c_str(), 0600), 0);
  const std::string fifo = file("fifo").string();
  const std::string consented = " --device " + target() + " --destroy-data " + target() + " -q --out " + file("r.json").string();
  const std::vector<std::string> cases = {
      "run --suite " + fifo + consented,
      "run --suite " + file("writes.json").string() + consented + " --profile " + fifo,
      "report " + fifo,
      "io --filename " + fifo + " --rw randread --runtime 0.3s --engine psync",
      "run --suite " + file("writes.json").string() + " --device " + fifo + " -q --profile none --out " + file("r.json").string(),
  };
  for (const auto& c : cases) {
    int rc = bounded(c);
    EXPECT_EQ(rc, 2) << c << "\n" << log();
    expect_one_line("FIFO");
    EXPECT_TRUE(target_unchanged()) << c;
  }
}

TEST_F(NothingWritten, DevZeroAsASuiteProfileOrReportIsRefusedNotReadWhole) {
  // Under an address-space limit: the old code read /dev/zero until std::bad_alloc.
  const std::vector<std::string> cases = {
      "run --suite /dev/zero --device " + target() + " --destroy-data " + target() + " -q --out " + file("r.json").string(),
      "run --suite " + file("writes.json").string() + " --device " + target() + " --destroy-data " + target() + " -q --profile /dev/zero --out " +
          file("r.json").string(),
      "report /dev/zero",
  };
  for (const auto& c : cases) {
    int rc = diskvet_with_prefix("prlimit --as=4294967296 timeout -s KILL 60 ", c);
    EXPECT_EQ(rc, 2) << c << "\n" << log();
    expect_one_line("/dev/zero");
    EXPECT_TRUE(target_unchanged()) << c;
  }
}

TEST_F(NothingWritten, ASuiteWithAKeyGivenTwiceIsRefused) {
  std::string twice = write_suite(R"({"rw": "randread", "bs": "4k", "iodepth": 1})");
  twice.insert(twice.rfind(']'), R"(], "tests": [{"id": "only-this", "workloads": [{"rw": "randread", "bs": "4k"}]})");
  write_file("twice.json", twice);
  int rc = diskvet(run_on_target("twice.json", "--out " + file("r.json").string()));
  EXPECT_EQ(rc, 2) << log();
  expect_one_line("\"tests\" twice");
  EXPECT_TRUE(target_unchanged());
}

// Job threads the host will not give (RLIMIT_NPROC of an unprivileged user; root ignores it): one
// line and exit 3, never std::terminate (exit 134). The null engine: no target, nothing to write.
TEST_F(NothingWritten, AJobThreadTheHostRefusesIsACleanErrorNotAnAbort) {
  if (::geteuid() != 0 || !diskvet::testing::have_program("setpriv") || !diskvet::testing::have_program("prlimit"))
    GTEST_SKIP() << "needs root (to drop to an unprivileged user), setpriv and prlimit";
  int rc = diskvet_with_prefix("setpriv --reuid=65534 --regid=65534 --clear-groups prlimit --nproc=4 timeout -s KILL 60 ",
                               "io --engine null --rw randread --numjobs 16 --runtime 0.5s");
  EXPECT_EQ(rc, 3) << log();
  expect_one_line("cannot start job thread");
}

// run --hosts: the inventory is read as every input is, and the duration and the report are checked
// before any host is reached (the inventory's host does not exist: reaching it would be an error).
TEST_F(NothingWritten, AHostsRunChecksItsInputsAndOutputsBeforeAnyHostIsReached) {
  write_file("hosts.json", R"({"hosts": [{"name": "h1", "ssh": "root@127.0.0.250", "port": 1, "devices": [{"id": "/dev/loop250"}]}]})");
  const std::string hosts = file("hosts.json").string();
  EXPECT_EQ(diskvet("run --hosts " + hosts + " --suite quick --profile none -q --duration 400d --out " + file("r.json").string()), 2) << log();
  expect_one_line("--duration");
  EXPECT_EQ(diskvet("run --hosts " + hosts + " --suite quick --profile none -q --out /proc/diskvet-hosts.json"), 2) << log();
  expect_one_line("/proc/diskvet-hosts.json");
  ASSERT_EQ(::mkfifo(file("fifo").c_str(), 0600), 0);
  EXPECT_EQ(bounded("run --hosts " + file("fifo").string() + " --suite quick --profile none -q --out " + file("r.json").string()), 2) << log();
  expect_one_line("FIFO");
  expect_no_leftovers({"target.img", "writes.json", "hosts.json", "fifo", "diskvet.log"});
}

TEST_F(NothingWritten, ALogsDirectoryThatTakesNoFileIsRefusedBeforeTheTargetIsWritten) {
  write_file("plain.txt", "a file, not a directory");
  for (const std::string& logs : {std::string("/proc"), file("plain.txt").string(), file("missing").string()}) {
    int rc = diskvet(run_on_target("writes.json", "--logs " + logs + " --out " + file("r.json").string()));
    EXPECT_EQ(rc, 2) << logs << "\n" << log();
    expect_one_line("give --logs an existing directory you can write");
    EXPECT_TRUE(target_unchanged()) << logs;
  }
  expect_no_leftovers({"target.img", "writes.json", "plain.txt", "diskvet.log"});
}

TEST_F(NothingWritten, LogsNameTheDeviceTestAndWorkloadOfEachFile) {
  fs::create_directory(file("logs"));
  int rc = diskvet(run_on_target("writes.json", "--logs " + file("logs").string() + " --out " + file("r.json").string()));
  if (direct_io_refused()) GTEST_SKIP() << "this file system refuses O_DIRECT";
  ASSERT_EQ(rc, 0) << log();
  for (const char* stem : {"target.img_writes_1-randwrite-4KiB", "target.img_second_1-randread-4KiB"}) {
    for (const char* kind : {"_bw", "_iops", "_lat", "_clat"}) {
      const fs::path p = file("logs") / (std::string(stem) + kind + ".1.log");
      ASSERT_TRUE(fs::is_regular_file(p)) << p;
      const std::string text = read_text(p);
      EXPECT_FALSE(text.empty()) << p;
      EXPECT_EQ(std::count(text.begin(), text.end(), ','), 4 * std::count(text.begin(), text.end(), '\n')) << p << "\n" << text;
    }
    EXPECT_TRUE(fs::is_regular_file(file("logs") / (std::string(stem) + "_slat.1.log")));
  }
}
