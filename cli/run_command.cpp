// `diskvet run`: a suite on one or more devices (or a scratch target), verdicts, the report.
#include <unistd.h>

#include <fmt/format.h>

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>

#include "cli/commands.hpp"
#include "cli/hosts_command.hpp"
#include "cli/run_progress.hpp"
#include "cli/run_planned.hpp"
#include "common/units.hpp"
#include "devices/consent.hpp"
#include "runner/io/seed.hpp"
#include "runner/plan/build_plan.hpp"
#include "runner/report/fio_logs.hpp"
#include "runner/report/report_file.hpp"
#include "runner/report/report_json.hpp"
#include "runner/report/report_text.hpp"
#include "runner/run/suite_run.hpp"
#include "suites/cloud_profile.hpp"

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
  std::string logs_dir;  // fio's logs per device, test and workload
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

Result<uint64_t> parse_size_option(const std::string& text, const std::string& option, uint64_t min_bytes, const char* example) {
  auto size = parse_size(text);
  if (!size || *size < min_bytes)
    return usage_error(option, fmt::format("'{}' is not a size of at least {}", text, format_bytes(min_bytes)), example);
  return *size;
}

// The command line as a PlanRequest: every option parsed (exit 2 on a typo); build_plan checks the rest.
Result<PlanRequest> plan_request(const RunCliOptions& o) {
  PlanRequest r;
  auto suite = resolve_run_suite(o.suite);
  if (!suite) return suite.error();
  r.suite = std::move(*suite);
  r.options.parallel = o.parallel;
  if (!o.precondition_limit.empty()) {
    auto s = parse_duration_option(o.precondition_limit, "--precondition-limit", 0);
    if (!s) return s.error();
    r.options.precondition_limit_s = *s;
  }
  if (!o.duration.empty()) {
    auto s = parse_duration_option(o.duration, "--duration", 0.1);
    if (!s) return s.error();
    r.options.duration_s = *s;
  }
  auto verify_memory = parse_size_option(o.verify_memory, "--verify-memory", uint64_t{1} << 20, "e.g. 512m, 2g");
  if (!verify_memory) return verify_memory.error();
  r.options.verify_memory_bytes = *verify_memory;
  if (!o.randseed.empty()) {
    r.options.randseed = parse_seed(o.randseed);
    if (!r.options.randseed)
      return usage_error("--randseed", fmt::format("'{}' is not a whole number", o.randseed), "the randseed of the report to repeat, e.g. 12345");
  }
  auto caps = parse_rate_caps(o.rate_caps);
  if (!caps) return caps.error();
  r.rate_caps = std::move(*caps);
  if (!o.host_cap.empty()) {
    auto cap = suites::parse_host_cap(o.host_cap);
    if (!cap) return cap.error();
    r.host_cap = *cap;
  }
  r.devices = o.devices;
  r.all = o.all;
  if (!o.directory.empty()) {
    auto size = parse_size_option(o.file_size, "--size", uint64_t{64} << 20, "e.g. 10g");
    if (!size) return size.error();
    r.file_target = FileTargetRequest{o.directory, *size, o.keep_file};
  } else if (r.devices.empty() && !r.all) {
    auto size = parse_size_option(o.scratch_size, "--scratch-size", uint64_t{64} << 20, "e.g. 4g");
    if (!size) return size.error();
    r.scratch_size_bytes = *size;
  }
  r.consent = devices::Consent{o.destroy};
  r.profile = o.profile;
  r.out = o.out.empty() ? default_report_name("report", r.suite.name) : o.out;
  return r;
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
  auto request = plan_request(o);
  if (!request) return fail(request.error());
  // The logs' files are named by what ran, so their directory is what is checked now, before the plan
  // touches any target.
  if (!o.logs_dir.empty())
    if (auto ok = check_output_dir(o.logs_dir, "--logs"); !ok) return fail(ok.error());
  // From here an interrupt is ours to handle: one during the plan (which may make a scratch device
  // and claims the report) ends the run before its first write, with a report, instead of killing
  // the process with what the plan made still there.
  install_signal_handlers();
  // Everything that can fail is checked here, before the first write (runner/plan).
  auto planned = build_plan(std::move(*request));
  if (!planned) return fail(planned.error());
  return run_planned(*planned, o.quiet, o.logs_dir);
}

}  // namespace

int run_planned(PlannedRun& run, bool quiet, const std::string& logs_dir) {
  run.plan.options.stop = &interrupt_flag();
  install_signal_handlers();  // the caller did before its plan; again for any other caller
  RunResult result;
  {
    RunProgress progress(quiet, isatty(STDERR_FILENO) != 0);
    result = run_suite(run.plan, device_run_hooks(), progress);
  }
  run.release_targets();  // the targets (O_EXCL) close before the scratch device is detached
  result.notes.insert(result.notes.begin(), run.notes.begin(), run.notes.end());

  boost::json::object doc = report_json(result, probe_host());
  const std::string out = run.report.path();
  auto written = run.report.commit(seal_report(doc) + "\n");
  std::fputs(render_report_text(doc).c_str(), stdout);
  if (!written) {
    fail(written.error());
    return 3;
  }
  for (const NamedLog& log : logs_dir.empty() ? std::vector<NamedLog>{} : run_fio_logs(result)) {
    auto claim = claim_output((std::filesystem::path(logs_dir) / log.file_name).string(), "--logs");
    Status ok = claim ? claim->commit(log.text) : Status(claim.error());
    if (!ok) {
      fail(ok.error());
      return 3;
    }
  }
  std::error_code ec;
  std::printf("report: %s\n", std::filesystem::absolute(out, ec).c_str());
  return result.exit_code();
}

int run_self_judging_step(PlanRequest request, const std::string& profile_reason, bool quiet) {
  install_signal_handlers();  // an interrupt during the plan ends the run before its first step
  auto planned = build_plan(std::move(request));
  if (!planned) return fail(planned.error());
  planned->plan.options.measurement_only = false;
  for (auto& d : planned->plan.devices) d.profile_reason = profile_reason;
  return run_planned(*planned, quiet, "");
}

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
  run->add_option("--logs", o->logs_dir,
                  "Write fio's bw, iops and lat/clat/slat logs of every workload into this directory (DEVICE_TEST_N-RW-BS_bw.1.log, ...)");
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
