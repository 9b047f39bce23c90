// `diskvet io`: one ad-hoc workload with fio's option names and units.
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <boost/json.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "runner/plan/test_file.hpp"
#include "common/units.hpp"
#include "devices/device_json.hpp"
#include "devices/disk_stats.hpp"
#include "devices/file_system.hpp"
#include "devices/write_gate.hpp"
#include "runner/io/engine.hpp"
#include "runner/io/nvme_passthrough.hpp"
#include "runner/io/poll_queues.hpp"
#include "runner/io/seed.hpp"
#include "runner/report/fio_hist_log.hpp"
#include "runner/report/fio_json.hpp"
#include "runner/report/fio_logs.hpp"
#include "runner/report/measurement_text.hpp"
#include "runner/report/report_file.hpp"

namespace diskvet::cli {

namespace {

using namespace diskvet::runner;

struct IoOptions {
  std::string filename;
  std::string rw = "randread";
  std::string bs = "4k";
  uint32_t iodepth = 1;
  uint32_t numjobs = 1;
  std::string runtime = "10s";
  std::string ramp = "0";
  uint32_t rwmixread = 50;
  std::string size;
  std::string offset = "0";
  std::string rate_iops = "0";
  uint32_t compress_pct = 0;
  uint32_t dedupe_pct = 0;
  std::string io_size;
  std::string engine = "io_uring";
  std::string interval;  // default 1s, or --log_avg_msec
  uint32_t log_avg_msec = 0;
  FioLogNames logs;
  std::string hist_log;  // fio's write_hist_log NAME
  uint32_t log_hist_msec = 0;  // default: the interval
  std::string cpus_allowed;
  std::string cpus_policy = "shared";
  std::string spin = "0";
  std::string io_timeout = "30s";
  uint32_t batch_submit = 1;
  std::string randseed;  // empty: a seed of the run's own
  uint32_t randrepeat = 0;
  bool norandommap = false;
  bool hipri = false;
  std::string write_iolog;
  std::vector<std::string> destroy;
  std::string directory;  // a test file of our own there instead of --filename
  bool keep_file = false;
  bool json = false;
  std::string output_format = "normal";
  bool quiet = false;
};

// Live progress on stderr when it is a terminal: one rewritten line per interval.
class ProgressLine final : public EngineObserver {
 public:
  void on_interval(const IntervalSample& s, double progress) override {
    std::string line = fmt::format("\r[{:3.0f}%]", progress * 100);
    for (auto d : {Direction::read, Direction::write})
      if (s.ios[size_t(d)])
        line += fmt::format("  {} {} IOPS {}/s lat {} p99 {}", to_string(d), format_count(s.iops(d)),
                            format_bytes(static_cast<uint64_t>(s.bw_bytes_per_s(d))), format_ns(s.mean_lat_ns(d)),
                            format_ns(static_cast<double>(s.lat_p99_ns[size_t(d)])));
    line += "\033[K";
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
    shown_ = true;
  }
  ~ProgressLine() override {
    if (shown_) std::fputs("\r\033[K", stderr);
  }

