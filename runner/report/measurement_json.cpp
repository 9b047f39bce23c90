// Measurement -> fio-shaped JSON.
#include "runner/report/measurement_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "diskvet/version.hpp"
#include "runner/report/fio_json.hpp"

namespace diskvet::runner {

namespace json = boost::json;

json::object direction_json(const Measurement& m, Direction d) {
  const DirectionResult& r = m.of(d);
  json::object o;
  o["io_bytes"] = r.bytes;
  o["io_kbytes"] = r.bytes / 1024;
  o["bw_bytes"] = static_cast<uint64_t>(std::llround(m.bw_bytes_per_s(d)));
  o["bw"] = static_cast<uint64_t>(std::llround(m.bw_bytes_per_s(d) / 1024));
  o["iops"] = m.iops(d);
  o["runtime"] = static_cast<uint64_t>(std::llround(m.elapsed_s * 1000));
  o["total_ios"] = r.ios;
  o["lat_ns"] = fio_lat_json(r.lat, FioOutputFormat::json);
  // Exact over every full interval of the run, however long (IntervalSeries), not over the kept
  // (possibly merged) plot samples.
  const RunningStats& st = m.intervals.iops_stats(d);
  o["iops_min"] = st.min_or_0();
  o["iops_max"] = st.max_or_0();
  o["iops_mean"] = st.mean;
  o["iops_stddev"] = st.stddev();
  o["iops_samples"] = st.count;
  return o;
}

void tag_invoke(json::value_from_tag, json::value& v, const IntervalSample& s) {
  json::object o;
  o["t_s"] = s.t_s;
  o["dur_s"] = s.dur_s;
  o["lat_p99_ns"] = s.total_lat_p99_ns;
  for (auto d : {Direction::read, Direction::write}) {
    json::object x;
    x["iops"] = s.iops(d);
    x["bw_bytes"] = s.bw_bytes_per_s(d);
    x["lat_mean_ns"] = s.mean_lat_ns(d);
    x["lat_p99_ns"] = s.lat_p99_ns[size_t(d)];
    o[to_string(d)] = std::move(x);
  }
  v = std::move(o);
}

void tag_invoke(json::value_from_tag, json::value& v, const Stall& s) {
  json::object o;
  o["direction"] = to_string(s.dir);
  o["offset"] = s.offset_bytes;
  o["submit_s"] = s.submit_s;
  o["out_s"] = s.out_s;
  o["completed"] = s.completed;
  v = std::move(o);
}

json::object job_json(const Measurement& m, std::string_view jobname, std::string_view filename) {
  const Workload& w = m.workload;
  json::object job;
  job["jobname"] = jobname;
  json::object opts;
  opts["filename"] = filename;
  opts["rw"] = to_string(w.rw);
  opts["bs"] = w.bs_bytes;
  opts["iodepth"] = w.iodepth;
  opts["numjobs"] = w.numjobs;
  opts["ioengine"] = to_string(w.engine);
  if (w.engine == BackendKind::io_uring_cmd) opts["cmd_type"] = "nvme";  // fio's: NVMe commands on the generic node (the filename)
  opts["runtime"] = w.runtime_s;
  opts["ramp_time"] = w.ramp_s;
  opts["offset"] = w.offset_bytes;
  opts["size"] = w.size_bytes;
  if (reads(w.rw) && writes(w.rw)) opts["rwmixread"] = w.rwmixread_pct;
  // fio's form, as fio's own JSON gives its options: "R" or "R,W".
  if (w.rate_capped()) opts["rate_iops"] = format_rate_iops(w.rate_iops);
  if (writes(w.rw)) {
    // What the writes carried: arrays that compress or deduplicate judge by it.
    opts["buffer_compress_percentage"] = w.verify ? 0 : w.data.compress_pct;
    opts["dedupe_percentage"] = w.verify ? 0 : w.data.dedupe_pct;
    opts["write_data"] = w.verify ? "verification blocks, unique per block and generation" : describe(w.data);
  }
  if (w.io_limit_bytes) opts["io_size"] = w.io_limit_bytes;
  if (!w.cpus.empty()) {
    opts["cpus_allowed"] = w.cpus.to_string();
    opts["cpus_allowed_policy"] = to_string(w.cpus_policy);
  }
  if (w.spin_us) opts["spin_us"] = w.spin_us;
  if (w.hipri) opts["hipri"] = true;
  opts["iodepth_batch_submit"] = w.iodepth_batch_submit;
  opts["io_timeout_s"] = w.io_timeout_s;
  opts["io_grace_s"] = w.io_grace_s;
  job["job options"] = std::move(opts);
  job["read"] = direction_json(m, Direction::read);
  job["write"] = direction_json(m, Direction::write);
  double window = m.elapsed_s > 0 ? m.elapsed_s : 1;
  job["usr_cpu"] = 100.0 * m.usr_cpu_s / window;
  job["sys_cpu"] = 100.0 * m.sys_cpu_s / window;
  job["elapsed_s"] = m.elapsed_s;
  job["ios_per_syscall"] = m.ios_per_syscall();
  job["cpu_ns_per_io"] = m.cpu_ns_per_io();
  job["mean_outstanding"] = m.mean_outstanding();
  job["job_cpus"] = json::value_from(m.job_cpus);
  job["error"] = m.io_errors ? 1 : 0;
  job["io_errors"] = m.io_errors;
  json::array errs;
  for (const auto& e : m.first_errors) {
    json::object x;
    x["direction"] = to_string(e.dir);
    x["offset"] = e.offset_bytes;
    x["errno"] = e.err;
    x["result"] = e.result;
    errs.push_back(std::move(x));
  }
  job["first_errors"] = std::move(errs);
  job["stall_count"] = m.stall_count;
  job["stalls"] = json::value_from(m.stalls);
  json::array pauses;
  for (const auto& p : m.pauses) pauses.push_back(json::object{{"at_s", p.at_s}, {"dur_s", p.dur_s}});
  job["pauses"] = std::move(pauses);
  job["abandoned"] = m.abandoned;
  job["interrupted"] = m.interrupted;
  job["interval_s"] = w.interval_s;
  job["intervals"] = json::value_from(m.intervals.samples());
  // Past 65,536 samples the plot series is decimated: each sample then holds this many intervals
  // (iops_min/max/mean/stddev above count every interval regardless).
  job["intervals_merged"] = m.intervals.merge_factor();
  job["intervals_measured"] = m.intervals.pushed();
  return job;
}

}  // namespace diskvet::runner
