// The throttling detector on a real run: a loop device whose IOPS are capped mid-run (a blkio
// cgroup throttle put on the running diskvet, then lifted) shows a slowdown event, and a profile's
// max_slowdown_pct fails the device for it.
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <gtest/gtest.h>

#include "burnin_lab.hpp"

extern char** environ;

using namespace burnin_lab;

namespace {

const fs::path kBlkio = "/sys/fs/cgroup/blkio";

// A blkio cgroup (v1) of this test's own, removed at the end with its processes moved back out.
class ThrottleGroup {
 public:
  explicit ThrottleGroup(const std::string& name) : dir_(kBlkio / name) { fs::create_directory(dir_); }
  ~ThrottleGroup() {
    for (pid_t p : moved_) std::ofstream(kBlkio / "cgroup.procs") << p;
    std::error_code ec;
    fs::remove(dir_, ec);
  }
  void cap(const std::string& dev, uint64_t iops) const {
    struct stat st {};
    ::stat(dev.c_str(), &st);
    std::string rule = std::to_string(major(st.st_rdev)) + ":" + std::to_string(minor(st.st_rdev)) + " " + std::to_string(iops);
    std::ofstream(dir_ / "blkio.throttle.read_iops_device") << rule;
    std::ofstream(dir_ / "blkio.throttle.write_iops_device") << rule;
  }
  void move(pid_t pid) {
    std::ofstream(dir_ / "cgroup.procs") << pid;
    moved_.push_back(pid);
  }
  void release(pid_t pid) const { std::ofstream(kBlkio / "cgroup.procs") << pid; }

 private:
  fs::path dir_;
  std::vector<pid_t> moved_;
};

}  // namespace

class BurninThrottling : public Lab {};

TEST_F(BurninThrottling, ALoopDeviceCappedMidRunShowsASlowdownThatTheProfileFails) {
  SKIP_UNLESS_LOOP_DEVICES();
  if (!fs::exists(kBlkio / "blkio.throttle.read_iops_device")) GTEST_SKIP() << "no cgroup v1 blkio throttling on this machine";
  const uint64_t size = 16u << 20;
  std::string dev = make_loop(size);
  ASSERT_FALSE(dev.empty());
  write_file("s.json", R"({"name": "throttle-it", "probe": {"enabled": false},
    "monitor": {"slowdowns": true, "slowdown_drop_pct": 30, "slowdown_min": "2s", "slowdown_median_window": 20},
    "defaults": {"bs": "64k", "verify": true, "iodepth": 16, "ramp": "0s", "interval": "0.5s"},
    "tests": [
      {"id": "write", "passes": 1, "workloads": [{"rw": "write"}]},
      {"id": "middle", "workloads": [{"rw": "randread", "runtime": "12s"}]}
    ]})");
  write_file("p.json", R"({"name": "throttle-profile", "source": "test", "burnin": {"max_slowdown_pct": 50}, "limits": {}})");

  std::vector<std::string> args = {DISKVET_BINARY, "run", "--suite", file("s.json").string(), "--device", dev, "--destroy-data", dev,
                                   "--profile", file("p.json").string(), "-q", "--out", file("r.json").string()};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, file("diskvet.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, DISKVET_BINARY, &fa, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&fa);

  {
    ThrottleGroup group("diskvet-burnin-it-" + std::to_string(getpid()));
    group.cap(dev, 50);
    // After the write pass, 4 s at full speed for a baseline, 4 s capped at 50 IOPS, then free again.
    EXPECT_TRUE(wait_until([&] { return generation_at(0, size - 64 * 1024) == 1; })) << log();
    std::this_thread::sleep_for(std::chrono::seconds(4));
    group.move(pid);
    std::this_thread::sleep_for(std::chrono::seconds(4));
    group.release(pid);
  }
  int st = 0;
  ASSERT_EQ(waitpid(pid, &st, 0), pid);
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 1) << log();

  auto r = report("r.json");
  const auto& d = r.at("devices").as_array().at(0).as_object();
  bool found = false;
  for (const auto& e : d.at("slowdowns").as_array()) {
    if (e.at("test").as_string() != "middle") continue;
    if (e.at("max_drop_pct").to_number<double>() < 80 || e.at("duration_s").to_number<double>() < 2) continue;
    found = true;
    EXPECT_TRUE(e.at("recovered").as_bool()) << e;
    // 50 IOPS is not near zero and reads fill no cache; a loop device has no thermal sensor to blame.
    EXPECT_EQ(e.at("cause").as_string(), "unexplained") << e;
  }
  EXPECT_TRUE(found) << d.at("slowdowns");
  EXPECT_NE(log().find("max_slowdown_pct 50"), std::string::npos) << log();
  EXPECT_EQ(d.at("verify").at("mismatches").to_number<uint64_t>(), 0u) << "slow is not wrong";
}
