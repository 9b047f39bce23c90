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

using human::known_as;

std::string fmt_value(const std::optional<double>& v) {
  if (!v) return "-";
  const double x = *v;
  if (std::fabs(x) >= 1e4) return format_count(x);
  if (std::fabs(x) >= 100) return fmt::format("{:.0f}", x);
  return fmt::format("{:.3g}", x);
}

std::string workload_label(const WorkloadView& w) {
  std::string s = fmt::format("{} {} QD{}x{}", w.rw, human::known(w.bs, format_bytes), known_as(w.iodepth), known_as(w.numjobs));
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
          if (!d.measured()) continue;
          out += fmt::format("  {:<20} {:<26} {:>9} {:>9} {:>9} {:>9} {:>9}\n", test, label + " " + std::string(dir).substr(0, 1),
                             human::known(d.iops, format_count), d.bw_bytes ? fmt::format("{:.1f}", *d.bw_bytes / 1e6) : "-",
                             human::known(d.lat_mean_ns, format_ns), human::known(d.lat_p99_ns, format_ns),
                             human::known(d.lat_p9999_ns, format_ns));
        }
      }
}

// Steady state of one workload: attained or not, and the SNIA PTS measurement window the result is.
void steady_line(std::string& out, const std::string& test, const std::string& label, const SteadyStateView& ss) {
  out += fmt::format("  steady state: {} {}: {} after {} round(s){}\n", test, label, ss.attained ? "attained" : "NOT attained",
                     known_as(ss.rounds_used), ss.workload.empty() ? "" : " of " + ss.workload + ", then the sweep");
  if (const auto& mw = ss.measurement_window; mw && mw->first_round)
    out += fmt::format("    measured: rounds {:.0f}-{} averaged, {} (range {}%, slope {}% of the average; at most {}% and {}%)\n",
                       *mw->first_round, known_as(mw->last_round, "{:.0f}"), fmt_value(mw->average), known_as(mw->range_pct, "{:.1f}"),
                       known_as(mw->slope_pct, "{:.1f}"), known_as(ss.max_excursion_pct, "{:.0f}"), known_as(ss.max_slope_pct, "{:.0f}"));
}

// Burn-in: how far each test got, verification, slowdowns, latency outliers, CPU.
void burnin_lines(std::string& out, const DeviceView& dev) {
  static const VerifyView kNotVerified;
  const VerifyView& v = dev.verify ? *dev.verify : kNotVerified;
  for (const auto& p : dev.progress) out += fmt::format("  progress: {}\n", p);
  // Only runs that verified say so: a plain suite run has nothing to report here.
  if (v.blocks_written.value_or(0) + v.blocks_verified.value_or(0) + v.mismatches.value_or(0) > 0)
    out += fmt::format("  verification: {} blocks written, {} verified, {} bad blocks found by {} reads (crc32c: {})\n",
                       known_as(v.blocks_written), known_as(v.blocks_verified), known_as(v.bad_blocks), known_as(v.mismatches), v.crc32c);
  if (v.state && v.state->memory_bytes.value_or(0) > 0)
    out += fmt::format("  verification state: {} of a {} budget, {}\n", format_bytes(*v.state->memory_bytes),
                       human::known(v.state->budget_bytes, format_bytes), v.state->guarantee);
  // Written only when the table filled up (as false); the line has always followed the key alone.
  if (v.bad_blocks_exact.has_value()) out += "  bad blocks: the table of distinct bad blocks filled up; a block may be counted twice\n";
  for (const auto& m : v.first_mismatches)
    out += fmt::format("    MISMATCH at LBA {} ({}, {} s): {}\n", known_as(m.lba), m.kind, known_as(m.t_s, "{:.1f}"), m.detail);
  if (v.latency_outliers_count.value_or(0) > 0) {
    out += fmt::format("  latency outliers: {} I/Os slower than {} ms\n", *v.latency_outliers_count, known_as(v.latency_outliers_limit_ms));
    for (const auto& x : v.latency_outliers)
      out += fmt::format("    {} at LBA {} took {} ms at {} s\n", x.dir, known_as(x.lba), known_as(x.lat_ms, "{:.0f}"),
                         known_as(x.t_s, "{:.1f}"));
  }
  for (const auto& e : dev.slowdowns)
    out += fmt::format("  SLOWDOWN in {}: {}% below the median for {} s from {} s: {} ({})\n", e.test, known_as(e.max_drop_pct, "{:.0f}"),
                       known_as(e.duration_s, "{:.0f}"), known_as(e.start_s, "{:.0f}"), e.cause, e.evidence);
}

