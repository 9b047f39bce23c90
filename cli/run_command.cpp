// `diskvet run`: a suite on one or more devices (or a scratch target), verdicts, the report.
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>

#include "cli/commands.hpp"
#include "cli/hosts_command.hpp"
#include "cli/run_progress.hpp"
#include "cli/test_file.hpp"
#include "devices/file_system.hpp"
#include "common/units.hpp"
#include "devices/discovery.hpp"
#include "devices/health.hpp"
#include "devices/identity.hpp"
#include "devices/loop_device.hpp"
#include "devices/write_gate.hpp"
#include "runner/io/seed.hpp"
#include "runner/io/target.hpp"
#include "runner/io/workload.hpp"
#include "runner/report/report_file.hpp"
#include "runner/report/report_json.hpp"
#include "runner/report/report_text.hpp"
#include "runner/run/plan_check.hpp"
#include "runner/run/purge.hpp"
#include "runner/run/suite_run.hpp"
#include "suites/cloud_profile.hpp"
#include "suites/profile.hpp"
#include "suites/profile_match.hpp"
#include "suites/suite.hpp"

namespace diskvet::cli {

namespace {

using namespace diskvet::runner;

struct RunCliOptions {
  std::string suite;
  std::vector<std::string> devices;
  bool all = false;
  std::string profile = "auto";
  std::vector<std::string> destroy;
  std::string out;
  bool parallel = false;
  std::string precondition_limit;
  std::string duration;
  std::vector<std::string> rate_caps;  // DEV=IOPS
  std::string host_cap;                // iops=N,mbps=M: the VM's limit over all its disks
  std::string scratch_size = "1g";
  std::string directory;  // --directory: a test file of our own there
  std::string file_size = "1g";
  bool keep_file = false;
  std::string hosts;       // --hosts FILE: many hosts through fio's client/server engine
  std::string fio_engine;  // lab, with --hosts: every workload on this fio engine
  std::string connect_timeout;  // with --hosts: ssh's ConnectTimeout and the wait for each host's first answer
  std::string host_profile;
  std::string verify_memory = "512m";
  std::string randseed;  // empty: the run draws its own
  bool quiet = false;
};

// The suite writes when any workload writes, or it preconditions, purges or may fill unwritten space.
// The Device value for a path: discovery's view of a block device; a regular file is a scratch target.
Result<devices::Device> describe(const std::string& path) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) return usage_error(path, "does not exist", "check the path with 'diskvet list'");
  if (S_ISBLK(st.st_mode)) return devices::find_device(path);
  auto t = Target::open(path, false);
  if (!t) return t.error();
  return describe_file(path, t->info());
}

bool suite_writes(const suites::Suite& s) {
  if (s.precondition.enabled || s.purge || (s.probe.enabled && s.probe.on_unwritten == suites::OnUnwritten::precondition)) return true;
  for (const auto& t : s.tests)
    for (const auto& w : t.workloads)
      if (writes(w.rw)) return true;
  return false;
}

Result<Target> open_target(const std::string& path, bool writable, const devices::Consent& consent) {
  if (writable) {
    // The one gate: consent, protection rules, O_EXCL held for as long as the Target lives; an
    // existing file is written only when the consent names it.
    auto grant = devices::open_for_write(path, consent);
    if (!grant) return grant.error();
    return Target::adopt(std::move(grant->fd), path, true);
  }
  return Target::open(path, false);
}

// The scratch file of a run as a user without loop devices: a new file of our own (O_EXCL, never
// through a link), laid out with data, removed after the run by `owned`, and only while the name
// still holds the inode created here (a file swapped in under that name meanwhile is left alone).
Result<Target> create_scratch_file(const std::string& file, uint64_t size_bytes, OwnedFile& owned) {
  auto grant = devices::open_for_write(file, devices::Consent{}, size_bytes);
  if (!grant) return grant.error();
  if (!grant->created) return safety_error(file, "already exists; diskvet writes a scratch file only when it creates it", "remove it or run elsewhere");
  struct stat st{};
  if (::fstat(grant->fd.get(), &st) != 0) return system_error(file, "cannot fstat the scratch file just created", errno);
  owned.own(file, st.st_dev, st.st_ino, false);
  return Target::lay_out(std::move(grant->fd), file, size_bytes, true);
}

