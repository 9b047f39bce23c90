// Report view -> text tables.
#include "runner/report/report_text.hpp"

#include <fmt/format.h>

#include <cmath>

#include "common/units.hpp"
#include "runner/report/health_evidence.hpp"
#include "runner/report/human_format.hpp"
#include "runner/report/report_matrix.hpp"

namespace diskvet::runner {

namespace {

std::string fmt_value(const std::optional<double>& v) {
  if (!v) return "-";
  const double x = *v;
  if (std::fabs(x) >= 1e4) return format_count(x);
  if (std::fabs(x) >= 100) return fmt::format("{:.0f}", x);
  return fmt::format("{:.3g}", x);
}

std::string workload_label(const WorkloadView& w) {
  std::string s = fmt::format("{} {} QD{}x{}", w.rw, format_bytes(w.bs.value_or(0)), w.iodepth.value_or(0), w.numjobs.value_or(0));
  if (w.rwmixread) s += fmt::format(" {}%r", *w.rwmixread);
  // The engine where it is not the block path's io_uring: the fast path's rows say how they ran.
  if (w.engine == "io_uring_cmd") s += " cmd";
  if (w.hipri) s += " poll";
  return s;
}

void measured_table(std::string& out, const DeviceView& dev) {
  static const ResultView kNotRun;
  out += fmt::format("  {:<20} {:<26} {:>9} {:>9} {:>9} {:>9} {:>9}\n", "test", "workload", "IOPS", "MB/s", "mean", "p99", "p99.99");
  for (const auto& t : dev.tests)
    for (const auto* part : {&t.workloads, &t.block_path})
      for (const auto& w : *part) {
        if (t.matrix) break;  // its own table follows (every cell's latency is in the JSON)
        const ResultView& res = w.result ? *w.result : kNotRun;
        const std::string test = part == &t.block_path ? t.id + " (block)" : t.id;
        std::string label = workload_label(w);
        if (!w.ran) {
          out += fmt::format("  {:<20} {:<26} not run: {}\n", test, label, w.error);
          continue;
        }
        for (const char* dir : {"read", "write"}) {
          const DirectionView& d = res.direction(dir);
          if (d.total_ios.value_or(0) == 0) continue;
          out += fmt::format("  {:<20} {:<26} {:>9} {:>9.1f} {:>9} {:>9} {:>9}\n", test, label + " " + std::string(dir).substr(0, 1),
                             format_count(d.iops.value_or(0)), d.bw_bytes.value_or(0) / 1e6, format_ns(d.lat_mean_ns.value_or(0)),
                             format_ns(d.lat_p99_ns.value_or(0)), format_ns(d.lat_p9999_ns.value_or(0)));
        }
      }
}

// Steady state of one workload: attained or not, and the SNIA PTS measurement window the result is.
void steady_line(std::string& out, const std::string& test, const std::string& label, const SteadyStateView& ss) {
  out += fmt::format("  steady state: {} {}: {} after {} round(s){}\n", test, label, ss.attained ? "attained" : "NOT attained", ss.rounds_used.value_or(0),
                     ss.workload.empty() ? "" : " of " + ss.workload + ", then the sweep");
  if (const auto& mw = ss.measurement_window; mw && mw->first_round)
    out += fmt::format("    measured: rounds {:.0f}-{:.0f} averaged, {} (range {:.1f}%, slope {:.1f}% of the average; at most {:.0f}% and {:.0f}%)\n",
                       *mw->first_round, mw->last_round.value_or(0), fmt_value(mw->average), mw->range_pct.value_or(0), mw->slope_pct.value_or(0),
                       ss.max_excursion_pct.value_or(0), ss.max_slope_pct.value_or(0));
}

// Burn-in: how far each test got, verification, slowdowns, latency outliers, CPU.
void burnin_lines(std::string& out, const DeviceView& dev) {
  static const VerifyView kNotVerified;
  const VerifyView& v = dev.verify ? *dev.verify : kNotVerified;
  for (const auto& p : dev.progress) out += fmt::format("  progress: {}\n", p);
  // Only runs that verified say so: a plain suite run has nothing to report here.
  if (v.blocks_written.value_or(0) + v.blocks_verified.value_or(0) + v.mismatches.value_or(0) > 0)
    out += fmt::format("  verification: {} blocks written, {} verified, {} bad blocks found by {} reads (crc32c: {})\n", v.blocks_written.value_or(0),
                       v.blocks_verified.value_or(0), v.bad_blocks.value_or(0), v.mismatches.value_or(0), v.crc32c);
  if (v.state && v.state->memory_bytes.value_or(0) > 0)
    out += fmt::format("  verification state: {} of a {} budget, {}\n", format_bytes(*v.state->memory_bytes), format_bytes(v.state->budget_bytes.value_or(0)),
                       v.state->guarantee);
  // Written only when the table filled up (as false); the line has always followed the key alone.
  if (v.bad_blocks_exact.has_value()) out += "  bad blocks: the table of distinct bad blocks filled up; a block may be counted twice\n";
  for (const auto& m : v.first_mismatches)
    out += fmt::format("    MISMATCH at LBA {} ({}, {:.1f} s): {}\n", m.lba.value_or(0), m.kind, m.t_s.value_or(0), m.detail);
  if (v.latency_outliers_count.value_or(0) > 0) {
    out += fmt::format("  latency outliers: {} I/Os slower than {} ms\n", *v.latency_outliers_count, v.latency_outliers_limit_ms.value_or(0));
    for (const auto& x : v.latency_outliers)
      out += fmt::format("    {} at LBA {} took {:.0f} ms at {:.1f} s\n", x.dir, x.lba.value_or(0), x.lat_ms.value_or(0), x.t_s.value_or(0));
  }
  for (const auto& e : dev.slowdowns)
    out += fmt::format("  SLOWDOWN in {}: {:.0f}% below the median for {:.0f} s from {:.0f} s: {} ({})\n", e.test, e.max_drop_pct.value_or(0),
                       e.duration_s.value_or(0), e.start_s.value_or(0), e.cause, e.evidence);
}

// The job threads' CPU beside the host's: the kernel's system and interrupt time is the tool's cost too.
// Printed for every device, with zeros where the host was not sampled (as it always has been).
void cpu_lines(std::string& out, const DeviceView& dev) {
  const HostCpuView h = dev.cpu.host.value_or(HostCpuView{});
  out += fmt::format("  cpu: job threads {:.2f} s; host over the tests ({}): {:.1f}% busy = user {:.1f}% + system {:.1f}% + irq {:.1f}% + softirq {:.1f}%"
                     " (system {:.2f} s, irq {:.2f} s, softirq {:.2f} s)\n",
                     dev.cpu.job_cpu_s.value_or(0), format_duration(h.window_s.value_or(0)), h.busy_pct.value_or(0), h.user_pct.value_or(0),
                     h.system_pct.value_or(0), h.irq_pct.value_or(0), h.softirq_pct.value_or(0), h.system_s.value_or(0), h.irq_s.value_or(0),
                     h.softirq_s.value_or(0));
  out += "       CPU per I/O counts only the job threads; the host's system and interrupt time holds the kernel's share\n";
}

// Stalled I/Os and the kernel's lines about the device.
void watchdog_lines(std::string& out, const DeviceView& dev) {
  const WatchdogView& w = dev.watchdog;
  if (w.stall_count.value_or(0) > 0)
    out += fmt::format("  STALLS: {} I/O(s) out longer than io_timeout {} s{}\n", *w.stall_count, w.io_timeout_s.value_or(0),
                       w.abandoned ? "; the run gave up on the device (ABANDONED)" : "");
  for (const auto& s : w.stalls)
    out += fmt::format("    {} at LBA {} in {}: out {:.2f} s{} from {:.2f} s\n", s.direction, s.lba.value_or(0), s.test, s.out_s.value_or(0),
                       s.completed ? "" : " and never completed", s.submit_s.value_or(0));
  const KernelLogView& k = dev.kernel_log;
  if (!k.note.empty()) out += "  kernel log: " + k.note + "\n";
  for (const auto& l : k.lines) out += fmt::format("  kernel [{:>10.6f}] {}: {}\n", l.kernel_s.value_or(0), l.kind, l.text);
  if (k.dropped.value_or(0) > 0) out += fmt::format("  kernel: {} more lines not kept\n", *k.dropped);
}

std::string health_word(const std::optional<HealthReading>& h) {
  if (!h || !h->known) return "unknown";
  return h->problems.empty() ? "healthy" : "UNHEALTHY";
}

// What the run found on the device before its tables: identity, profile, health and its evidence,
// purge, preconditioning, probes, and per workload its notes, steady state, burst and knee.
void device_findings(std::string& out, const DeviceView& dev) {
  std::string ident = dev.model;
  if (!dev.serial.empty()) ident += " s/n " + dev.serial;
  out += fmt::format("\n{} ({}{}{}), tested {} of {}\n", dev.path, ident.empty() ? "unknown model" : ident, dev.kind.empty() ? "" : ", ", dev.kind,
                     format_bytes(dev.tested_bytes.value_or(0)), format_bytes(dev.size_bytes.value_or(0)));
  if (const auto& fs = dev.file_system) {
    out += fmt::format("  file system: {} {} at {} ({}){}\n", fs->fstype, fs->source, fs->mountpoint, fs->mount_options,
                       fs->direct_io ? ", O_DIRECT" : ", O_DIRECT REFUSED: buffered I/O, page cache included");
    if (const auto& nfs = fs->nfs)
      out += fmt::format("  NFS: server {}, vers {}, rsize {}, wsize {}\n", nfs->server, nfs->version, format_bytes(nfs->rsize_bytes.value_or(0)),
                         format_bytes(nfs->wsize_bytes.value_or(0)));
  }
  out += fmt::format("  profile: {} - {}\n", dev.profile.name.empty() ? "none" : dev.profile.name, dev.profile.reason);
  if (!dev.fast_path_summary.empty()) out += "  fast path: " + dev.fast_path_summary + "\n";
  const HealthView& health = dev.health;
  out += fmt::format("  health: before {}, after {}{}\n", health_word(health.before), health_word(health.after),
                     health.before && health.before->known ? "" : " (no health source for this device: never reported as healthy)");
  for (const auto& p : health.delta_problems) out += fmt::format("  health during the run: {}\n", p);
  if (const auto& c = dev.capacity_probe; c && c->performed)
    out += fmt::format("  capacity probe: {} - real capacity {} of {} claimed - {}\n", c->verdict, format_bytes(c->real_bytes.value_or(0)),
                       format_bytes(c->claimed_bytes.value_or(0)), c->summary);
  if (const auto& wa = health.write_accounting; wa && !wa->words.empty()) {
    out += fmt::format("  writes counted: {}{}\n", wa->fails ? "DISAGREE: " : "", wa->words);
    if (!wa->other_writer.empty()) out += fmt::format("  another writer: {}\n", wa->other_writer);
  }
  for (const auto& [label, line] : error_log_lines(health.error_log)) out += fmt::format("  {}: {}\n", label, line);
  for (const auto& [label, line] : smart_counter_lines(health.smart_counters)) out += fmt::format("  {}: {}\n", label, line);
  for (const auto& [label, line] : smart_log_lines(health.sata_sas_logs)) out += fmt::format("  {}: {}\n", label, line);
  for (const auto& [label, line] : write_amplification_lines(health.write_amplification)) out += fmt::format("  {}: {}\n", label, line);
  for (const auto& [label, line] : self_test_lines(dev.self_test)) out += fmt::format("  {}: {}\n", label, line);
  for (const auto& [label, line] : across_self_test_lines(health.across_self_test)) out += fmt::format("  {}: {}\n", label, line);
  const PurgeView& purge = dev.purge;
  if (purge.requested) {
    const double took_s = purge.duration_s.value_or(0);
    out += fmt::format("  purge: {}{}{} - {}\n", purge.method, purge.failed ? " FAILED" : "",
                       took_s <= 0 ? "" : " in " + (took_s < 10 ? fmt::format("{:.2f}s", took_s) : format_duration(took_s)), purge.detail);
  }
  const PreconditionView& pre = dev.precondition;
  if (pre.performed)
    out += fmt::format("  precondition: {:.2f} of {:.2f} capacities written ({}) in {}{}\n", pre.capacities_written.value_or(0),
                       pre.capacities_target.value_or(0), format_bytes(pre.bytes_written.value_or(0)), format_duration(pre.elapsed_s.value_or(0)),
                       pre.reason.empty() ? "" : " - " + pre.reason);
  else if (!pre.reason.empty())
    out += "  precondition: " + pre.reason + "\n";
  if (dev.probe.performed) out += "  probe: " + dev.probe.detail + (dev.probe.filled_after ? " (preconditioned since)" : "") + "\n";
  for (const auto& t : dev.tests)
    for (const auto& w : t.workloads) {
      if (w.littles_law && w.littles_law->runner_bound) out += fmt::format("  note: {} {}: {}\n", t.id, workload_label(w), w.littles_law->note);
      if (!w.write_data.empty()) out += fmt::format("  write data: {} {}: {}\n", t.id, workload_label(w), w.write_data);
      if (w.steady_state && !t.matrix) steady_line(out, t.id, workload_label(w), *w.steady_state);
      if (w.burst && !w.burst->summary.empty()) out += fmt::format("  burst: {} {}: {}\n", t.id, workload_label(w), w.burst->summary);
      if (w.sweep && w.sweep->knee) {
        const SweepPointView& k = w.sweep->points[*w.sweep->knee];
        out += fmt::format("  knee: {} {}: {} IOPS at {} outstanding ({} steps)\n", t.id, w.rw, format_count(k.iops.value_or(0)), k.outstanding.value_or(0),
                           w.sweep->points.size());
      }
    }
  out += "\n";
}

void verdict_table(std::string& out, const ReportView& r, const DeviceView& dev, bool probe_only) {
  bool any = false;
  for (const auto& t : dev.tests)
    for (const auto& v : t.verdicts) {
      if (!any) {
        out += fmt::format("\n  {:<20} {:<20} {:>16} {:>14}  {:<20}  {}\n", "test", "metric", "limit", "measured", "margin", "verdict");
        any = true;
      }
      // The same words as the HTML page: units on every number, the margin as a multiple or a shortfall.
      std::string expected = v.expected ? fmt::format("{} {}", v.bound == "min" ? ">=" : "<=", human::metric_value(v.metric, *v.expected)) : "-";
      std::string measured = v.measured ? human::metric_value(v.metric, *v.measured) : "-";
      std::string margin = v.expected && v.measured ? human::margin(v.bound, *v.expected, *v.measured) : "-";
      out += fmt::format("  {:<20} {:<20} {:>16} {:>14}  {:<20}  {}\n", v.test, v.metric, expected, measured, margin, v.status);
      if (v.status != "PASS") out += fmt::format("  {:<20} {}\n", "", v.reason);
    }
  if (!any && !probe_only)
    out += "\n  no verdicts: " +
           (r.measurement_only         ? std::string("measurement only (--profile none)")
            : dev.profile.name.empty() ? std::string("no profile: NOT-JUDGED (use --profile NAME|FILE, or --profile none to measure only)")
                                       : "the profile sets no limits on these tests") +
           "\n";
}

}  // namespace

std::string render_report_text(const boost::json::object& report) { return render_report_text(decode_report(report)); }

std::string render_report_text(const ReportView& r) {
  std::string out;
  out += fmt::format("diskvet {} - suite '{}' - {} device(s) - {} .. {}\n", r.tool_version, r.suite.name, r.devices.size(), r.started, r.finished);
  if (r.randseed) out += fmt::format("randseed {} (diskvet run --randseed {} repeats its offsets and write data)\n", *r.randseed, *r.randseed);
  if (!r.complete) out += fmt::format("** PARTIAL REPORT: {} **\n", r.aborted);
  for (const auto& dev : r.devices) {
    device_findings(out, dev);
    // A run of the capacity probe alone (probe-capacity) has no performance table and no limits.
    const bool probe_only = dev.tests.empty() && dev.capacity_probe && dev.capacity_probe->performed;
    if (!probe_only) measured_table(out, dev);
    for (const auto& t : dev.tests)
      if (t.matrix) out += matrix_text(t.id, matrix_table(*t.matrix));
    verdict_table(out, r, dev, probe_only);
    for (const auto& o : dev.outliers)
      out += fmt::format("  OUTLIER: {} {}: {} vs median {} of {} devices ({:.0f}% worse)\n", o.test, o.metric, human::metric_value(o.metric, o.value.value_or(0)),
                         human::metric_value(o.metric, o.median.value_or(0)), o.group_size.value_or(0), o.worse_pct.value_or(0));
    burnin_lines(out, dev);
    cpu_lines(out, dev);
    watchdog_lines(out, dev);
    out += fmt::format("  device verdict: {}\n", dev.verdict);
    for (const auto& reason : dev.reasons) out += fmt::format("    - {}\n", reason);
  }
  for (const auto& n : r.notes) out += fmt::format("\nnote: {}\n", n);
  out += fmt::format("\nOVERALL: {}  (exit {})\n", r.verdict, r.exit_code.value_or(0));
  return out;
}

}  // namespace diskvet::runner
