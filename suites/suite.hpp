// Suite: what a run does to each device — the phases (purge, preconditioning, probe, warmup, steady
// state) and the tests with their workloads. A plain value, loaded and validated from suites/*.json.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "devices/self_test.hpp"
#include "runner/analysis/steady_state.hpp"
#include "runner/analysis/throttle.hpp"
#include "runner/io/workload.hpp"

namespace diskvet::suites {

// Workload-independent preconditioning (SNIA PTS 3.2: sequential 128 KiB writes, 2x user capacity).
struct PreconditionSpec {
  bool enabled = false;
  bool required = false;     // missing or cut short by a time cap -> the device is INCONCLUSIVE
  double capacities = 2.0;   // multiples of the tested region to write
  uint32_t bs_bytes = 128 * 1024;
  uint32_t iodepth = 32;
  uint32_t numjobs = 1;
  double limit_s = 0;        // time cap (0: none); --precondition-limit overrides
};

// Read tests warm caches first: 1 s intervals until IOPS are steady by the slope criterion, or max_s.
struct WarmupSpec {
  bool enabled = false;
  double interval_s = 1.0;
  double max_s = 30;
  size_t window = 5;
  double max_slope_pct = 10;
};

// Workload-dependent rounds until steady state (SNIA PTS 3.3), each round round_s long.
struct SteadyStateSpec {
  bool enabled = false;
  bool required = false;   // not attained -> INCONCLUSIVE
  double round_s = 60;
  runner::SteadyCriteria criteria;
};

enum class OnUnwritten { inconclusive, precondition };

// Samples blocks of the region before read tests: all-zero blocks were never written.
struct ProbeSpec {
  bool enabled = true;
  uint32_t samples = 64;
  double max_zero_pct = 50;  // more zero samples than this: the region counts as unwritten
  OnUnwritten on_unwritten = OnUnwritten::inconclusive;
};

// The address-integrity probe (runner/verify/address_probe.hpp): before anything else, on every
// device the run may write, blocks over the whole claimed capacity are written, flushed and read back.
struct AddressProbeSpec {
  bool enabled = false;
  uint64_t budget_bytes = 0;  // probe blocks; 0: min(1 GiB, 0.1% of the capacity)
  uint64_t flush_bytes = 0;   // written between writing and reading back; 0: min(256 MiB, capacity / 16)
};

// The drive's own self-tests around the run (devices/self_test.hpp): `before` once health is read and
// before anything is written, `after` once every device's tests ended; each on every device of the
// run in parallel. "none" skips one.
struct SelfTestSpec {
  devices::SelfTestType before = devices::SelfTestType::none;
  devices::SelfTestType after = devices::SelfTestType::none;
};

// The kernel's fastest paths where a device has them (issue 29): a workload on the io_uring block
// path runs through NVMe passthrough (io_uring_cmd on the namespace's generic char device) and with
// polled completions (hipri) on a device that can; elsewhere as written. Decided per device at plan
// time (runner/run/fast_path.hpp); the report says what each device got and why not the rest.
// `compare_block_path`: the first test also runs on the block path as written, beside, not judged.
struct FastPathSpec {
  bool enabled = false;
  bool compare_block_path = true;
};

// A queue-depth/job sweep: steps run in order until IOPS gain less than min_gain_pct over the last.
struct SweepStep {
  uint32_t iodepth = 1;
  uint32_t numjobs = 1;
};
struct SweepSpec {
  std::vector<SweepStep> steps;
  double min_gain_pct = 5;
};

// A read/write mix x block size matrix of random workloads (SNIA PTS-E 1.1 IOPS test): each round
// runs every cell once for the round's length, in order; rounds repeat until the tracked cell's IOPS
// are steady (PTS: 4 KiB 0/100, i.e. random writes); each cell reports its measurement window.
// The test's workloads are the cells, mix-major: cell (m, b) is workloads[m * bs_bytes.size() + b].
struct MatrixSpec {
  std::vector<uint32_t> rwmixread_pcts;  // 100: randread, 0: randwrite, else randrw
  std::vector<uint32_t> bs_bytes;
  size_t tracked = 0;                    // index of the tracked cell
};

struct TestSpec {
  std::string id;           // "latency-qd1"; profile limits are keyed by it
  std::string description;
  std::vector<runner::Workload> workloads;  // size/offset resolved against the device at plan time
  std::optional<SweepSpec> sweep;           // max-iops: each workload is swept
  std::optional<MatrixSpec> matrix;         // snia-iops: the workloads are the matrix's cells
  // What the steady-state rounds track: IOPS, or mean latency (latency tests).
  bool track_latency = false;
  // Full passes over the region (each workload stops after passes x region bytes); such a test's
  // length is its size, so --duration leaves it alone. 0: timed by runtime.
  double passes = 0;
};

// What a burn-in watches while the load runs: health polls, slowdowns, latency outliers.
struct MonitorSpec {
  bool health_poll = false;
  double health_interval_s = 60;
  bool slowdowns = false;              // run the throttling detector on timed workloads' interval series
  runner::SlowdownCriteria slowdown;
  double latency_outlier_s = 1.0;      // verifying workloads list I/Os slower than this
};

struct Suite {
  std::string name;
  std::string description;
  std::string file;          // where it was loaded from ("builtin:quick" or a path)
  bool placeholder = false;  // shipped but not filled in yet (burnin); refuses to run
  std::string placeholder_note;
  bool purge = false;        // NVMe format/sanitize, else discard, when consent allows
  uint64_t region_bytes = 0; // test the first region_bytes of each device; 0 = the whole device
  PreconditionSpec precondition;
  WarmupSpec warmup;
  SteadyStateSpec steady_state;
  ProbeSpec probe;
  AddressProbeSpec address_probe;
  SelfTestSpec self_test;
  FastPathSpec fast_path;
  MonitorSpec monitor;
  std::vector<TestSpec> tests;
};

// Parses and validates a suite; every error names the file, the key and the reason (ErrorKind::input).
Result<Suite> parse_suite(std::string_view text, const std::string& file);
Result<Suite> load_suite_file(const std::string& path);
// The suites shipped in suites/*.json (compiled in, so the appliance needs no data directory).
std::vector<std::string> builtin_suite_names();
Result<Suite> builtin_suite(const std::string& name);
// A name of a shipped suite, or a path to a file (anything with '/' or ending in .json).
Result<Suite> resolve_suite(const std::string& name_or_file);

// Whether running the suite writes its devices: a workload writes, or it preconditions, purges,
// probes addresses, or its probe may fill unwritten space. Such a suite needs consent and the write gate for each device.
bool suite_writes(const Suite& s);

}  // namespace diskvet::suites
