// Per-host fio job files.
#include "runner/hosts/fio_job.hpp"

#include <fmt/format.h>

#include <cmath>

namespace diskvet::runner {

std::string fio_engine(BackendKind b) {
  switch (b) {
    case BackendKind::io_uring: return "io_uring";
    case BackendKind::psync: return "psync";
    case BackendKind::null: return "null";
    case BackendKind::io_uring_cmd: return "io_uring_cmd";  // never from a suite: the suite loader refuses it
  }
  return "null";
}

namespace {

std::string percentile_list(const std::vector<double>& p) {
  std::string out;
  for (double v : p) out += fmt::format("{}{}", out.empty() ? "" : ":", v);
  return out;
}

}  // namespace

Result<std::string> fio_job_file(const FioJobSpec& spec) {
  const Workload& w = spec.workload;
  if (w.verify) return input_error("fio job", "a verifying (burn-in) workload cannot run on fio's engine", "run burn-in suites on each host with diskvet run");
  if (spec.filenames.empty() && w.engine != BackendKind::null)
    return input_error("fio job", "has no device to run on", "name the host's devices in the inventory");
  if (spec.percentiles.empty()) return input_error("fio job", "has no latency percentiles", "list at least one");
  std::string f = "[global]\n";
  f += fmt::format("ioengine={}\n", fio_engine(w.engine));
  if (w.engine != BackendKind::null) f += "direct=1\n";
  f += fmt::format("rw={}\nbs={}\niodepth={}\nnumjobs={}\n", to_string(w.rw), w.bs_bytes, w.iodepth, w.numjobs);
  if (reads(w.rw) && writes(w.rw)) f += fmt::format("rwmixread={}\n", w.rwmixread_pct);
  if (w.offset_bytes) f += fmt::format("offset={}\n", w.offset_bytes);
  if (w.size_bytes) f += fmt::format("size={}\n", w.size_bytes);
  else if (w.engine == BackendKind::null) f += "size=1g\n";
  if (w.rate_capped()) f += fmt::format("rate_iops={}\n", format_rate_iops(w.rate_iops));
  if (writes(w.rw)) {
    if (w.data.compress_pct) f += fmt::format("buffer_compress_percentage={}\n", w.data.compress_pct);
    if (w.data.dedupe_pct) f += fmt::format("dedupe_percentage={}\n", w.data.dedupe_pct);
    if (w.data.compress_pct < 100) f += "refill_buffers=1\n";
  }
  if (w.iodepth_batch_submit != 1) f += fmt::format("iodepth_batch_submit={}\n", w.iodepth_batch_submit ? w.iodepth_batch_submit : w.iodepth);
  if (w.io_limit_bytes) {
    f += fmt::format("io_size={}\n", std::max<uint64_t>(w.bs_bytes, w.io_limit_bytes / w.numjobs));
    if (spec.time_cap_s > 0) f += fmt::format("runtime={}\n", fio_time(spec.time_cap_s));
  }
  else f += fmt::format("time_based=1\nruntime={}\n", fio_time(w.runtime_s));
  if (w.ramp_s > 0) f += fmt::format("ramp_time={}\n", fio_time(w.ramp_s));
  if (spec.startdelay_s > 0) f += fmt::format("startdelay={}\n", fio_time(spec.startdelay_s));
  // Total latency (submission to completion, fio's lat) with json+ bins: the merge sums the bins.
  f += fmt::format("lat_percentiles=1\nclat_percentiles=0\npercentile_list={}\n", percentile_list(spec.percentiles));
  f += "group_reporting=1\nrandrepeat=0\n";
  if (!spec.iops_log.empty())
    f += fmt::format("write_iops_log={}\nlog_avg_msec={}\nlog_unix_epoch=1\n", spec.iops_log,
                     static_cast<uint64_t>(std::llround(spec.log_interval_s * 1000)));
  if (spec.filenames.empty()) {
    f += "\n[job]\n";
  } else {
    for (size_t i = 0; i < spec.filenames.size(); ++i) {
      // fio splits filename= at ':' (several files per job); a ':' of the path is escaped.
      std::string name;
      for (char c : spec.filenames[i]) name += c == ':' ? std::string("\\:") : std::string(1, c);
      f += fmt::format("\n[dev{}]\nfilename={}\n", i, name);
    }
  }
  return f;
}

}  // namespace diskvet::runner