Result<std::map<std::string, uint64_t>> parse_rate_caps(const std::vector<std::string>& caps) {
  std::map<std::string, uint64_t> out;
  for (const auto& c : caps) {
    auto eq = c.rfind('=');
    uint64_t n = 0;
    // from_chars, not stoull: a number past 2^64 threw out_of_range, which nothing caught (abort).
    auto [end, ec] = eq == std::string::npos ? std::from_chars_result{nullptr, std::errc::invalid_argument}
                                             : std::from_chars(c.data() + eq + 1, c.data() + c.size(), n);
    if (eq == std::string::npos || eq == 0 || ec != std::errc() || end != c.data() + c.size() || n == 0)
      return usage_error("--rate-cap", fmt::format("'{}' is not DEV=IOPS", c), "e.g. --rate-cap /dev/loop7=2000");
    out[c.substr(0, eq)] = n;
  }
  return out;
}

std::string default_report_path(const std::string& suite) {
  std::string stamp = utc_now_iso8601();
  for (auto& ch : stamp)
    if (ch == ':') ch = '-';
  return fmt::format("diskvet-report-{}-{}.json", suite, stamp);
}

int run_suite_command(const RunCliOptions& o) {
  if (!o.hosts.empty()) {
    if (!o.randseed.empty())
      return fail(usage_error("--randseed", "does not apply with --hosts: fio on each host draws its own seeds (randrepeat=0)", "drop --randseed"));
    if (!o.devices.empty() || o.all || o.parallel || !o.rate_caps.empty() || !o.precondition_limit.empty())
      return fail(usage_error("--hosts", "takes its devices from the inventory", "leave out --device, --all, --parallel, --rate-cap and --precondition-limit"));
    return run_hosts_command(HostsCliOptions{o.hosts, o.suite, o.profile, o.out, o.duration, o.fio_engine, o.host_profile, o.destroy, o.quiet,
                                             o.connect_timeout});
  }
  if (!o.fio_engine.empty() || !o.host_profile.empty() || !o.connect_timeout.empty())
    return fail(usage_error(!o.fio_engine.empty() ? "--fio-engine" : (!o.host_profile.empty() ? "--host-profile" : "--connect-timeout"),
                            "applies only with --hosts"));
  auto suite = suites::resolve_suite(o.suite);
  if (!suite) return fail(suite.error());
  if (suite->placeholder)
    return fail(usage_error("--suite " + suite->name, "is a placeholder: " + suite->placeholder_note, "choose quick or acceptance"));
  RunOptions ropts;
  ropts.parallel = o.parallel;
  if (!o.precondition_limit.empty()) {
    auto s = parse_duration_s(o.precondition_limit);
    if (!s || *s <= 0) return fail(usage_error("--precondition-limit", fmt::format("'{}' is not a duration", o.precondition_limit), "e.g. 30m, 2h"));
    ropts.precondition_limit_s = *s;
  }
  if (!o.duration.empty()) {
    auto s = parse_duration_s(o.duration);
    if (!s || *s < 0.1) return fail(usage_error("--duration", fmt::format("'{}' is not a duration of at least 0.1s", o.duration), "e.g. 5s, 1m"));
    // The engine's deadlines hold at most a year (validate() says so per workload; said here once).
    if (*s > kMaxRunS) return fail(usage_error("--duration", fmt::format("'{}' is more than a year", o.duration), "e.g. 1h, 7d"));
    ropts.duration_s = *s;
  }
  auto verify_memory = parse_size(o.verify_memory);
  if (!verify_memory || *verify_memory < (1u << 20))
    return fail(usage_error("--verify-memory", fmt::format("'{}' is not a size of at least 1m", o.verify_memory), "e.g. 512m, 2g"));
  ropts.verify_memory_bytes = *verify_memory;
  if (!o.randseed.empty()) {
    ropts.randseed = parse_seed(o.randseed);
    if (!ropts.randseed)
      return fail(usage_error("--randseed", fmt::format("'{}' is not a whole number", o.randseed), "the randseed of the report to repeat, e.g. 12345"));
  }
  auto caps = parse_rate_caps(o.rate_caps);
  if (!caps) return fail(caps.error());
  // The report is claimed (its temporary file created beside it and held open) before any device
  // or file is touched: an --out that cannot be written is refused now, when it costs nothing.
  const std::string out = o.out.empty() ? default_report_path(suite->name) : o.out;
  auto report_out = claim_output(out, "--out");
  if (!report_out) return fail(report_out.error());

  // Profiles: one named for every device, or matched per device.
  std::optional<suites::Profile> named;
  std::vector<suites::Profile> shipped;
  ropts.measurement_only = o.profile == "none";
  if (o.profile == "auto") {
    auto all = suites::builtin_profiles();
    if (!all) return fail(all.error());
    shipped = std::move(*all);
  } else if (!ropts.measurement_only) {
    // Checked here, before any device is touched; a cloud family is sized per device below.
    auto args = suites::parse_profile_args(o.profile);
    if (!args) return fail(args.error());
    if (!suites::is_cloud_family(args->name)) {
      std::string reason;
      auto p = suites::resolve_profile_for(o.profile, devices::Device{}, reason);
      if (!p) return fail(p.error());
      named = std::move(*p);
    }
  }
  std::optional<suites::HostCap> host_cap;
  if (!o.host_cap.empty()) {
    auto cap = suites::parse_host_cap(o.host_cap);
    if (!cap) return fail(cap.error());
    host_cap = *cap;
  }

  // Targets: named devices, or a scratch target created here.
  std::vector<std::string> paths = o.devices;
  devices::Consent consent{o.destroy};
  std::optional<devices::LoopDevice> scratch_loop;
  std::string scratch_file;              // created by this run, removed at its end (remove_scratch below)
  std::optional<Target> scratch_target;  // its descriptor, from creation to the run
  OwnedFile remove_scratch;
  OwnedFile test_file;  // --directory: removed at the end unless --keep-file
  std::optional<devices::Device> test_file_device;
  std::vector<std::string> notes;
  if (!o.directory.empty()) {
    if (o.all || !paths.empty()) return fail(usage_error("--directory", "and --device/--all name the targets twice", "use one of them"));
    auto size = parse_size(o.file_size);
    if (!size || *size < (64u << 20)) return fail(usage_error("--size", fmt::format("'{}' is not a size of at least 64m", o.file_size), "e.g. 10g"));
    // Kept (--keep-file) only once the run starts: a run refused after this removes the file it made.
    auto t = create_test_file(o.directory, "test", *size, /*keep=*/false, test_file);
    if (!t) return fail(t.error());
    scratch_file = test_file.path();
    test_file_device = describe_file(scratch_file, t->target.info());
    test_file_device->file_system = t->file_system;
    scratch_target.emplace(std::move(t->target));
    paths.push_back(scratch_file);
    notes.push_back(fmt::format("file target: created {} ({}, filled with data before the tests){}", scratch_file, format_bytes(*size),
                                o.keep_file ? ", kept afterwards (--keep-file)" : ", removed afterwards"));
    notes.push_back("file target: " + devices::describe(t->file_system));
    if (!t->file_system.direct_io)
      notes.push_back(fmt::format("file target: {} refused O_DIRECT; the run used buffered I/O and its numbers include the page cache",
                                  t->file_system.fstype.empty() ? "the file system" : t->file_system.fstype));
    notes.push_back("file target: no purge (a file is neither formatted nor discarded), no health, no namespace facts");
  }
  if (o.all) {
    if (!paths.empty()) return fail(usage_error("--all", "and --device name the devices twice", "use one of them"));
    // Every disk discovery finds unprotected; protected ones are named in the report's notes.
    auto found = devices::discover();
    if (!found) return fail(found.error());
    for (const auto& d : *found) {
      if (!d.is_protected) paths.push_back(d.path);
      else notes.push_back(fmt::format("--all skipped {} (PROTECTED: {})", d.path, d.protection_reasons.empty() ? "" : d.protection_reasons.front()));
    }
    if (paths.empty()) return fail(usage_error("--all", "found no unprotected disk", "see 'diskvet list' for each disk's protection"));
  }
  if (paths.empty()) {
    auto size = parse_size(o.scratch_size);
    if (!size || *size < (64u << 20)) return fail(usage_error("--scratch-size", fmt::format("'{}' is not a size of at least 64m", o.scratch_size)));
    if (devices::can_create_loop_devices()) {
      auto loop = devices::LoopDevice::create(fmt::format("/dev/shm/diskvet-scratch-{}.img", getpid()), *size);
      if (!loop) return fail(loop.error());
      scratch_loop.emplace(std::move(*loop));
      paths.push_back(scratch_loop->path());
      consent.add(scratch_loop->path());  // we created it: nothing of anyone's is on it
      notes.push_back(fmt::format("no device named: ran on a scratch loop device over {} ({} in RAM), detached afterwards", scratch_loop->backing(),
                                  format_bytes(*size)));
    } else {
      scratch_file = fmt::format("diskvet-scratch-{}.img", getpid());
      auto t = create_scratch_file(scratch_file, *size, remove_scratch);
      if (!t) return fail(t.error());
      scratch_target.emplace(std::move(*t));
      paths.push_back(scratch_file);
      notes.push_back(fmt::format("no device named and not root: ran on the O_DIRECT file {} in the current directory, removed afterwards",
                                  scratch_file));
    }
  }

  RunPlan plan;
  plan.suite = *suite;
  plan.options = ropts;
  const bool writable = suite_writes(*suite);
  // Every device passes the gate before the first I/O on any of them: one refusal stops the run.
  for (const auto& path : paths) {
    auto dev = test_file_device && path == scratch_file ? Result<devices::Device>(*test_file_device) : describe(path);
    if (!dev) return fail(dev.error());
    // One medium seen through several paths (one LUN without dm-multipath, one namespace through
    // two controllers) is tested once, through the first path.
    auto twin = std::find_if(plan.devices.begin(), plan.devices.end(), [&](const DevicePlan& p) { return devices::same_medium(p.device, *dev); });
    if (twin != plan.devices.end()) {
      notes.push_back(fmt::format("{} skipped: the same medium as {} (WWN {}), tested once", path, twin->device.path,
                                  dev->wwn.empty() ? "-" : dev->wwn));
      continue;
    }
    auto target = path == scratch_file && scratch_target ? Result<Target>(std::move(*scratch_target)) : open_target(path, writable, consent);
    if (!target) {
      Error e = target.error();
      if (writable && e.kind == ErrorKind::safety && paths.size() > 1)
        e.fix += (e.fix.empty() ? "" : "; ") + std::string("no device of this run was written");
      return fail(e);
    }
    DevicePlan dp{*dev, std::move(*target), std::nullopt, {}, 0};
    if (ropts.measurement_only) {
      dp.profile_reason = "measurement only (--profile none): no limits judged";
    } else if (named) {
      dp.profile = named;
      dp.profile_reason = "named on the command line (" + named->file + ")";
    } else if (o.profile != "auto") {
      auto p = suites::resolve_profile_for(o.profile, dp.device, dp.profile_reason);
      if (!p) return fail(p.error());
      dp.profile = std::move(*p);
    } else {
      dp.profile = suites::match_profile(dp.device, shipped, dp.profile_reason);
    }
    if (host_cap && dp.profile) {
      std::string bound;
      suites::apply_host_cap(*dp.profile, *host_cap, bound);
      dp.profile_reason += bound.empty() ? fmt::format("; host cap {} did not bind: the disk's own limits are lower", host_cap->text)
                                         : fmt::format("; host cap {} binds: {}", host_cap->text, bound);
    }
    if (auto it = caps->find(path); it != caps->end()) dp.rate_cap_iops = it->second;
    plan.devices.push_back(std::move(dp));
  }
  for (const auto& [dev, cap] : *caps) {
    bool used = false;
    for (const auto& p : paths) used = used || p == dev;
    if (!used) return fail(usage_error("--rate-cap", fmt::format("{} is not one of the devices of this run", dev)));
  }
  // Verification state is sized for every device before the first I/O: one that cannot fit the
  // budget stops the run here, with nothing written.
  if (auto fits = plan_verify_memory(plan); !fits) return fail(fits.error());
  // Every workload against every device, as it will run: a later test that cannot run on a device
  // refuses the run now, before the first test writes.
  if (auto fits = check_plan_workloads(plan); !fits) return fail(fits.error());
  test_file.keep(o.keep_file);
  plan.options.stop = &interrupt_flag();

  install_signal_handlers();
  RunHooks hooks;
  hooks.read_health = [](const devices::Device& d) -> std::optional<devices::Health> {
    if (d.kind == devices::DeviceKind::other && d.model == "regular file") return std::nullopt;
    return devices::read_health(d);
  };
  // Called by the runner only for targets the gate opened for writing; else discard, else none.
  hooks.nvme_purge = purge_nvme;
  RunResult result;
  {
    RunProgress progress(o.quiet, isatty(STDERR_FILENO) != 0);
    result = run_suite(plan, hooks, progress);
  }
  plan.devices.clear();  // release the targets (O_EXCL) before the scratch device is detached
  result.notes.insert(result.notes.begin(), notes.begin(), notes.end());

  boost::json::object doc = report_json(result, probe_host());
  auto written = report_out->commit(seal_report(doc) + "\n");
  std::fputs(render_report_text(doc).c_str(), stdout);
  if (!written) {
    fail(written.error());
    return 3;
  }
  std::error_code ec;
  std::printf("report: %s\n", std::filesystem::absolute(out, ec).c_str());
  return result.exit_code();
}

}  // namespace

