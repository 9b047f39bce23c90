// Writes the reports the browser test renders, made by the real run path on the null engine and
// sealed as `diskvet run` seals them: a passing run on two drives, a failing one, and a burn-in with
// a health series whose device then gets a stalled I/O and a verification mismatch added to its
// result (the null engine writes no data to mismatch and never stalls; the FUSE and loop labs of
// tests/integration/burnin make real ones, this only needs them on the page); and a cloud volume whose
// first workload spent a burst in its ramp (a ramp series and its step added to the failing run: the
// null engine has no burst bucket; vm.cloud_burst makes a real one).
//   report_fixtures OUTDIR
#include <cstdio>
#include <fstream>

#include "runner/report/ramp_json.hpp"
#include "runner/report/report_file.hpp"
#include "tests/support/null_run_report.hpp"

using namespace diskvet;

namespace {

bool write(const std::string& path, const boost::json::object& doc) {
  std::ofstream(path) << runner::seal_report(doc) << "\n";
  return true;
}

const char* kPassing = R"({"name": "null-pass", "source": "lab", "limits": {"max-iops": {"read.iops": {"min": 10}}, "latency-qd1": {"read.lat_p99_us": {"max": 1e6}}}})";

const char* kBurnin = R"({
  "name": "null-burnin",
  "probe": {"enabled": false}, "precondition": {"enabled": false}, "steady_state": {"enabled": false},
  "monitor": {"health_poll": true, "health_interval": "0.1s"},
  "defaults": {"runtime": "1s", "ramp": "0s", "engine": "null", "interval": "0.1s"},
  "tests": [{"id": "random-verify-behind", "workloads": [{"rw": "randrw", "rwmixread": 70, "bs": "64k", "iodepth": 16}]}]
})";

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: report_fixtures OUTDIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  diskvet::testing::NullDrive a{.path = "null-a", .serial = "SN-A"}, b{.path = "null-b", .serial = "SN-B"};
  write(dir + "/multi-pass.json", diskvet::testing::null_run_report({a, b}, diskvet::testing::kNullSuite, kPassing));
  write(dir + "/fail.json", diskvet::testing::null_run_report({a}));

  // The cloud volume: 1000 IOPS for 10 s of a 15 s ramp, then 60, then the measured window.
  auto cloud = diskvet::testing::null_run_report({a});
  auto& w = cloud["devices"].as_array()[0].as_object()["tests"].as_array()[0].as_object()["workloads"].as_array()[0].as_object();
  runner::WorkloadRecord ramped;
  ramped.ran = true;
  ramped.workload.ramp_s = 15;
  ramped.result.ramp_bucket_s = 1;
  for (int i = 0; i < 15; ++i) {
    runner::IntervalSample s;
    s.t_s = i, s.dur_s = 1, s.ios[0] = i < 10 ? 1000 : 60, s.bytes[0] = s.ios[0] * 4096;
    ramped.result.ramp_intervals.push_back(s);
  }
  runner::add_ramp_and_burst(w, ramped);
  w["ramp_s"] = 15;
  w.erase("steady_state");
  write(dir + "/cloud-burst.json", cloud);

  // The burn-in: the run, then its stall and mismatch, then the report.
  auto suite = suites::parse_suite(kBurnin, "burnin.json");
  if (!suite) return std::fprintf(stderr, "%s\n", suite.error().message().c_str()), 3;
  runner::RunPlan plan;
  plan.suite = *suite;
  devices::Device dev;
  dev.path = "null-burn";
  dev.model = "LAB-SSD";
  dev.serial = "SN-BURN";
  plan.devices.push_back(runner::DevicePlan{dev, runner::Target::null(64u << 20), std::nullopt, "none", 0});
  int polls = 0;
  runner::RunHooks hooks;
  hooks.read_health = [&](const devices::Device&) -> std::optional<devices::Health> {
    devices::Health h;
    h.known = true;
    h.source = "lab";
    h.temperature_c = 40 + polls++ % 12;  // warming up, then falling back
    h.warning_temp_c = 70;
    h.media_errors = 0;
    return h;
  };
  runner::RunEvents quiet;
  runner::RunResult r = runner::run_suite(plan, hooks, quiet);
  runner::DeviceResult& d = r.devices.at(0);
  runner::DeviceStall stall;
  stall.test_id = "random-verify-behind";
  stall.stall = runner::Stall{runner::Direction::read, 1u << 20, 0.4, 5.02, true};
  stall.lba = (1u << 20) / 512;
  d.watchdog.io_timeout_s = 1;
  d.watchdog.stalls.push_back(stall);
  d.watchdog.stall_count = 1;
  d.verify.enabled = true;
  d.verify.blocks_written = 4096;
  d.verify.blocks_verified = 4000;
  d.verify.mismatches = 1;
  d.verify.bad_blocks = 1;
  runner::BlockMismatch m;
  m.offset_bytes = 8u << 20;
  m.expected.lba = m.offset_bytes / 512;  // the report names a mismatch by the LBA it expected there
  m.expected.bs_bytes = 4096;
  m.t_s = 0.6;
  d.verify.first.push_back(m);
  d.verdict.status = runner::VerdictStatus::fail;
  d.verdict.reasons = {"1 I/O stalled past io_timeout", "1 block did not read back as written"};
  r.verdict = runner::VerdictStatus::fail;
  write(dir + "/burnin-stall-mismatch.json", runner::report_json(r, runner::probe_host()));
  return 0;
}
