// `diskvet run --hosts` in the SSH lab: hosts are sshds on 127.0.0.2, .3, ... each with its own
// keys and loop devices; the controller reaches each fio server only through SSH forwarding.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <boost/json.hpp>
#include <fmt/format.h>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>

#include "common/child_process.hpp"
#include "runner/report/report_view.hpp"
#include "ssh_lab.hpp"
#include "tests/support/lab.hpp"
#include "tests/support/loop_lab.hpp"

namespace diskvet::testing {
namespace {

namespace json = boost::json;

constexpr const char* kHostsNeedle = "--server=sock:/tmp/diskvet-fio-";

// Reads the loop device has completed (/sys/block/NAME/stat, field 1): the device's own record.
uint64_t reads_done(const std::string& name) {
  std::ifstream in("/sys/block/" + name + "/stat");
  uint64_t reads = 0;
  in >> reads;
  return reads;
}

// Waits until every one of the devices has completed `reads` reads more than `before` (the test's
// I/O is flowing on each host), at most `timeout_s`: a deadline that only catches a hang.
bool wait_for_reads(const std::vector<std::string>& names, const std::vector<uint64_t>& before, uint64_t reads, double timeout_s = 120) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (std::chrono::steady_clock::now() < end) {
    bool all = true;
    for (size_t i = 0; i < names.size(); ++i) all = all && reads_done(names[i]) >= before[i] + reads;
    if (all) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

struct LabHost {
  std::vector<std::shared_ptr<LoopDevice>> disks;
  bool destroy = true;
  std::string fio = "fio";
  bool diskvet = true;
};

std::string inventory(const SshLab& lab, const std::vector<LabHost>& hosts) {
  json::array hs;
  for (size_t i = 0; i < hosts.size(); ++i) {
    json::array devs;
    for (const auto& d : hosts[i].disks) devs.push_back(json::object{{"id", d->path()}, {"destroy_data", hosts[i].destroy && hosts[i].diskvet}});
    json::object h{{"name", lab.name(static_cast<int>(i))}, {"ssh", lab.name(static_cast<int>(i))}, {"fio", hosts[i].fio}, {"devices", devs}};
    if (hosts[i].diskvet) h["diskvet"] = DISKVET_BIN;
    else h["diskvet"] = false;
    hs.push_back(std::move(h));
  }
  return lab.write("hosts.json", json::serialize(json::object{{"ssh_config", "ssh_config"}, {"hosts", hs}}));
}

// The report a run wrote; every one decodes into the report view without a problem (a key the
// controller writes that the view does not know would show as a warning of `diskvet report`).
json::object load(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  boost::system::error_code ec;
  json::value v = json::parse(s.str(), ec);
  if (ec || !v.is_object()) return json::object{};
  const runner::ReportView view = runner::decode_report(v);
  EXPECT_TRUE(view.multi_host.has_value()) << path;
  for (const auto& p : view.problems) ADD_FAILURE() << path << ": " << runner::describe(p);
  return v.get_object();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const json::object* host_of(const json::object& report, const std::string& name) {
  for (const auto& h : report.at("hosts").as_array())
    if (h.as_object().at("name").as_string() == name) return &h.as_object();
  return nullptr;
}

std::shared_ptr<LoopDevice> disk(const std::string& tag, const std::string& prepare = {}) {
  return std::make_shared<LoopDevice>(fmt::format("i15-{}", tag), 96u << 20, devices::LoopOptions{}, prepare);
}

// A suite of one long read test, for faults mid-run.
std::string long_read_suite(const SshLab& lab, int runtime_s) {
  return lab.write("long.json", R"({"name": "long-read", "description": "one long random read", "region": "64m",
    "probe": {"enabled": false}, "defaults": {"runtime": ")" + std::to_string(runtime_s) + R"(s", "ramp": "0s", "engine": "psync"},
    "tests": [{"id": "read-long", "description": "random read", "workloads": [{"rw": "randread", "bs": "4k", "iodepth": 1, "numjobs": 1}]}]})");
}

TEST(HostsLab, ThreeHostQuickRunIsJudgedOnMergedNumbers) {
  SKIP_UNLESS_SSH_LAB();
  SKIP_UNLESS_LOOP_DEVICES();
  SshLab lab(3);
  ASSERT_TRUE(lab.valid()) << lab.why();
  std::vector<LabHost> hosts(3);
  for (int i = 0; i < 3; ++i) {
    hosts[i].disks.push_back(disk(fmt::format("q{}", i)));
    ASSERT_TRUE(hosts[i].disks[0]->valid()) << hosts[i].disks[0]->why();
  }
  const std::string inv = inventory(lab, hosts), out = lab.dir() + "/report.json";
  auto r = run_command({DISKVET_BIN, "run", "--suite", "quick", "--hosts", inv, "--profile", "sanity", "--duration", "1s", "--out", out});
  json::object rep = load(out);
  ASSERT_FALSE(rep.empty()) << r.out << r.err;
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err << (rep.contains("not_judged") ? json::serialize(rep.at("not_judged")) : std::string());
  EXPECT_EQ(rep.at("status").as_string(), "COMPLETE");
  EXPECT_EQ(rep.at("verdict").as_string(), "PASS");
  ASSERT_EQ(rep.at("hosts").as_array().size(), 3u);
  // Fresh loop devices read zeros: the probe finds them unwritten, the quick suite preconditions
  // (on_unwritten: precondition), and the probe after it finds every device written.
  ASSERT_TRUE(rep.contains("probe")) << "the unwritten-space probe did not run";
  ASSERT_TRUE(rep.contains("precondition")) << "unwritten devices were not preconditioned";
  EXPECT_FALSE(rep.at("precondition").as_object().contains("incomplete")) << json::serialize(rep.at("precondition")).substr(0, 1000);
  for (int i = 0; i < 3; ++i)
    for (const auto& d : rep.at("probe").at(lab.name(i)).as_array()) EXPECT_FALSE(d.at("unwritten").as_bool()) << lab.name(i);
  for (int i = 0; i < 3; ++i) {
    const json::object* h = host_of(rep, lab.name(i));
    ASSERT_NE(h, nullptr);
    EXPECT_EQ(h->at("state").as_string(), "ok");
    EXPECT_TRUE(h->at("devices").as_array()[0].as_object().at("held").as_bool());
  }
  // Every workload ran on all three hosts; the merged IOPS are the sum of the hosts' own fio numbers.
  size_t workloads = 0, warmed = 0;
  for (const auto& t : rep.at("tests").as_array()) {
    std::string why;
    for (const auto& wv : t.as_object().at("workloads").as_array())
      if (const json::value* nj = wv.as_object().if_contains("not_judged")) why += json::serialize(*nj) + " ";
    if (const json::value* vs = t.as_object().if_contains("verdicts")) why += json::serialize(*vs).substr(0, 1500);
    EXPECT_EQ(t.as_object().at("status").as_string(), "PASS") << t.as_object().at("id").as_string() << ": " << why;
    for (const auto& wv : t.as_object().at("workloads").as_array()) {
      const json::object& w = wv.as_object();
      ASSERT_TRUE(w.contains("hosts")) << json::serialize(w).substr(0, 2000);
      const json::object& per = w.at("hosts").as_object();
      ASSERT_EQ(per.size(), 3u);
      double sum = 0;
      for (const auto& kv : per) sum += kv.value().at("read").at("iops").to_number<double>() + kv.value().at("write").at("iops").to_number<double>();
      const double merged = w.at("merged").at("total").at("iops").to_number<double>();
      EXPECT_NEAR(merged, sum, 1e-6 * sum);
      EXPECT_GT(merged, 0);
      EXPECT_FALSE(w.at("merged").at("start_spread_ms").is_null());
      if (w.contains("warmup")) {
        ++warmed;
        EXPECT_FALSE(w.at("warmup").at("interval_iops").as_array().empty()) << "a warmup without intervals";
      }
      ++workloads;
    }
  }
  EXPECT_GE(workloads, 7u);
  EXPECT_GE(warmed, 2u) << "the quick suite's read workloads warm up first";
  EXPECT_TRUE(processes_with(kHostsNeedle).empty()) << "a fio server is still running";
}

TEST(HostsLab, ProtectedDeviceOnHost2IsUntouchedEvenWithAllUnprotected) {
  SKIP_UNLESS_SSH_LAB();
  SKIP_UNLESS_LOOP_DEVICES();
  if (!have_program("mkfs.ext4")) GTEST_SKIP() << "mkfs.ext4 (e2fsprogs) is not installed";
  SshLab lab(3);
  ASSERT_TRUE(lab.valid()) << lab.why();
  std::vector<LabHost> hosts(3);
  hosts[0].disks.push_back(disk("p0"));
  hosts[1].disks.push_back(disk("p1-ext4", "mkfs.ext4 -q -F"));
  hosts[2].disks.push_back(disk("p2"));
  std::vector<std::string> before;
  for (const auto& h : hosts) {
    ASSERT_TRUE(h.disks[0]->valid()) << h.disks[0]->why();
    before.push_back(sha256_of(h.disks[0]->path()));
  }
  const std::string inv = inventory(lab, hosts), out = lab.dir() + "/report.json";
  auto r = run_command({DISKVET_BIN, "run", "--suite", "quick", "--hosts", inv, "--profile", "none", "--duration", "1s",
                        "--destroy-data", "all-unprotected", "--out", out});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  json::object rep = load(out);
  ASSERT_FALSE(rep.empty()) << r.err;
  EXPECT_EQ(rep.at("status").as_string(), "REFUSED");
  const json::object* h2 = host_of(rep, "h2");
  ASSERT_NE(h2, nullptr);
  EXPECT_EQ(h2->at("state").as_string(), "refused");
  EXPECT_NE(json::serialize(*h2).find("PROTECTED"), std::string::npos) << json::serialize(*h2);
  EXPECT_TRUE(rep.at("tests").as_array().empty()) << "a test ran after a refusal";
  for (size_t i = 0; i < hosts.size(); ++i) EXPECT_EQ(sha256_of(hosts[i].disks[0]->path()), before[i]) << lab.name(static_cast<int>(i)) << "'s device changed";
  EXPECT_TRUE(processes_with(kHostsNeedle).empty());
}

// One machine reached under two names (the lab's hosts are one machine): the same device listed for
// both would be read twice and its IOPS merged twice. The gates' answers show it; nothing runs.
TEST(HostsLab, OneDeviceReachedThroughTwoHostsIsRefusedBeforeAnyIo) {
  SKIP_UNLESS_SSH_LAB();
  SKIP_UNLESS_LOOP_DEVICES();
  SshLab lab(2);
  ASSERT_TRUE(lab.valid()) << lab.why();
  std::vector<LabHost> hosts(2);
  auto shared = disk("twice");
  ASSERT_TRUE(shared->valid()) << shared->why();
  for (auto& h : hosts) {
    h.disks.push_back(shared);
    h.destroy = false;
  }
  const std::string inv = inventory(lab, hosts), out = lab.dir() + "/report.json", suite = long_read_suite(lab, 2);
  auto r = run_command({DISKVET_BIN, "run", "--suite", suite, "--hosts", inv, "--profile", "none", "--out", out});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  json::object rep = load(out);
  ASSERT_FALSE(rep.empty()) << r.err;
  EXPECT_EQ(rep.at("status").as_string(), "REFUSED");
  const json::object* h1 = host_of(rep, lab.name(1));
  ASSERT_NE(h1, nullptr);
  EXPECT_NE(json::serialize(*h1).find("is the same device as"), std::string::npos) << json::serialize(*h1);
  EXPECT_TRUE(rep.at("tests").as_array().empty()) << "a test ran on a device counted twice";
  EXPECT_TRUE(processes_with(kHostsNeedle).empty());
}

TEST(HostsLab, FioVersionMismatchIsRefusedBeforeAnyIo) {
  SKIP_UNLESS_SSH_LAB();
  SKIP_UNLESS_LOOP_DEVICES();
  SshLab lab(3);
  ASSERT_TRUE(lab.valid()) << lab.why();
  // Host 3 runs "another fio build": it says another version, and is fio otherwise.
  const std::string other = lab.write("other-fio", "#!/bin/sh\nif [ \"$1\" = --version ]; then echo fio-3.99; exit 0; fi\nexec fio \"$@\"\n");
  ASSERT_EQ(run_command({"chmod", "755", other}).exit_code, 0);
  std::vector<LabHost> hosts(3);
  std::vector<std::string> before;
  for (int i = 0; i < 3; ++i) {
    hosts[i].disks.push_back(disk(fmt::format("v{}", i)));
    ASSERT_TRUE(hosts[i].disks[0]->valid());
    before.push_back(sha256_of(hosts[i].disks[0]->path()));
  }
  hosts[2].fio = other;
  const std::string inv = inventory(lab, hosts), out = lab.dir() + "/report.json";
  auto r = run_command({DISKVET_BIN, "run", "--suite", "quick", "--hosts", inv, "--profile", "none", "--duration", "1s", "--out", out});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("h3 runs fio-3.99"), std::string::npos) << r.err;
  json::object rep = load(out);
  ASSERT_FALSE(rep.empty());
  EXPECT_EQ(host_of(rep, "h3")->at("state").as_string(), "version-mismatch");
  EXPECT_EQ(host_of(rep, "h1")->at("state").as_string(), "ok");
  EXPECT_TRUE(rep.at("tests").as_array().empty());
  for (int i = 0; i < 3; ++i) EXPECT_EQ(sha256_of(hosts[i].disks[0]->path()), before[i]);
  EXPECT_TRUE(processes_with(kHostsNeedle).empty());
}

TEST(HostsLab, HostKilledMidRunMakesTheRunIncompleteAndLeavesNothingRunning) {
  SKIP_UNLESS_SSH_LAB();
  SKIP_UNLESS_LOOP_DEVICES();
  SshLab lab(3);
  ASSERT_TRUE(lab.valid()) << lab.why();
  std::vector<LabHost> hosts(3);
  for (int i = 0; i < 3; ++i) {
    hosts[i].disks.push_back(disk(fmt::format("k{}", i)));
    ASSERT_TRUE(hosts[i].disks[0]->valid());
    hosts[i].destroy = false;  // reads only
  }
  const std::string inv = inventory(lab, hosts), out = lab.dir() + "/report.json", suite = long_read_suite(lab, 12);
  SpawnOptions so;
  so.stderr_file = lab.dir() + "/controller.err";
  auto c = ChildProcess::spawn({DISKVET_BIN, "run", "--suite", suite, "--hosts", inv, "--profile", "none", "--out", out}, so);
  ASSERT_TRUE(c.ok());
  // Once every host's disk has served 2000 reads of the test (its I/O flows on all three, by the
  // devices' own counters), one host dies: well before the progress line at 10 s, which must name
  // it lost.
  std::vector<std::string> names;
  std::vector<uint64_t> before_reads;
  for (const auto& h : hosts) names.push_back(h.disks[0]->name());
  for (const auto& n : names) before_reads.push_back(reads_done(n));
  ASSERT_TRUE(wait_for_reads(names, before_reads, 2000)) << "the test's reads never flowed on every host";
  lab.kill_host(1);
  auto rc = c->wait_for(60000);
  ASSERT_TRUE(rc.has_value()) << "the controller did not end after losing a host";
  EXPECT_EQ(*rc, 3);
  json::object rep = load(out);
  ASSERT_FALSE(rep.empty());
  EXPECT_EQ(rep.at("status").as_string(), "INCOMPLETE");
  const json::object* h2 = host_of(rep, "h2");
  EXPECT_EQ(h2->at("state").as_string(), "lost");
  EXPECT_TRUE(h2->contains("when"));
  // The others' numbers are kept.
  const json::object& w = rep.at("tests").as_array()[0].at("workloads").as_array()[0].as_object();
  ASSERT_TRUE(w.contains("hosts")) << json::serialize(w);
  EXPECT_TRUE(w.at("hosts").as_object().contains("h1"));
  EXPECT_TRUE(w.at("hosts").as_object().contains("h3"));
  EXPECT_FALSE(w.at("hosts").as_object().contains("h2"));
  for (int t = 0; t < 50 && !processes_with(kHostsNeedle).empty(); ++t) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(processes_with(kHostsNeedle).empty()) << "fio is still running on a host";
  // Progress on a log (not a terminal): a plain line at the start and every 10 s of the 13 s run
  // (1 s start delay + 12 s), then one when it ended; the lost host is said on them.
  std::ifstream err_in(lab.dir() + "/controller.err");
  std::stringstream es;
  es << err_in.rdbuf();
  const std::string err = es.str();
  std::vector<std::string> lines;
  for (size_t at = 0; (at = err.find("progress: read-long: randread 4KiB QD1 x1", at)) != std::string::npos; ++at)
    lines.push_back(err.substr(at, err.find('\n', at) - at));
  ASSERT_GE(lines.size(), 3u) << err;
  EXPECT_NE(lines[0].find("0s/13s (13s left) | 3 hosts:"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("s/13s ("), std::string::npos) << lines[1];
  EXPECT_NE(lines[1].find("1 lost"), std::string::npos) << lines[1];
  EXPECT_NE(lines.back().find("finished after"), std::string::npos) << lines.back();
  EXPECT_NE(lines.back().find("1 lost"), std::string::npos) << lines.back();
}

TEST(HostsLab, KillingTheControllerStopsTheRemoteJobs) {
  SKIP_UNLESS_SSH_LAB();
  SKIP_UNLESS_LOOP_DEVICES();
  SshLab lab(2);
  ASSERT_TRUE(lab.valid()) << lab.why();
  std::vector<LabHost> hosts(2);
  for (int i = 0; i < 2; ++i) {
    hosts[i].disks.push_back(disk(fmt::format("c{}", i)));
    ASSERT_TRUE(hosts[i].disks[0]->valid());
    hosts[i].destroy = false;
  }
  const std::string inv = inventory(lab, hosts), out = lab.dir() + "/report.json", suite = long_read_suite(lab, 60);
  SpawnOptions so;
  so.stderr_file = lab.dir() + "/controller.err";
  auto c = ChildProcess::spawn({DISKVET_BIN, "run", "--suite", suite, "--hosts", inv, "--profile", "none", "--out", out}, so);
  ASSERT_TRUE(c.ok());
  // The remote jobs run once both hosts' disks have served reads of the test (their own counters).
  std::vector<std::string> names;
  std::vector<uint64_t> before_reads;
  for (const auto& h : hosts) names.push_back(h.disks[0]->name());
  for (const auto& n : names) before_reads.push_back(reads_done(n));
  for (int t = 0; t < 300 && processes_with(kHostsNeedle).size() < 4; ++t) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(wait_for_reads(names, before_reads, 2000)) << "the test's reads never flowed on both hosts";
  ASSERT_GE(processes_with(kHostsNeedle).size(), 4u) << "the hosts' fio jobs did not start";
  ::kill(c->pid(), SIGKILL);  // no chance to clean up: its pipes close, and that must be enough
  c->wait_for(5000);
  // Its work folder, which it had no chance to remove, is known by its pid.
  const std::string work_prefix = fmt::format("diskvet-hosts-{}-", c->pid());
  std::vector<std::filesystem::path> left;
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::temp_directory_path()))
    if (e.path().filename().string().rfind(work_prefix, 0) == 0) left.push_back(e.path());
  EXPECT_EQ(left.size(), 1u) << "the controller's work folder is named for its pid";
  for (const auto& p : left) std::filesystem::remove_all(p);
  for (int t = 0; t < 150 && !processes_with(kHostsNeedle).empty(); ++t) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(processes_with(kHostsNeedle).empty()) << "fio jobs outlived the controller";
}

TEST(HostsLab, ReadOnlyHostWithoutDiskvetReadsButIsNeverWritten) {
  SKIP_UNLESS_SSH_LAB();
  SKIP_UNLESS_LOOP_DEVICES();
  SshLab lab(2);
  ASSERT_TRUE(lab.valid()) << lab.why();
  std::vector<LabHost> hosts(2);
  hosts[0].disks.push_back(disk("r0"));
  hosts[1].disks.push_back(disk("r1"));
  hosts[1].diskvet = false;
  ASSERT_TRUE(hosts[0].disks[0]->valid() && hosts[1].disks[0]->valid());
  const std::string before = sha256_of(hosts[1].disks[0]->path());
  const std::string suite = lab.write("rw.json", R"({"name": "read-write", "description": "a read and a write", "region": "64m",
    "probe": {"enabled": false}, "defaults": {"runtime": "1s", "ramp": "0s", "engine": "psync"},
    "tests": [{"id": "rw", "description": "random read then random write", "workloads": [{"rw": "randread", "bs": "4k"}, {"rw": "randwrite", "bs": "4k"}]}]})");
  const std::string inv = inventory(lab, hosts), out = lab.dir() + "/report.json";
  auto r = run_command({DISKVET_BIN, "run", "--suite", suite, "--hosts", inv, "--profile", "none", "--out", out});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  json::object rep = load(out);
  ASSERT_FALSE(rep.empty());
  const auto& wl = rep.at("tests").as_array()[0].at("workloads").as_array();
  ASSERT_EQ(wl.size(), 2u);
  EXPECT_TRUE(wl[0].at("hosts").as_object().contains("h2")) << "the read-only host did not read";
  EXPECT_FALSE(wl[1].at("hosts").as_object().contains("h2")) << "the read-only host was written";
  EXPECT_TRUE(wl[1].at("hosts").as_object().contains("h1"));
  EXPECT_EQ(sha256_of(hosts[1].disks[0]->path()), before);
}

}  // namespace
}  // namespace diskvet::testing