// The job threads' CPU beside the host's: the kernel's system and interrupt time is the tool's cost too.
// A report that sampled neither has no CPU lines; one whose host was not sampled says so.
void cpu_lines(std::string& out, const DeviceView& dev) {
  if (!dev.cpu.job_cpu_s && !dev.cpu.host) return;
  out += fmt::format("  cpu: job threads {} s; ", known_as(dev.cpu.job_cpu_s, "{:.2f}"));
  if (const auto& h = dev.cpu.host)
    out += fmt::format(
        "host over the tests ({}): {}% busy = user {}% + system {}% + irq {}% + softirq {}% (system {} s, irq {} s, softirq {} s)\n",
        human::known(h->window_s, format_duration), known_as(h->busy_pct, "{:.1f}"), known_as(h->user_pct, "{:.1f}"),
        known_as(h->system_pct, "{:.1f}"), known_as(h->irq_pct, "{:.1f}"), known_as(h->softirq_pct, "{:.1f}"),
        known_as(h->system_s, "{:.2f}"), known_as(h->irq_s, "{:.2f}"), known_as(h->softirq_s, "{:.2f}"));
  else out += "the host's CPU was not sampled\n";
  out += "       CPU per I/O counts only the job threads; the host's system and interrupt time holds the kernel's share\n";
}

// Stalled I/Os and the kernel's lines about the device.
void watchdog_lines(std::string& out, const DeviceView& dev) {
  const WatchdogView& w = dev.watchdog;
  if (w.stall_count.value_or(0) > 0)
    out += fmt::format("  STALLS: {} I/O(s) out longer than io_timeout {} s{}\n", *w.stall_count, known_as(w.io_timeout_s),
                       w.abandoned ? "; the run gave up on the device (ABANDONED)" : "");
  for (const auto& s : w.stalls)
    out += fmt::format("    {} at LBA {} in {}: out {} s{} from {} s\n", s.direction, known_as(s.lba), s.test, known_as(s.out_s, "{:.2f}"),
                       s.completed ? "" : " and never completed", known_as(s.submit_s, "{:.2f}"));
  const KernelLogView& k = dev.kernel_log;
  if (!k.note.empty()) out += "  kernel log: " + k.note + "\n";
  for (const auto& l : k.lines) out += fmt::format("  kernel [{:>10}] {}: {}\n", known_as(l.kernel_s, "{:.6f}"), l.kind, l.text);
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
  out += fmt::format("\n{} ({}{}{}), tested {} of {}\n", dev.path, ident.empty() ? "unknown model" : ident, dev.kind.empty() ? "" : ", ",
                     dev.kind, human::known(dev.tested_bytes, format_bytes), human::known(dev.size_bytes, format_bytes));
  if (const auto& fs = dev.file_system) {
    out += fmt::format("  file system: {} {} at {} ({}){}\n", fs->fstype, fs->source, fs->mountpoint, fs->mount_options,
                       fs->direct_io ? ", O_DIRECT" : ", O_DIRECT REFUSED: buffered I/O, page cache included");
    if (const auto& nfs = fs->nfs)
      out += fmt::format("  NFS: server {}, vers {}, rsize {}, wsize {}\n", nfs->server, nfs->version,
                         human::known(nfs->rsize_bytes, format_bytes), human::known(nfs->wsize_bytes, format_bytes));
  }
  out += fmt::format("  profile: {} - {}\n", dev.profile.name.empty() ? "none" : dev.profile.name, dev.profile.reason);
  if (!dev.fast_path_summary.empty()) out += "  fast path: " + dev.fast_path_summary + "\n";
  const HealthView& health = dev.health;
  out += fmt::format("  health: before {}, after {}{}\n", health_word(health.before), health_word(health.after),
                     health.before && health.before->known ? "" : " (no health source for this device: never reported as healthy)");
  for (const auto& p : health.delta_problems) out += fmt::format("  health during the run: {}\n", p);
  if (const auto& c = dev.capacity_probe; c && c->performed)
    out += fmt::format("  capacity probe: {} - real capacity {} of {} claimed - {}\n", c->verdict,
                       human::known(c->real_bytes, format_bytes), human::known(c->claimed_bytes, format_bytes), c->summary);
  for (const PhaseNotRunView& p : dev.phases_not_run) out += fmt::format("  not run: {}: {}\n", p.phase, p.why);
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
    out += "  precondition: " + precondition_words(pre, format_duration) + (pre.reason.empty() ? "" : " - " + pre.reason) + "\n";
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
        out += fmt::format("  knee: {} {}: {} IOPS at {} outstanding ({} steps)\n", t.id, w.rw, human::known(k.iops, format_count),
                           known_as(k.outstanding), w.sweep->points.size());
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
      out += fmt::format("  OUTLIER: {} {}: {} vs median {} of {} devices ({}% worse)\n", o.test, o.metric,
                         human::metric_value(o.metric, o.value), human::metric_value(o.metric, o.median), known_as(o.group_size),
                         known_as(o.worse_pct, "{:.0f}"));
    burnin_lines(out, dev);
    cpu_lines(out, dev);
    watchdog_lines(out, dev);
    out += fmt::format("  device verdict: {}\n", dev.verdict.empty() ? "(not in the report)" : dev.verdict);
    for (const auto& reason : dev.reasons) out += fmt::format("    - {}\n", reason);
  }
  for (const auto& n : r.notes) out += fmt::format("\nnote: {}\n", n);
  out += fmt::format("\nOVERALL: {}  (exit {})\n", r.verdict.empty() ? "(not in the report)" : r.verdict, known_as(r.exit_code));
  return out;
}

}  // namespace diskvet::runner