 private:
  bool shown_ = false;
};

Result<Workload> to_workload(const IoOptions& o) {
  Workload w;
  auto rw = parse_pattern(o.rw);
  if (!rw) return usage_error("--rw", fmt::format("unknown pattern '{}'", o.rw), "use read, write, randread, randwrite, rw or randrw");
  w.rw = *rw;
  auto engine = parse_backend(o.engine);
  if (!engine) return usage_error("--engine", fmt::format("unknown engine '{}'", o.engine), "use io_uring, io_uring_cmd, psync or null");
  w.engine = *engine;
  auto bs = parse_size(o.bs);
  if (!bs || *bs > UINT32_MAX) return usage_error("--bs", fmt::format("'{}' is not a block size", o.bs), "e.g. 4k, 64k, 1m");
  w.bs_bytes = static_cast<uint32_t>(*bs);
  w.iodepth = o.iodepth;
  w.numjobs = o.numjobs;
  w.rwmixread_pct = o.rwmixread;
  auto runtime = parse_duration_s(o.runtime);
  if (!runtime) return usage_error("--runtime", fmt::format("'{}' is not a duration", o.runtime), "e.g. 10, 30s, 5m");
  w.runtime_s = *runtime;
  auto ramp = parse_duration_s(o.ramp);
  if (!ramp) return usage_error("--ramp-time", fmt::format("'{}' is not a duration", o.ramp), "e.g. 2s");
  w.ramp_s = *ramp;
  // fio's log_avg_msec is the window of its logs: diskvet's logs are its interval series.
  if (o.log_avg_msec && !o.interval.empty())
    return usage_error("--log_avg_msec", "and --interval both set the logs' window", "use one of them");
  const std::string interval_text = o.log_avg_msec ? fmt::format("{}ms", o.log_avg_msec) : o.interval.empty() ? "1s" : o.interval;
  auto interval = parse_duration_s(interval_text);
  if (!interval) return usage_error("--interval", fmt::format("'{}' is not a duration", o.interval), "e.g. 1s, 500ms");
  w.interval_s = *interval;
  if (!o.size.empty()) {
    auto size = parse_size(o.size);
    if (!size || *size == 0) return usage_error("--size", fmt::format("'{}' is not a size", o.size), "e.g. 1g");
    w.size_bytes = *size;
  }
  auto offset = parse_size(o.offset);
  if (!offset) return usage_error("--offset", fmt::format("'{}' is not a size", o.offset), "e.g. 0, 1g");
  w.offset_bytes = *offset;
  if (!o.io_size.empty()) {
    auto io_size = parse_size(o.io_size);
    if (!io_size || *io_size == 0) return usage_error("--io-size", fmt::format("'{}' is not a size", o.io_size), "e.g. 2g");
    w.io_limit_bytes = *io_size;
  }
  auto rate = parse_rate_iops(o.rate_iops);
  if (!rate) return usage_error("--rate-iops", fmt::format("'{}' is not fio's rate_iops", o.rate_iops), "a number (each direction) or READS,WRITES, e.g. 1000 or 800,200");
  w.rate_iops = *rate;
  w.data = DataPattern{o.compress_pct, o.dedupe_pct};
  w.iodepth_batch_submit = o.batch_submit;
  if (!o.cpus_allowed.empty()) {
    auto cpus = CpuSet::parse(o.cpus_allowed);
    if (!cpus) return cpus.error();
    w.cpus = *cpus;
  }
  if (o.cpus_policy == "split") w.cpus_policy = CpuPolicy::split;
  else if (o.cpus_policy != "shared")
    return usage_error("--cpus-allowed-policy", fmt::format("unknown policy '{}'", o.cpus_policy), "use shared or split");
  auto spin = parse_duration_s(o.spin);
  if (!spin || *spin < 0) return usage_error("--spin", fmt::format("'{}' is not a duration", o.spin), "e.g. 0, 20us");
  // Checked before the conversion: 4295s in microseconds wraps a 32-bit counter to 32704us.
  if (*spin > 1) return usage_error("--spin", fmt::format("{} is more than a second", o.spin), "e.g. 50us");
  w.spin_us = static_cast<uint32_t>(std::lround(*spin * 1e6));
  auto io_timeout = parse_duration_s(o.io_timeout);
  if (!io_timeout) return usage_error("--io-timeout", fmt::format("'{}' is not a duration", o.io_timeout), "e.g. 30s");
  w.io_timeout_s = *io_timeout;
  w.io_grace_s = *io_timeout;  // given up on after twice the timeout, as in suites by default
  // Seeded per run (write data and offsets differ from every earlier run) unless the user asks to
  // repeat one: --randseed N, or fio's randrepeat=1 (a fixed seed; fio's default, not ours).
  if (!o.randseed.empty()) {
    auto seed = parse_seed(o.randseed);
    if (!seed) return usage_error("--randseed", fmt::format("'{}' is not a whole number", o.randseed), "e.g. the randseed a report shows (decimal, or hex with 0x)");
    w.seed = *seed;
  } else if (o.randrepeat == 0) {
    w.seed = random_seed();
  }
  w.random_map = !o.norandommap;
  w.hipri = o.hipri;
  return w;
}

// NVMe passthrough (--engine io_uring_cmd): the namespace's block device is what is opened and, for
// writes, judged by the gate with the consent given for it; the generic char device is derived from
// the descriptor held and opened only then. A /dev/ngXnY the user names is mapped back to its block
// device first (by device number, through sysfs), and must be the very node derived from it.
Result<Target> open_passthrough_target(const Workload& w, const IoOptions& o) {
  std::string block_path = o.filename;
  std::optional<DeviceNode> typed_block;
  dev_t typed_char = 0;
  struct stat st{};
  if (::stat(o.filename.c_str(), &st) == 0 && S_ISCHR(st.st_mode)) {
    auto block = block_of_generic_node(st.st_rdev);
    if (!block) {
      Error e = block.error();
      e.subject = o.filename;  // sysfs knows it by number; the user by the name given
      return e;
    }
    typed_block = *block;
    typed_char = st.st_rdev;
    block_path = block->path;
  }
  Result<Target> target = [&]() -> Result<Target> {
    if (!writes(w.rw)) return Target::open(block_path, false);
    auto grant = devices::open_for_write(block_path, devices::Consent{o.destroy});
    if (!grant) return grant.error();
    if (!grant->block_device) return usage_error(o.filename, "is not a block device: NVMe passthrough needs an NVMe namespace", "name /dev/nvmeXnY");
    return Target::adopt(std::move(grant->fd), block_path, true);
  }();
  if (!target) return target.error();
  if (typed_block && target->info().rdev != typed_block->rdev)
    return safety_error(o.filename, fmt::format("stands for {}, but {} is another device now", typed_block->name, block_path), "try again");
  if (auto attached = target->attach_passthrough(); !attached) return attached.error();
  if (typed_char && target->info().passthrough_rdev != typed_char)
    return safety_error(o.filename, fmt::format("is not the generic node of {} ({} is)", block_path, target->info().passthrough_path),
                        "name the namespace's block device");
  return target;
}

// `fs` gets the file system of a --directory test file (for the JSON document).
Result<Target> open_io_target(const Workload& w, const IoOptions& o, OwnedFile& owned, std::optional<devices::FileSystemFacts>& fs) {
  if (!o.directory.empty()) {
    if (!o.filename.empty()) return usage_error("--directory", "and --filename name the target twice", "use one of them");
    if (w.hipri)
      return usage_error("--hipri", "a --directory test file is not a block device whose queue can poll", "use --filename DEVICE");
    if (w.engine == BackendKind::null) return usage_error("--directory", "the null engine opens no file", "drop --directory or --engine null");
    if (w.engine == BackendKind::io_uring_cmd)
      return usage_error("--directory", "NVMe passthrough sends commands to a namespace, not to a file", "use --filename /dev/nvmeXnY");
    uint64_t want = w.offset_bytes + (w.size_bytes ? w.size_bytes : uint64_t{1} << 30);
    auto t = create_test_file(o.directory, "io", want, /*keep=*/false, owned);  // kept (--keep-file) once validated
    if (!t) return t.error();
    if (!o.json && !o.quiet) {
      std::fprintf(stderr, "diskvet: test file %s (%s, %s): %s\n", owned.path().c_str(), format_bytes(want).c_str(),
                   o.keep_file ? "kept afterwards" : "removed afterwards", devices::describe(t->file_system).c_str());
    }
    fs = t->file_system;
    return std::move(t->target);
  }
  if (w.engine == BackendKind::null) {
    uint64_t size = w.size_bytes ? w.offset_bytes + w.size_bytes : uint64_t{1} << 40;
    return Target::null(size);
  }
  if (o.filename.empty()) return usage_error("--filename", "no target given", "name a file or block device, e.g. --filename /dev/nvme0n1");
  if (w.engine == BackendKind::io_uring_cmd) return open_passthrough_target(w, o);
  uint64_t want = w.size_bytes ? w.offset_bytes + w.size_bytes : 0;
  if (!writes(w.rw)) return Target::open(o.filename, false, want);  // reads need no consent
  // The one gate for every write: a disk, a file this run creates, or an existing file --destroy-data names.
  auto grant = devices::open_for_write(o.filename, devices::Consent{o.destroy}, want);
  if (!grant) return grant.error();
  if (grant->created) {
    // Ours until the workload is validated against it: removed if anything refuses the run.
    struct stat st{};
    if (::fstat(grant->fd.get(), &st) != 0) return system_error(o.filename, "cannot fstat the file just created", errno);
    owned.own(o.filename, st.st_dev, st.st_ino, false);
    return Target::lay_out(std::move(grant->fd), o.filename, want, true);
  }
  return Target::adopt(std::move(grant->fd), o.filename, true);
}

// Every check that needs no target, before anything is created or opened: the workload against a
// target as large as the one it will get (or any size) with the smallest logical block size.
Status precheck(const Workload& w, const IoOptions& o) {
  uint64_t size = uint64_t{1} << 62;  // an existing target: its size is checked once it is open
  if (w.size_bytes) size = w.offset_bytes + w.size_bytes;
  else if (!o.directory.empty()) size = w.offset_bytes + (uint64_t{1} << 30);
  else if (w.engine == BackendKind::null) size = uint64_t{1} << 40;
  auto valid = validate(w, size, 512);
  if (!valid) return valid.error();
  return ok_status();
}

// fio's --output-format: normal (text), json, json+ (json with the latency bins).
Result<std::optional<FioOutputFormat>> output_format(const IoOptions& o) {
  if (o.output_format == "json+") return std::optional(FioOutputFormat::json_plus);
  if (o.output_format == "json" || o.json) return std::optional(FioOutputFormat::json);
  if (o.output_format == "normal") return std::optional<FioOutputFormat>();
  return usage_error("--output-format", fmt::format("unknown format '{}'", o.output_format), "use normal, json or json+");
}

// Every log file asked for, claimed (created and held) before the target is opened, like the iolog.
Result<std::vector<std::pair<FioLogKind, ClaimedOutput>>> claim_logs(const FioLogNames& names) {
  std::vector<std::pair<FioLogKind, ClaimedOutput>> claimed;
  for (const FioLogFile& f : fio_log_files(names)) {
    auto claim = claim_output(f.path, f.option);
    if (!claim) return claim.error();
    claimed.emplace_back(f.kind, std::move(*claim));
  }
  return claimed;
}

// Every file `diskvet io` writes besides stdout, claimed (its temporary file created and held)
// before the target is opened: the iolog, fio's logs, the histogram log with its window.
struct IoOutputs {
  std::optional<ClaimedOutput> iolog;
  std::vector<std::pair<FioLogKind, ClaimedOutput>> logs;
  std::optional<ClaimedOutput> hist;
  double hist_window_s = 0;
};

Result<IoOutputs> claim_io_outputs(const IoOptions& o, const Workload& w) {
  IoOutputs out;
  if (!o.write_iolog.empty()) {
    auto claim = claim_output(o.write_iolog, "--write-iolog");
    if (!claim) return claim.error();
    out.iolog.emplace(std::move(*claim));
  }
  auto logs = claim_logs(o.logs);
  if (!logs) return logs.error();
  out.logs = std::move(*logs);
  out.hist_window_s = o.log_hist_msec ? o.log_hist_msec / 1000.0 : w.interval_s;
  if (out.hist_window_s < w.interval_s - 1e-9)
    return usage_error("--log_hist_msec", fmt::format("{} ms is shorter than the interval ({} ms)", o.log_hist_msec, w.interval_s * 1000),
                       "a histogram window is whole intervals: set --log_avg_msec as short, or a longer --log_hist_msec");
  if (!o.hist_log.empty()) {
    auto claim = claim_output(fio_hist_log_path(o.hist_log), "--write_hist_log");
    if (!claim) return claim.error();
    out.hist.emplace(std::move(*claim));
  }
  return out;
}

// After the run: the iolog, the histogram log's last window and fio's logs, each committed.
Status commit_io_outputs(IoOutputs& out, const IoLog& iolog, std::optional<FioHistLog>& hist, const Measurement& m, const std::string& name) {
  if (out.iolog) {
    if (auto ok = out.iolog->commit(render_iolog(iolog, name)); !ok) return ok.error();
    for (const auto& j : iolog.jobs)
      if (j.dropped()) std::fprintf(stderr, "diskvet: note: the iolog holds each job's first %zu I/Os only\n", kMaxIoLogRecords);
  }
  if (hist)
    if (auto ok = hist->finish(); !ok) return ok.error();
  for (auto& [kind, claimed] : out.logs)
    if (auto ok = claimed.commit(render_fio_log(m, kind)); !ok) return ok.error();
  return ok_status();
}

int run_io(IoOptions o) {
  auto format = output_format(o);
  if (!format) return fail(format.error());
  o.json = format->has_value();
  auto w = to_workload(o);
  if (!w) return fail(w.error());
  if (auto ok = precheck(*w, o); !ok) return fail(ok.error());
  auto outputs = claim_io_outputs(o, *w);
  if (!outputs) return fail(outputs.error());
  // A file created here (--filename NEW, --directory) is removed when this returns until the
  // workload is validated against it; then --filename's stays (as fio's does), --directory's unless --keep-file.
  OwnedFile owned;
  std::optional<devices::FileSystemFacts> file_system;
  auto target = open_io_target(*w, o, owned, file_system);
  if (!target) return fail(target.error());
  auto valid = validate(*w, target->info().size_bytes, target->info().logical_block_size);
  if (!valid) return fail(valid.error());
  // Refused here too (the engine checks again), so that a file this run created is not kept.
  if (valid->hipri)
    if (auto polls = check_poll_queues(target->info()); !polls) return fail(polls.error());
  owned.keep(o.directory.empty() || o.keep_file);
  if (valid->engine == BackendKind::psync && valid->iodepth > 1 && !o.json && !o.quiet)
    std::fprintf(stderr, "diskvet: note: psync is synchronous; each job runs at queue depth 1\n");

  install_signal_handlers();
  std::unique_ptr<ProgressLine> progress;
  if (!o.json && !o.quiet && isatty(STDERR_FILENO)) progress = std::make_unique<ProgressLine>();
  RunControl control{&interrupt_flag(), progress.get()};
  IoLog iolog;
  if (outputs->iolog) control.iolog = &iolog;
  std::optional<FioHistLog> hist;
  if (outputs->hist) control.latency_observer = &hist.emplace(*outputs->hist, outputs->hist_window_s, *valid);
  // fio's disk_util: the kernel's counters of a block device around the run.
  const auto disk_before = target->info().block_device ? devices::read_disk_stats(target->info().rdev) : std::nullopt;
  const auto started = std::chrono::steady_clock::now();
  auto m = run_workload(*valid, *target, control);
  std::optional<FioDiskUtil> disk;
  if (auto after = disk_before ? devices::read_disk_stats(target->info().rdev) : std::nullopt)
    disk = FioDiskUtil{after->since(*disk_before), std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count()};
  progress.reset();
  if (!m) return fail(m.error());
  // fio's filename: the generic char device for passthrough, as fio's io_uring_cmd takes it.
  const std::string& name = target->info().passthrough_path.empty() ? target->info().path : target->info().passthrough_path;
  if (auto ok = commit_io_outputs(*outputs, iolog, hist, *m, name); !ok) return fail(ok.error());
  if (o.json) {
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    boost::json::object io = fio_io_document(*m, name, **format, std::chrono::duration_cast<std::chrono::milliseconds>(now).count(), disk);
    if (file_system) io["file_system"] = boost::json::value_from(*file_system);  // the volume of a --directory file, as run's report has it
    std::string doc = boost::json::serialize(io);
    std::printf("%s\n", doc.c_str());
  } else {
    std::fputs(render_text(*m, name).c_str(), stdout);
  }
  if (m->io_errors) return 3;
  if (m->interrupted || m->abandoned) return 3;
  return 0;
}

// What to run and on what: the target, the pattern, sizes, depth, jobs, times, mix, rates and the data written.
void add_workload_options(CLI::App* io, IoOptions& o) {
  io->add_option("--filename,-f", o.filename, "File or block device (a missing file is created with --size)");
  io->add_option("--rw", o.rw, "read | write | randread | randwrite | rw | randrw")->capture_default_str();
  io->add_option("--bs", o.bs, "Block size (multiple of the logical block size)")->capture_default_str();
  io->add_option("--iodepth", o.iodepth, "I/Os in flight per job")->capture_default_str();
  io->add_option("--iodepth-batch-submit,--iodepth_batch_submit,--iodepth_batch", o.batch_submit,
                 "Submit every N staged I/Os (fio's iodepth_batch_submit; 1 feeds the device soonest, 0 submits with each wait)")
      ->capture_default_str();
  io->add_option("--numjobs", o.numjobs, "Jobs (threads), each with its own ring and descriptor")->capture_default_str();
  io->add_option("--runtime", o.runtime, "Measured time after the ramp (10s, 2m, 1h)")->capture_default_str();
  io->add_option("--ramp-time,--ramp_time", o.ramp, "Run this long before measuring")->capture_default_str();
  io->add_option("--rwmixread", o.rwmixread, "Percentage of reads for rw/randrw")->capture_default_str();
  io->add_option("--size", o.size, "Length of the region (default: to the end of the target)");
  io->add_option("--offset", o.offset, "Start of the region")->capture_default_str();
  io->add_option("--rate-iops,--rate_iops", o.rate_iops,
                 "Cap per job and direction, fio's R[,W]: 1000 caps reads and writes at 1000 IOPS each, 800,200 reads at 800 and "
                 "writes at 200, ,200 writes only (0: none)")
      ->capture_default_str();
  io->add_option("--buffer-compress-percentage,--buffer_compress_percentage", o.compress_pct,
                 "Write data that compresses by this much (that share of every 512 bytes is zeros); default 0: incompressible")
      ->capture_default_str();
  io->add_option("--dedupe-percentage,--dedupe_percentage", o.dedupe_pct,
                 "This share of writes repeats an earlier write's data; default 0: every write unique")
      ->capture_default_str();
  io->add_option("--io-size,--io_size", o.io_size, "Stop after this many bytes in total (default: time-based)");
  io->add_option("--randseed", o.randseed, "Seed of offsets and write data: repeats the run that printed it (default: a new one per run)");
  io->add_option("--randrepeat", o.randrepeat,
                 "1: a fixed seed, every run the same data and offsets (fio's default); 0: a new seed per run")
      ->capture_default_str()
      ->check(CLI::Range(0, 1));
  io->add_flag("--norandommap", o.norandommap,
               "Random offsets drawn independently (fio's norandommap); default: every block once per pass");
}

// How to run it: the engine, CPUs, polling, the stall limit and the iolog.
void add_engine_options(CLI::App* io, IoOptions& o) {
  io->add_option("--engine,--ioengine", o.engine,
                 "io_uring | io_uring_cmd | psync | null (io_uring_cmd: NVMe passthrough on the namespace's /dev/ngXnY, found from "
                 "/dev/nvmeXnY; writes need the block device's consent)")
      ->capture_default_str();
  io->add_option("--interval", o.interval, "Interval series resolution (default 1s)");
  io->add_option("--cpus-allowed,--cpus_allowed", o.cpus_allowed, "CPUs the job threads may run on, e.g. 0-3,6 (default: any)");
  io->add_option("--cpus-allowed-policy,--cpus_allowed_policy", o.cpus_policy,
                 "shared: every job on any of those CPUs; split: job i pinned to the i-th")
      ->capture_default_str();
  io->add_option("--spin", o.spin, "io_uring: poll completions this long before sleeping (e.g. 20us; 0: sleep at once)")
      ->capture_default_str();
  io->add_flag("--hipri", o.hipri,
               "io_uring, io_uring_cmd: poll the device's queue for completions (fio's hipri; needs a driver with poll queues, e.g. "
               "nvme.poll_queues=2, which the appliance image sets per CPU, and for io_uring_cmd Linux 6.1 or later)");
  io->add_option("--io-timeout,--io_timeout", o.io_timeout,
                 "An I/O out longer is a stall (reported); one out twice as long is given up on and the run ends (exit 3)")
      ->capture_default_str();
  io->add_option("--write-iolog,--write_iolog", o.write_iolog,
                 "Write every I/O issued to this file in fio's iolog v3 format, one section per job (for checking; "
                 "costs 16 bytes of memory per I/O)");
}

// A test file of diskvet's own instead of a target, and the consent to write.
void add_target_options(CLI::App* io, IoOptions& o) {
  io->add_option("--directory", o.directory,
                 "Create a test file of diskvet's own in this directory (--offset + --size, default 1g), fill it, remove it afterwards");
  io->add_flag("--keep-file", o.keep_file, "Keep the --directory test file afterwards");
  io->add_option("--destroy-data", o.destroy, "Consent to overwrite: serial, WWN, /dev path or all-unprotected");
}

// What it prints and writes: fio's JSON and json+, its bw, IOPS, latency and histogram logs.
void add_output_options(CLI::App* io, IoOptions& o) {
  io->add_flag("--json", o.json, "fio-compatible JSON on stdout (--output-format json)");
  io->add_option("--output-format,--output_format", o.output_format,
                 "normal | json | json+ (fio's: json with the latency bins of lat_ns and clat_ns in fio's layout)")
      ->capture_default_str();
  io->add_option("--write_bw_log,--write-bw-log", o.logs.bw, "fio's bandwidth log: NAME_bw.1.log (KiB/s per window)");
  io->add_option("--write_iops_log,--write-iops-log", o.logs.iops, "fio's IOPS log: NAME_iops.1.log");
  io->add_option("--write_lat_log,--write-lat-log", o.logs.lat,
                 "fio's latency logs: NAME_lat.1.log, NAME_clat.1.log (mean ns per window), NAME_slat.1.log (empty: not measured)");
  io->add_option("--log_avg_msec,--log-avg-msec", o.log_avg_msec,
                 "Window of the logs and of the interval series in ms (default: --interval, 1s; diskvet never logs every I/O)");
  io->add_option("--write_hist_log,--write-hist-log", o.hist_log,
                 "fio's latency histogram log: NAME_clat_hist.1.log (each window's counts in fio's 1856 bins)");
  io->add_option("--log_hist_msec,--log-hist-msec", o.log_hist_msec, "Window of the histogram log in ms (default: the interval)");
  io->add_flag("--quiet,-q", o.quiet, "No progress line");
}

}  // namespace

Action register_io(CLI::App& app) {
  auto o = std::make_shared<IoOptions>();
  CLI::App* io = app.add_subcommand("io", "Run one workload on a file or block device (fio's option names and units)");
  io->footer(
      "Examples:\n"
      "  diskvet io --filename /dev/nvme0n1 --rw randread --bs 4k --iodepth 32 --runtime 30s\n"
      "  diskvet io --filename scratch.img --size 1g --rw randrw --rwmixread 70 --bs 8k --iodepth 16 --json\n"
      "  diskvet io --engine null --rw randread --iodepth 32      (the tool's own cost per I/O)\n"
      "  diskvet io --directory /mnt/share --size 4g --rw randread --iodepth 32   (a test file of its own on a volume)\n"
      "Latency is total latency: from just before submission to the reaped completion (fio's 'lat').\n"
      "Every write carries data no other write carries (fio's refill_buffers), so a device that compresses or\n"
      "deduplicates cannot flatter the numbers; --buffer-compress-percentage and --dedupe-percentage ask for less.\n"
      "Writing to a block device destroys its data and needs --destroy-data naming it (serial, WWN, /dev\n"
      "path, or all-unprotected). A device with a partition table or a filesystem/RAID/LVM signature is\n"
      "written only when --destroy-data names its serial or WWN. Mounted, held (LVM/MD/dm), swap, root,\n"
      "boot-medium, read-only and busy devices are refused whatever the consent. See 'diskvet list'.\n"
      "A missing file is created (never through a symlink); writing an existing file destroys its data and\n"
      "needs --destroy-data naming that file (all-unprotected does not cover files).");
  add_workload_options(io, *o);
  add_engine_options(io, *o);
  add_target_options(io, *o);
  add_output_options(io, *o);
  return [o] { return run_io(*o); };
}

}  // namespace diskvet::cli