namespace diskvet::testing {
namespace {

// Scale: 32 hosts with fio's null engine (no device I/O) complete one run. 32 sshd key exchanges at
// once on a loaded 2-core machine can take longer than the default 20 s: the test allows 120 s. The controller's CPU time
// and peak memory are printed for docs/benchmarks.md (not asserted: the machine's speed is not ours).
TEST(HostsLab, ThirtyTwoHostsCompleteARunOnTheNullEngine) {
  SKIP_UNLESS_SSH_LAB();
  constexpr int kHosts = 32;
  SshLab lab(kHosts);
  ASSERT_TRUE(lab.valid()) << lab.why();
  json::array hs;
  for (int i = 0; i < kHosts; ++i)
    hs.push_back(json::object{{"name", lab.name(i)}, {"ssh", lab.name(i)}, {"diskvet", false}, {"devices", json::array{}}});
  const std::string inv = lab.write("hosts.json", json::serialize(json::object{{"ssh_config", "ssh_config"}, {"hosts", hs}}));
  const std::string suite = lab.write("null.json", R"({"name": "null-read", "description": "one short read on fio's null engine",
    "probe": {"enabled": false}, "defaults": {"runtime": "3s", "ramp": "0s", "engine": "null"},
    "tests": [{"id": "read", "description": "random read", "workloads": [{"rw": "randread", "bs": "4k", "iodepth": 1}]}]})");
  const std::string out = lab.dir() + "/report.json";
  // The controller and everything it started (its ssh sessions, fio's client): CPU time once reaped,
  // and the peak of their summed resident memory, sampled every 100 ms.
  rusage before{}, after{};
  ::getrusage(RUSAGE_CHILDREN, &before);
  const auto t0 = std::chrono::steady_clock::now();
  SpawnOptions so;
  so.stderr_file = lab.dir() + "/controller.err";
  auto c = ChildProcess::spawn({DISKVET_BIN, "run", "--suite", suite, "--hosts", inv, "--profile", "none", "--fio-engine", "null", "--out", out, "--quiet",
                                "--connect-timeout", "120s"}, so);
  ASSERT_TRUE(c.ok());
  uint64_t peak_kib = 0, controller_peak_kib = 0;
  std::optional<int> rc;
  while (!(rc = c->wait_for(100))) {
    uint64_t sum = 0;
    for (pid_t p : process_tree(c->pid())) sum += rss_kib(p);
    peak_kib = std::max(peak_kib, sum);
    controller_peak_kib = std::max(controller_peak_kib, rss_kib(c->pid()));
    if (std::chrono::steady_clock::now() - t0 > std::chrono::minutes(8)) break;
  }
  ASSERT_TRUE(rc.has_value()) << "the 32-host run did not end";
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ::getrusage(RUSAGE_CHILDREN, &after);
  EXPECT_EQ(*rc, 0);
  auto secs = [](const timeval& a, const timeval& b) { return static_cast<double>(b.tv_sec - a.tv_sec) + static_cast<double>(b.tv_usec - a.tv_usec) / 1e6; };
  const double cpu_s = secs(before.ru_utime, after.ru_utime) + secs(before.ru_stime, after.ru_stime);
  std::printf("controller with its ssh sessions and fio's client, %d hosts: %.2f s CPU (%.3f s per host), peak memory %.1f MiB "
              "(%.2f MiB per host; diskvet itself %.1f MiB), %.1f s wall\n",
              kHosts, cpu_s, cpu_s / kHosts, static_cast<double>(peak_kib) / 1024, static_cast<double>(peak_kib) / 1024 / kHosts,
              static_cast<double>(controller_peak_kib) / 1024, wall_s);
  json::object rep = load(out);
  ASSERT_FALSE(rep.empty()) << read_file(lab.dir() + "/controller.err");
  // On failure, the evidence: what each host's state and reason were, and what the controller said.
  ASSERT_EQ(rep.at("status").as_string(), "COMPLETE") << json::serialize(rep.at("hosts")) << "\n"
                                                       << read_file(lab.dir() + "/controller.err");
  const json::object& w = rep.at("tests").as_array()[0].at("workloads").as_array()[0].as_object();
  EXPECT_EQ(w.at("hosts").as_object().size(), static_cast<size_t>(kHosts));
  std::printf("merged read IOPS over %d hosts: %.0f, start spread %s ms\n", kHosts, w.at("merged").at("read").at("iops").to_number<double>(),
              json::serialize(w.at("merged").at("start_spread_ms")).c_str());
  EXPECT_TRUE(processes_with(kHostsNeedle).empty());
}

}  // namespace
}  // namespace diskvet::testing

