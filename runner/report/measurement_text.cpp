// Text rendering for `diskvet io`, in the spirit of fio's summary and DiskSpd's nines table.
#include "runner/report/measurement_text.hpp"

#include <fmt/format.h>

#include "common/units.hpp"
#include "runner/report/measurement_json.hpp"

namespace diskvet::runner {

std::string render_text(const Measurement& m, const std::string& filename) {
  const Workload& w = m.workload;
  std::string out;
  out += fmt::format("{}: rw={} bs={} iodepth={} numjobs={} engine={} window={:.1f}s{}\n", filename, to_string(w.rw),
                     format_bytes(w.bs_bytes), w.iodepth, w.numjobs, to_string(w.engine), m.elapsed_s,
                     m.interrupted ? "  ** INTERRUPTED: partial results **" : "");
  if (w.rate_capped()) out += fmt::format("  rate_iops={} per job (reads,writes)\n", format_rate_iops(w.rate_iops));
  out += fmt::format("  randseed={} (--randseed repeats these offsets and data){}\n", w.seed,
                     is_random(w.rw) && !w.random_map ? ", norandommap" : "");
  if (writes(w.rw))
    out += fmt::format("  write data: {}\n", w.verify ? "verification blocks, unique per block and generation" : describe(w.data));
  for (auto d : {Direction::read, Direction::write}) {
    const DirectionResult& r = m.of(d);
    if (r.ios == 0) continue;
    const LatencyHistogram& h = r.lat;
    out += fmt::format("  {:<5}: IOPS={} (stddev {} over {} intervals), BW={}/s, {} in {} I/Os\n", to_string(d),
                       format_count(m.iops(d)), format_count(m.iops_stddev(d)), m.intervals.iops_stats(d).count,
                       format_bytes(static_cast<uint64_t>(m.bw_bytes_per_s(d))), format_bytes(r.bytes), r.ios);
    out += fmt::format("    lat (total): min={} mean={} max={} stddev={}\n", format_ns(static_cast<double>(h.min_ns())),
                       format_ns(h.mean_ns()), format_ns(static_cast<double>(h.max_ns())), format_ns(h.stddev_ns()));
  }
  bool any = m.total_ios() > 0;
  if (any) {
    out += "  percentiles (total latency)  ";
    for (auto d : {Direction::read, Direction::write})
      if (m.of(d).ios) out += fmt::format("{:>10}", to_string(d));
    out += "\n";
    for (double p : kReportedPercentiles) {
      if (p < 50) continue;
      out += fmt::format("    {:>10}%{:>17}", fmt::format("{:g}", p), "");
      for (auto d : {Direction::read, Direction::write}) {
        const DirectionResult& r = m.of(d);
        if (!r.ios) continue;
        // A percentile beyond the sample count's resolution is the max; say so rather than invent.
        out += fmt::format("{:>10}", format_ns(static_cast<double>(r.lat.percentile_ns(p))));
      }
      out += "\n";
    }
  }
  double window = m.elapsed_s > 0 ? m.elapsed_s : 1;
  out += fmt::format("  cpu: usr={:.1f}% sys={:.1f}% of one core, {:.0f} ns CPU per I/O, {:.2f} I/Os per syscall\n",
                     100 * m.usr_cpu_s / window, 100 * m.sys_cpu_s / window, m.cpu_ns_per_io(), m.ios_per_syscall());
  if (m.io_errors) {
    out += fmt::format("  ERRORS: {} I/O errors", m.io_errors);
    if (!m.first_errors.empty()) {
      const IoError& e = m.first_errors.front();
      out += fmt::format(", first: {} at offset {}: {}", to_string(e.dir), e.offset_bytes,
                         e.err ? std::string(strerror(e.err)) : fmt::format("short transfer ({} bytes)", e.result));
    }
    out += "\n";
  }
  if (m.stall_count) {
    out += fmt::format("  STALLS: {} I/O{} out longer than the {} s io_timeout{}\n", m.stall_count, m.stall_count == 1 ? "" : "s",
                       m.workload.io_timeout_s, m.abandoned ? "; the run gave up on them (ABANDONED)" : "");
    for (const auto& st : m.stalls)
      out += fmt::format("    {} at offset {} submitted at {:.3f} s, out {:.3f} s{}\n", to_string(st.dir), st.offset_bytes, st.submit_s, st.out_s,
                         st.completed ? "" : " and still out");
  }
  return out;
}

}  // namespace diskvet::runner