Action register_run(CLI::App& app) {
  auto o = std::make_shared<RunCliOptions>();
  CLI::App* run = app.add_subcommand("run", "Run an acceptance suite on devices and judge them against a profile's limits");
  run->footer(
      "Examples:\n"
      "  diskvet run --suite quick                          (scratch target: a loop device on /dev/shm as root, else a file)\n"
      "  diskvet run --suite acceptance --device /dev/nvme0n1 --destroy-data S4EWNX0R123456 --profile auto\n"
      "  diskvet run --suite quick --device /dev/sdb --device /dev/sdc --destroy-data all-unprotected --parallel\n"
      "  diskvet run --suite quick --directory /mnt/share --size 10g   (a test file of its own on a mounted volume)\n"
      "Write tests destroy data: each device must be named by --destroy-data (serial, WWN, /dev path or\n"
      "all-unprotected). Protected devices (mounted, held, swap, read-only, in use) are refused whatever the consent,\n"
      "and one refusal stops the run before any device is written. An existing file as --device is data: it is written\n"
      "only with --destroy-data naming that file, never through a symlink.\n"
      "Verdicts fail closed: a device PASSes only when every test ran and every limit was evaluated and met.\n"
      "Exit codes (the worst device decides; 3 > 1 > 4 > 0):\n"
      "  0  every device judged and PASS (with --profile none: every test ran, nothing failed)\n"
      "  1  at least one device FAILs (limit missed, I/O errors, verification mismatch, health)\n"
      "  2  usage, input or safety refusal: nothing ran\n"
      "  3  ERROR: a test could not run or stopped on an error, or the run was aborted (partial report written)\n"
      "  4  INCONCLUSIVE or NOT-JUDGED: steady state or preconditioning missing, limits not evaluated, no profile\n"
      "     matched (use --profile NAME|FILE, or --profile none to measure only)");
  run->add_option("--suite", o->suite, "quick | acceptance | snia-iops | burnin | FILE")->required();
  run->add_option("--device,-d", o->devices, "Device (or file) to test; repeat for several");
  run->add_flag("--all", o->all, "Every unprotected disk 'diskvet list' shows (writes still need --destroy-data)");
  run->add_option("--profile", o->profile,
                  "NAME | FILE | FAMILY:KEY=VALUE,... (cloud volumes, e.g. aws-gp3:iops=6000,mbps=250) | auto (match by model and size, "
                  "or the cloud volume the guest sees) | none (measure only, judge no limits)")
      ->capture_default_str();
  run->add_option("--destroy-data", o->destroy, "Consent to overwrite: serial, WWN, SERIAL/NSID, /dev path or all-unprotected");
  run->add_option("--out,-o", o->out,
                  "Report file (default: diskvet-report-SUITE-TIME.json here); a device node, a directory or a link to one is refused");
  run->add_flag("--parallel", o->parallel, "Test the devices at the same time (shelves); default is one after another");
  run->add_option("--precondition-limit", o->precondition_limit, "Cap preconditioning at this time (the report says how much was written)");
  run->add_option("--duration", o->duration, "Measurement window of every timed workload (and at most each steady-state round); full passes run to their size");
  run->add_option("--host-cap", o->host_cap,
                  "The host's (VM's) uncached disk limit, iops=N,mbps=M (MB/s) or a VM size (azure:Standard_B2ms, aws:m5.large; "
                  "see 'diskvet suites'): caps every IOPS and MB/s floor of the profile; the report says which limit bound each");
  run->add_option("--rate-cap", o->rate_caps, "Lab: cap DEV at IOPS total to emulate a slower device (DEV=IOPS)");
  run->add_option("--scratch-size", o->scratch_size, "Size of the scratch target when no device is named")->capture_default_str();
  run->add_option("--directory", o->directory,
                  "Test a mounted volume through a file of diskvet's own in this directory (created, filled, removed afterwards)");
  run->add_option("--size", o->file_size, "Size of the test file with --directory")->capture_default_str();
  run->add_flag("--keep-file", o->keep_file, "Keep the --directory test file after the run");
  run->add_option("--verify-memory", o->verify_memory,
                  "Memory for verification state, the whole run (split over devices in parallel); large devices get coarser state, see README")
      ->capture_default_str();
  run->add_option("--randseed", o->randseed, "Repeat the offsets and write data of the run whose report shows this randseed (default: a new seed per run)");
  run->add_flag("--quiet,-q", o->quiet, "No progress on stderr");
  run->add_option("--hosts", o->hosts, "Hosts inventory (JSON): run the suite on many hosts at once through fio's client/server engine over SSH");
  run->add_option("--host-profile", o->host_profile, "With --hosts: limits each host's own numbers must meet (NAME or FILE), beside --profile's on the merged numbers");
  run->add_option("--fio-engine", o->fio_engine, "Lab, with --hosts: run every workload on this fio engine (null: no device I/O)");
  run->add_option("--connect-timeout", o->connect_timeout,
                  "With --hosts: how long one host may take to answer over SSH before it counts as unreachable (default 20s; "
                  "slow links and loaded hosts want more)");
  return [o] { return run_suite_command(*o); };
}

}  // namespace diskvet::cli