namespace diskvet::testing {
namespace {

// Steady state on the array: rounds repeat across the hosts until the merged IOPS are steady; a
// required steady state that is not attained leaves the test unjudged, never PASS.
TEST(HostsLab, SteadyStateIsJudgedOnTheMergedRounds) {
  SKIP_UNLESS_SSH_LAB();
  SshLab lab(2);
  ASSERT_TRUE(lab.valid()) << lab.why();
  json::array hs;
  for (int i = 0; i < 2; ++i) hs.push_back(json::object{{"name", lab.name(i)}, {"ssh", lab.name(i)}, {"diskvet", false}, {"devices", json::array{}}});
  const std::string inv = lab.write("hosts.json", json::serialize(json::object{{"ssh_config", "ssh_config"}, {"hosts", hs}}));
  auto suite = [&](const std::string& name, double excursion_pct) {
    return lab.write(name + ".json", R"({"name": ")" + name + R"(", "description": "steady rounds on fio's null engine",
      "probe": {"enabled": false}, "defaults": {"runtime": "1s", "ramp": "0s", "engine": "null"},
      "steady_state": {"enabled": true, "required": true, "round": "1s", "window_rounds": 2, "max_rounds": 3,
                       "max_excursion_pct": )" + std::to_string(excursion_pct) + R"(, "max_slope_pct": )" + std::to_string(excursion_pct) + R"(},
      "tests": [{"id": "read", "description": "random read", "workloads": [{"rw": "randread", "bs": "4k", "iodepth": 1}]}]})");
  };
  const std::string profile = lab.write("floor.json", R"({"name": "floor", "description": "any array", "source": "lab",
    "limits": {"read": {"total.iops": {"min": 1}}}})");
  // Loose criteria: steady within the window; impossible criteria (0%): never steady.
  for (const auto& [name, pct, want_pass] : {std::tuple{std::string("loose"), 100.0, true}, std::tuple{std::string("never"), 0.0, false}}) {
    const std::string out = lab.dir() + "/" + name + ".report.json";
    auto r = run_command({DISKVET_BIN, "run", "--suite", suite(name, pct), "--hosts", inv, "--profile", profile, "--out", out, "--quiet"});
    json::object rep = load(out);
    ASSERT_FALSE(rep.empty()) << r.err;
    const json::object& t = rep.at("tests").as_array()[0].as_object();
    ASSERT_EQ(t.at("workloads").as_array().size(), 1u) << "one workload, one result";
    const json::object& w = t.at("workloads").as_array()[0].as_object();
    ASSERT_TRUE(w.contains("steady_state")) << json::serialize(w).substr(0, 2000);
    const auto& rounds = w.at("steady_state").at("rounds").as_array();
    if (want_pass) {
      EXPECT_TRUE(w.at("steady_state").at("attained").as_bool());
      EXPECT_EQ(rounds.size(), 2u);
      EXPECT_EQ(t.at("status").as_string(), "PASS") << json::serialize(t).substr(0, 2000);
      EXPECT_EQ(r.exit_code, 0);
    } else {
      EXPECT_FALSE(w.at("steady_state").at("attained").as_bool());
      EXPECT_EQ(rounds.size(), 3u);
      EXPECT_NE(t.at("status").as_string(), "PASS");
      EXPECT_EQ(r.exit_code, 4) << r.err;
    }
  }
}

}  // namespace
}  // namespace diskvet::testing

namespace diskvet::testing {
namespace {

// A sweep on the array runs steady-state rounds of its heaviest step first, as the local runner
// does; rounds that never settle end at the round limit, the sweep still runs, and the test is not
// judged (never PASS). A matrix runs every cell per round until the tracked cell settles: never
// here, so no cell is judged. The run is not on a terminal: plain progress lines go to the log.
TEST(HostsLab, SweepAndMatrixRoundsThatNeverSettleAreNotJudged) {
  SKIP_UNLESS_SSH_LAB();
  SshLab lab(2);
  ASSERT_TRUE(lab.valid()) << lab.why();
  json::array hs;
  for (int i = 0; i < 2; ++i) hs.push_back(json::object{{"name", lab.name(i)}, {"ssh", lab.name(i)}, {"diskvet", false}, {"devices", json::array{}}});
  const std::string inv = lab.write("hosts.json", json::serialize(json::object{{"ssh_config", "ssh_config"}, {"hosts", hs}}));
  // 0% criteria: never steady.
  const std::string suite = lab.write("sweep.json", R"({"name": "sweep", "description": "sweep with rounds on fio's null engine",
    "probe": {"enabled": false}, "defaults": {"runtime": "1s", "ramp": "0s", "engine": "null"},
    "steady_state": {"enabled": true, "required": true, "round": "1s", "window_rounds": 2, "max_rounds": 2, "max_excursion_pct": 0, "max_slope_pct": 0},
    "tests": [{"id": "max-iops", "description": "sweep", "sweep": {"min_gain_pct": 0, "steps": [{"iodepth": 1, "numjobs": 1}, {"iodepth": 4, "numjobs": 1}]},
               "workloads": [{"rw": "randread", "bs": "4k"}]},
              {"id": "iops", "description": "matrix", "matrix": {"rwmixread": [100], "bs": ["4k", "8k"], "track": {"rwmixread": 100, "bs": "8k"}}}]})");
  const std::string profile = lab.write("floor.json", R"({"name": "floor", "description": "any array", "source": "lab",
    "limits": {"max-iops": {"total.iops": {"min": 1}}, "iops": {"total.iops": {"min": 1}}}})");
  const std::string out = lab.dir() + "/report.json";
  auto r = run_command({DISKVET_BIN, "run", "--suite", suite, "--hosts", inv, "--profile", profile, "--out", out});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  json::object rep = load(out);
  ASSERT_FALSE(rep.empty()) << r.err;
  const json::object& t = rep.at("tests").as_array()[0].as_object();
  EXPECT_EQ(t.at("status").as_string(), "NOT-JUDGED") << json::serialize(t).substr(0, 3000);
  EXPECT_EQ(t.at("verdicts").as_array()[0].at("status").as_string(), "NOT-EVALUATED");
  const json::object& w = t.at("workloads").as_array()[0].as_object();
  ASSERT_TRUE(w.contains("steady_state")) << json::serialize(w).substr(0, 3000);
  const json::object& ss = w.at("steady_state").as_object();
  EXPECT_FALSE(ss.at("attained").as_bool());
  EXPECT_TRUE(ss.at("required").as_bool());
  EXPECT_EQ(ss.at("rounds").as_array().size(), 2u) << "rounds until the limit";
  for (const auto& round : ss.at("rounds").as_array()) EXPECT_GT(round.at("iops").to_number<double>(), 0) << "each round's merged IOPS";
  EXPECT_EQ(ss.at("workload").as_string(), "randread 4KiB QD4 x1") << "the rounds run the heaviest step";
  EXPECT_EQ(w.at("sweep").as_array().size(), 2u) << "the sweep runs after the rounds";
  EXPECT_NE(json::serialize(w.at("not_judged")).find("steady state was not attained in 2 rounds"), std::string::npos);
  EXPECT_NE(rep.at("verdict").as_string(), "PASS");
  // The matrix: 2 rounds of both cells, the tracked (8k) cell never steady, no cell judged.
  const json::object& mt = rep.at("tests").as_array()[1].as_object();
  EXPECT_EQ(mt.at("status").as_string(), "NOT-JUDGED") << json::serialize(mt).substr(0, 3000);
  ASSERT_TRUE(mt.contains("matrix")) << json::serialize(mt).substr(0, 3000);
  const json::object& mx = mt.at("matrix").as_object();
  EXPECT_EQ(mx.at("rounds_run").to_number<size_t>(), 2u);
  EXPECT_FALSE(mx.at("steady_state").at("attained").as_bool());
  EXPECT_EQ(mx.at("steady_state").at("tracked_iops").as_array().size(), 2u);
  EXPECT_EQ(mx.at("tracked").at("bs").to_number<uint32_t>(), 8192u);
  ASSERT_EQ(mt.at("workloads").as_array().size(), 2u);
  for (const auto& cv : mt.at("workloads").as_array()) {
    const json::object& c = cv.as_object();
    EXPECT_TRUE(c.contains("merged"));
    EXPECT_EQ(c.at("steady_state").at("rounds").to_number<size_t>(), 2u);
    EXPECT_FALSE(c.at("steady_state").at("attained").as_bool());
    EXPECT_TRUE(c.contains("not_judged")) << json::serialize(c).substr(0, 1000);
  }
  // Progress on a log: a plain line when each fio run ends (2 rounds, 2 steps), with each host's IOPS.
  size_t finished = 0;
  for (size_t at = 0; (at = r.err.find("progress: max-iops", at)) != std::string::npos; ++at) {
    const std::string line = r.err.substr(at, r.err.find('\n', at) - at);
    if (line.find("finished after") == std::string::npos) continue;
    ++finished;
    EXPECT_NE(line.find("2 hosts: 2 done | this run "), std::string::npos) << line;
    EXPECT_NE(line.find("(h1 "), std::string::npos) << line;
  }
  EXPECT_EQ(finished, 4u) << r.err;
  EXPECT_NE(r.err.find("round 2 of at most 2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("progress: iops: randread 8KiB QD1 x1, round 2 of at most 2, cell 2 of 2 finished after"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("sweep step 2 of at most 2"), std::string::npos) << r.err;
  // `diskvet report` says the sweep was not steady.
  auto text = run_command({DISKVET_BIN, "report", out});
  EXPECT_NE(text.out.find("NOT steady after 2 rounds of at most 2"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("matrix: 2 rounds of every cell, tracked cell 100% read 8KiB: NOT steady (required: not judged)"), std::string::npos) << text.out;
}

// Preconditioning runs on every host's held devices at once; a host that could not be
// preconditioned (its device not consented) leaves a required preconditioning missing: not judged.
TEST(HostsLab, RequiredPreconditioningCoversEveryHostOrTheRunIsNotJudged) {
  SKIP_UNLESS_SSH_LAB();
  SKIP_UNLESS_LOOP_DEVICES();
  SshLab lab(2);
  ASSERT_TRUE(lab.valid()) << lab.why();
  const std::string suite = lab.write("pre.json", R"({"name": "pre", "description": "preconditioned read", "region": "32m",
    "probe": {"enabled": false}, "precondition": {"enabled": true, "required": true, "capacities": 1, "bs": "128k", "iodepth": 8},
    "defaults": {"runtime": "1s", "ramp": "0s", "engine": "psync"},
    "tests": [{"id": "read", "description": "random read", "workloads": [{"rw": "randread", "bs": "4k"}]}]})");
  const std::string profile = lab.write("floor.json", R"({"name": "floor", "description": "any array", "source": "lab",
    "limits": {"read": {"total.iops": {"min": 1}}}})");
  for (bool all_consented : {true, false}) {
    std::vector<LabHost> hosts(2);
    for (int i = 0; i < 2; ++i) {
      hosts[i].disks.push_back(disk(fmt::format("pre{}{}", all_consented, i)));
      ASSERT_TRUE(hosts[i].disks[0]->valid());
    }
    hosts[1].destroy = all_consented;
    const std::string before = sha256_of(hosts[1].disks[0]->path());
    const std::string inv = inventory(lab, hosts), out = lab.dir() + fmt::format("/report-{}.json", all_consented);
    auto r = run_command({DISKVET_BIN, "run", "--suite", suite, "--hosts", inv, "--profile", profile, "--out", out, "--quiet"});
    json::object rep = load(out);
    ASSERT_FALSE(rep.empty()) << r.err;
    ASSERT_TRUE(rep.contains("precondition")) << json::serialize(rep).substr(0, 2000);
    const json::object& pre = rep.at("precondition").as_object();
    if (all_consented) {
      EXPECT_EQ(r.exit_code, 0) << r.err << json::serialize(pre).substr(0, 2000);
      EXPECT_FALSE(pre.contains("incomplete"));
      for (const char* h : {"h1", "h2"}) EXPECT_GE(pre.at("hosts").at(h).at("write").at("io_bytes").to_number<uint64_t>(), 32u << 20) << h;
      EXPECT_EQ(rep.at("verdict").as_string(), "PASS");
    } else {
      EXPECT_EQ(r.exit_code, 4) << r.err;
      EXPECT_NE(json::serialize(pre.at("incomplete")).find("h2 was not preconditioned"), std::string::npos) << json::serialize(pre);
      EXPECT_EQ(sha256_of(hosts[1].disks[0]->path()), before) << "a device without consent was written";
      EXPECT_NE(rep.at("verdict").as_string(), "PASS");
    }
  }
}

}  // namespace
}  // namespace diskvet::testing

namespace diskvet::testing {
namespace {

// Limits per host apply to each host's own numbers: an array that meets its merged limits still FAILs
// when a host misses its own.
TEST(HostsLab, PerHostLimitsApplyToEachHost) {
  SKIP_UNLESS_SSH_LAB();
  SshLab lab(2);
  ASSERT_TRUE(lab.valid()) << lab.why();
  json::array hs;
  for (int i = 0; i < 2; ++i) hs.push_back(json::object{{"name", lab.name(i)}, {"ssh", lab.name(i)}, {"diskvet", false}, {"devices", json::array{}}});
  const std::string inv = lab.write("hosts.json", json::serialize(json::object{{"ssh_config", "ssh_config"}, {"hosts", hs}}));
  const std::string suite = lab.write("null.json", R"({"name": "null-read", "description": "one read on fio's null engine",
    "probe": {"enabled": false}, "defaults": {"runtime": "1s", "ramp": "0s", "engine": "null"},
    "tests": [{"id": "read", "description": "random read", "workloads": [{"rw": "randread", "bs": "4k", "iodepth": 1}]}]})");
  const std::string array = lab.write("array.json", R"({"name": "array", "description": "merged", "source": "lab",
    "limits": {"read": {"total.iops": {"min": 1}}}})");
  const std::string impossible = lab.write("host.json", R"({"name": "per-host", "description": "each host", "source": "lab",
    "limits": {"read": {"read.iops": {"min": 1e15}}}})");
  const std::string out = lab.dir() + "/report.json";
  auto r = run_command({DISKVET_BIN, "run", "--suite", suite, "--hosts", inv, "--profile", array, "--host-profile", impossible, "--out", out, "--quiet"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  json::object rep = load(out);
  ASSERT_FALSE(rep.empty());
  const json::object& t = rep.at("tests").as_array()[0].as_object();
  EXPECT_EQ(t.at("status").as_string(), "PASS") << "the merged limit";
  for (const char* h : {"h1", "h2"}) EXPECT_EQ(t.at("host_verdicts").at(h).at("status").as_string(), "FAIL") << h;
  EXPECT_EQ(rep.at("verdict").as_string(), "FAIL");
  // `diskvet report` reads it back: the run's exit code, a row per host and the merged row.
  auto text = run_command({DISKVET_BIN, "report", out});
  EXPECT_EQ(text.exit_code, 1) << text.err;
  for (const char* s : {"h1", "h2", "merged", "FAIL"}) EXPECT_NE(text.out.find(s), std::string::npos) << s << " missing from\n" << text.out;
  auto html = run_command({DISKVET_BIN, "report", out, "--html", lab.dir() + "/report.html"});
  EXPECT_EQ(html.exit_code, 1) << html.err;
  auto ok = run_command({DISKVET_BIN, "run", "--suite", suite, "--hosts", inv, "--profile", array, "--host-profile", array, "--out", out, "--quiet"});
  const std::string evidence = json::serialize(load(out));
  if (ok.exit_code == 4 && evidence.find("hosts started") != std::string::npos) {
    // A loaded machine can start the two fio servers further apart than a run measures together (0.5 s):
    // the run then judges the merged numbers NOT-JUDGED and says why, which is right and not this test's
    // subject. Any other reason fails below, with the report as the evidence.
    std::printf("not judged on this (loaded) machine, as the run should: %s\n", evidence.c_str());
    return;
  }
  EXPECT_EQ(ok.exit_code, 0) << ok.err << evidence;
}

}  // namespace
}  // namespace diskvet::testing
