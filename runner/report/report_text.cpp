// Report JSON -> text tables.
#include "runner/report/report_text.hpp"

#include <fmt/format.h>

#include "common/units.hpp"
#include "runner/report/health_evidence.hpp"
#include "runner/report/human_format.hpp"
#include "runner/report/report_json_access.hpp"
#include "runner/report/report_matrix.hpp"

namespace diskvet::runner {

namespace json = boost::json;
using namespace rj;

namespace {

std::string fmt_value(const json::value& v, std::string_view key) {
  if (!is_num(v, key)) return "-";
  double x = num(v, key);
  if (std::fabs(x) >= 1e4) return format_count(x);
  if (std::fabs(x) >= 100) return fmt::format("{:.0f}", x);
  return fmt::format("{:.3g}", x);
}

std::string workload_label(const json::value& w) {
  std::string s = fmt::format("{} {} QD{}x{}", str(w, "rw"), format_bytes(bytes(w, "bs")), num(w, "iodepth"), num(w, "numjobs"));
  if (is_num(w, "rwmixread")) s += fmt::format(" {}%r", num(w, "rwmixread"));
  // The engine where it is not the block path's io_uring: the fast path's rows say how they ran.
  if (const std::string e = str(w, "engine"); e == "io_uring_cmd") s += " cmd";
  if (flag(w, "hipri")) s += " poll";
  return s;
}

void measured_table(std::string& out, const json::value& dev) {
  out += fmt::format("  {:<20} {:<26} {:>9} {:>9} {:>9} {:>9} {:>9}\n", "test", "workload", "IOPS", "MB/s", "mean", "p99", "p99.99");
  for (const auto& t : arr(dev, "tests"))
    for (const char* part : {"workloads", "block_path"})
      for (const auto& w : arr(t, part)) {
        if (at(t, "matrix")) break;  // its own table follows (every cell's latency is in the JSON)
        const json::value& res = obj(w, "result");
        const std::string test = std::string(part) == "block_path" ? str(t, "id") + " (block)" : str(t, "id");
        std::string label = workload_label(w);
        if (!flag(w, "ran")) {
          out += fmt::format("  {:<20} {:<26} not run: {}\n", test, label, str(w, "error"));
          continue;
        }
        for (const char* dir : {"read", "write"}) {
          const json::value& d = obj(res, dir);
          if (num(d, "total_ios") == 0) continue;
          const json::value& lat = obj(d, "lat_ns");
          const json::value& pct = obj(lat, "percentile");
          out += fmt::format("  {:<20} {:<26} {:>9} {:>9.1f} {:>9} {:>9} {:>9}\n", test, label + " " + std::string(dir).substr(0, 1),
                             format_count(num(d, "iops")), num(d, "bw_bytes") / 1e6, format_ns(num(lat, "mean")), format_ns(num(pct, "99.000000")),
                             format_ns(num(pct, "99.990000")));
        }
      }
}

// Steady state of one workload: attained or not, and the SNIA PTS measurement window the result is.
void steady_line(std::string& out, const std::string& test, const std::string& label, const json::value& ss) {
  out += fmt::format("  steady state: {} {}: {} after {} round(s){}\n", test, label, flag(ss, "attained") ? "attained" : "NOT attained",
                     num(ss, "rounds_used"), str(ss, "workload").empty() ? "" : " of " + str(ss, "workload") + ", then the sweep");
  const json::value& mw = obj(ss, "measurement_window");
  if (is_num(mw, "first_round"))
    out += fmt::format("    measured: rounds {:.0f}-{:.0f} averaged, {} (range {:.1f}%, slope {:.1f}% of the average; at most {:.0f}% and {:.0f}%)\n",
                       num(mw, "first_round"), num(mw, "last_round"), fmt_value(mw, "average"), num(mw, "range_pct"), num(mw, "slope_pct"),
                       num(obj(ss, "criteria"), "max_excursion_pct"), num(obj(ss, "criteria"), "max_slope_pct"));
}

// Burn-in: how far each test got, verification, slowdowns, latency outliers, CPU.
void burnin_lines(std::string& out, const json::value& dev) {
  const json::value& v = obj(dev, "verify");
  if (!v.is_object()) return;
  for (const auto& p : arr(dev, "progress"))
    if (p.is_string()) out += fmt::format("  progress: {}\n", std::string_view(p.get_string()));
  // Only runs that verified say so: a plain suite run has nothing to report here.
  if (num(v, "blocks_written") + num(v, "blocks_verified") + num(v, "mismatches") > 0)
    out += fmt::format("  verification: {} blocks written, {} verified, {} bad blocks found by {} reads (crc32c: {})\n", num(v, "blocks_written"),
                       num(v, "blocks_verified"), num(v, "bad_blocks"), num(v, "mismatches"), str(v, "crc32c"));
  const json::value& st = obj(v, "state");
  if (st.is_object() && bytes(st, "memory_bytes") > 0)
    out += fmt::format("  verification state: {} of a {} budget, {}\n", format_bytes(bytes(st, "memory_bytes")),
                       format_bytes(bytes(st, "budget_bytes")), str(st, "guarantee"));
  if (v.is_object() && v.as_object().contains("bad_blocks_exact"))
    out += "  bad blocks: the table of distinct bad blocks filled up; a block may be counted twice\n";
  for (const auto& m : arr(v, "first_mismatches"))
    out += fmt::format("    MISMATCH at LBA {} ({}, {:.1f} s): {}\n", num(m, "lba"), str(m, "kind"), num(m, "t_s"), str(m, "detail"));
  const json::value& lo = obj(v, "latency_outliers");
  if (num(lo, "count") > 0) {
    out += fmt::format("  latency outliers: {} I/Os slower than {} ms\n", num(lo, "count"), num(lo, "limit_ms"));
    for (const auto& x : arr(lo, "first"))
      out += fmt::format("    {} at LBA {} took {:.0f} ms at {:.1f} s\n", str(x, "dir"), num(x, "lba"), num(x, "lat_ms"), num(x, "t_s"));
  }
  for (const auto& e : arr(dev, "slowdowns"))
    out += fmt::format("  SLOWDOWN in {}: {:.0f}% below the median for {:.0f} s from {:.0f} s: {} ({})\n", str(e, "test"), num(e, "max_drop_pct"),
                       num(e, "duration_s"), num(e, "start_s"), str(e, "cause"), str(e, "evidence"));
}

// The job threads' CPU beside the host's: the kernel's system and interrupt time is the tool's cost too.
void cpu_lines(std::string& out, const json::value& dev) {
  const json::value& cpu = obj(dev, "cpu");
  const json::value& h = obj(cpu, "host");
  if (!h.is_object()) return;
  out += fmt::format("  cpu: job threads {:.2f} s; host over the tests ({}): {:.1f}% busy = user {:.1f}% + system {:.1f}% + irq {:.1f}% + softirq {:.1f}%"
                     " (system {:.2f} s, irq {:.2f} s, softirq {:.2f} s)\n",
                     num(cpu, "job_cpu_s"), format_duration(num(h, "window_s")), num(h, "busy_pct"), num(h, "user_pct"), num(h, "system_pct"),
                     num(h, "irq_pct"), num(h, "softirq_pct"), num(h, "system_s"), num(h, "irq_s"), num(h, "softirq_s"));
  out += "       CPU per I/O counts only the job threads; the host's system and interrupt time holds the kernel's share\n";
}

// Stalled I/Os and the kernel's lines about the device.
void watchdog_lines(std::string& out, const json::value& dev) {
  const json::value& w = obj(dev, "watchdog");
  if (num(w, "stall_count") > 0)
    out += fmt::format("  STALLS: {} I/O(s) out longer than io_timeout {} s{}\n", num(w, "stall_count"), num(w, "io_timeout_s"),
                       flag(w, "abandoned") ? "; the run gave up on the device (ABANDONED)" : "");
  for (const auto& s : arr(w, "stalls"))
    out += fmt::format("    {} at LBA {} in {}: out {:.2f} s{} from {:.2f} s\n", str(s, "direction"), num(s, "lba"), str(s, "test"), num(s, "out_s"),
                       flag(s, "completed") ? "" : " and never completed", num(s, "submit_s"));
  const json::value& k = obj(dev, "kernel_log");
  if (!str(k, "note").empty()) out += "  kernel log: " + str(k, "note") + "\n";
  for (const auto& l : arr(k, "lines"))
    out += fmt::format("  kernel [{:>10.6f}] {}: {}\n", num(l, "kernel_s"), str(l, "kind"), str(l, "text"));
  if (num(k, "dropped") > 0) out += fmt::format("  kernel: {} more lines not kept\n", num(k, "dropped"));
}

}  // namespace

std::string render_report_text(const json::object& r) {
  const json::value doc = r;
  std::string out;
  const json::value& suite = obj(doc, "suite");
  out += fmt::format("diskvet {} - suite '{}' - {} device(s) - {} .. {}\n", str(obj(doc, "tool"), "version"), str(suite, "name"),
                     arr(doc, "devices").size(), str(doc, "started"), str(doc, "finished"));
  if (const json::value* seed = doc.as_object().if_contains("randseed"); seed && seed->is_number())
    out += fmt::format("randseed {} (diskvet run --randseed {} repeats its offsets and write data)\n", seed->to_number<uint64_t>(),
                       seed->to_number<uint64_t>());
  if (!flag(doc, "complete")) out += fmt::format("** PARTIAL REPORT: {} **\n", str(doc, "aborted"));
  for (const auto& dev : arr(doc, "devices")) {
    std::string ident = str(dev, "model");
    if (!str(dev, "serial").empty()) ident += " s/n " + str(dev, "serial");
    out += fmt::format("\n{} ({}{}{}), tested {} of {}\n", str(dev, "path"), ident.empty() ? "unknown model" : ident,
                       str(dev, "kind").empty() ? "" : ", ", str(dev, "kind"), format_bytes(bytes(dev, "tested_bytes")),
                       format_bytes(bytes(dev, "size_bytes")));
    if (const json::value* fsp = at(obj(dev, "identity"), "file_system"); fsp && fsp->is_object()) {
      const json::value& fsv = *fsp;
      out += fmt::format("  file system: {} {} at {} ({}){}\n", str(fsv, "fstype"), str(fsv, "source"), str(fsv, "mountpoint"),
                         str(fsv, "mount_options"), flag(fsv, "direct_io") ? ", O_DIRECT" : ", O_DIRECT REFUSED: buffered I/O, page cache included");
      if (const json::value* nfs = at(fsv, "nfs"); nfs && nfs->is_object())
        out += fmt::format("  NFS: server {}, vers {}, rsize {}, wsize {}\n", str(*nfs, "server"), str(*nfs, "version"),
                           format_bytes(bytes(*nfs, "rsize_bytes")), format_bytes(bytes(*nfs, "wsize_bytes")));
    }
    const json::value& prof = obj(dev, "profile");
    out += fmt::format("  profile: {} - {}\n", str(prof, "name").empty() ? "none" : str(prof, "name"), str(prof, "reason"));
    if (const json::value& fp = obj(dev, "fast_path"); !str(fp, "summary").empty()) out += "  fast path: " + str(fp, "summary") + "\n";
    const json::value& health = obj(dev, "health");
    auto health_word = [](const json::value& h) -> std::string {
      if (!flag(h, "known")) return "unknown";
      return arr(h, "problems").empty() ? "healthy" : "UNHEALTHY";
    };
    out += fmt::format("  health: before {}, after {}{}\n", health_word(obj(health, "before")), health_word(obj(health, "after")),
                       flag(obj(health, "before"), "known") ? "" : " (no health source for this device: never reported as healthy)");
    for (const auto& p : arr(obj(health, "delta"), "problems"))
      if (p.is_string()) out += fmt::format("  health during the run: {}\n", std::string_view(p.get_string()));
    const json::value& capacity = obj(dev, "capacity_probe");
    if (flag(capacity, "performed"))
      out += fmt::format("  capacity probe: {} - real capacity {} of {} claimed - {}\n", str(capacity, "verdict"), format_bytes(bytes(capacity, "real_bytes")),
                         format_bytes(bytes(capacity, "claimed_bytes")), str(capacity, "summary"));
    if (const json::value& wa = obj(health, "write_accounting"); !str(wa, "words").empty()) {  // absent: an empty object
      out += fmt::format("  writes counted: {}{}\n", flag(wa, "fails") ? "DISAGREE: " : "", str(wa, "words"));
      if (!str(wa, "other_writer").empty()) out += fmt::format("  another writer: {}\n", str(wa, "other_writer"));
    }
    for (const auto& [label, line] : error_log_lines(obj(health, "error_log"))) out += fmt::format("  {}: {}\n", label, line);
    for (const auto& [label, line] : smart_counter_lines(obj(health, "smart_counters"))) out += fmt::format("  {}: {}\n", label, line);
    for (const auto& [label, line] : smart_log_lines(obj(health, "sata_sas_logs"))) out += fmt::format("  {}: {}\n", label, line);
    for (const auto& [label, line] : write_amplification_lines(obj(health, "write_amplification"))) out += fmt::format("  {}: {}\n", label, line);
    for (const auto& [label, line] : self_test_lines(obj(dev, "self_test"))) out += fmt::format("  {}: {}\n", label, line);
    for (const auto& [label, line] : across_self_test_lines(obj(health, "across_self_test"))) out += fmt::format("  {}: {}\n", label, line);
    const json::value& purge = obj(dev, "purge");
    if (flag(purge, "requested")) {
      const double took_s = num(purge, "duration_s");
      out += fmt::format("  purge: {}{}{} - {}\n", str(purge, "method"), flag(purge, "failed") ? " FAILED" : "",
                         took_s <= 0 ? "" : " in " + (took_s < 10 ? fmt::format("{:.2f}s", took_s) : format_duration(took_s)),
                         str(purge, "detail"));
    }
    const json::value& pre = obj(dev, "precondition");
    if (flag(pre, "performed"))
      out += fmt::format("  precondition: {:.2f} of {:.2f} capacities written ({}) in {}{}\n", num(pre, "capacities_written"),
                         num(pre, "capacities_target"), format_bytes(bytes(pre, "bytes_written")),
                         format_duration(num(pre, "elapsed_s")), str(pre, "reason").empty() ? "" : " - " + str(pre, "reason"));
    else if (!str(pre, "reason").empty()) out += "  precondition: " + str(pre, "reason") + "\n";
    const json::value& probe = obj(dev, "probe");
    if (flag(probe, "performed")) out += "  probe: " + str(probe, "detail") + (flag(probe, "filled_after") ? " (preconditioned since)" : "") + "\n";
    for (const auto& t : arr(dev, "tests"))
      for (const auto& w : arr(t, "workloads")) {
        const json::value& lit = obj(w, "littles_law");
        if (flag(lit, "runner_bound")) out += fmt::format("  note: {} {}: {}\n", str(t, "id"), workload_label(w), str(lit, "note"));
        if (!str(w, "write_data").empty()) out += fmt::format("  write data: {} {}: {}\n", str(t, "id"), workload_label(w), str(w, "write_data"));
        const json::value& ss = obj(w, "steady_state");
        if (at(w, "steady_state") && !at(t, "matrix")) steady_line(out, str(t, "id"), workload_label(w), ss);
        if (const json::value& b = obj(w, "burst"); !str(b, "summary").empty())
          out += fmt::format("  burst: {} {}: {}\n", str(t, "id"), workload_label(w), str(b, "summary"));
        const json::value& sw = obj(w, "sweep");
        const auto& pts = arr(sw, "points");
        if (auto k = index_below(sw, "knee", pts.size()))
          out += fmt::format("  knee: {} {}: {} IOPS at {} outstanding ({} steps)\n", str(t, "id"), str(w, "rw"), format_count(num(pts[*k], "iops")),
                             num(pts[*k], "outstanding"), pts.size());
      }
    out += "\n";
    // A run of the capacity probe alone (probe-capacity) has no performance table and no limits.
    const bool probe_only = arr(dev, "tests").empty() && flag(capacity, "performed");
    if (!probe_only) measured_table(out, dev);
    for (const auto& t : arr(dev, "tests"))
      if (auto m = read_matrix_table(t)) out += matrix_text(str(t, "id"), *m);
    bool any = false;
    for (const auto& t : arr(dev, "tests"))
      for (const auto& v : arr(t, "verdicts")) {
        if (!any) {
          out += fmt::format("\n  {:<20} {:<20} {:>16} {:>14}  {:<20}  {}\n", "test", "metric", "limit", "measured", "margin", "verdict");
          any = true;
        }
        // The same words as the HTML page: units on every number, the margin as a multiple or a shortfall.
        const std::string metric = str(v, "metric");
        std::string expected = is_num(v, "expected") ? fmt::format("{} {}", str(v, "bound") == "min" ? ">=" : "<=", human::metric_value(metric, num(v, "expected"))) : "-";
        std::string measured = is_num(v, "measured") ? human::metric_value(metric, num(v, "measured")) : "-";
        std::string margin = is_num(v, "expected") && is_num(v, "measured") ? human::margin(str(v, "bound"), num(v, "expected"), num(v, "measured")) : "-";
        out += fmt::format("  {:<20} {:<20} {:>16} {:>14}  {:<20}  {}\n", str(v, "test"), metric, expected, measured, margin, str(v, "status"));
        if (str(v, "status") != "PASS") out += fmt::format("  {:<20} {}\n", "", str(v, "reason"));
      }
    if (!any && !probe_only)
      out += "\n  no verdicts: " +
             (flag(doc, "measurement_only") ? std::string("measurement only (--profile none)")
              : str(prof, "name").empty()   ? std::string("no profile: NOT-JUDGED (use --profile NAME|FILE, or --profile none to measure only)")
                                            : "the profile sets no limits on these tests") +
             "\n";
    for (const auto& o : arr(dev, "outliers"))
      out += fmt::format("  OUTLIER: {} {}: {} vs median {} of {} devices ({:.0f}% worse)\n", str(o, "test"), str(o, "metric"),
                         human::metric_value(str(o, "metric"), num(o, "value")), human::metric_value(str(o, "metric"), num(o, "median")),
                         num(o, "group_size"), num(o, "worse_pct"));
    burnin_lines(out, dev);
    cpu_lines(out, dev);
    watchdog_lines(out, dev);
    out += fmt::format("  device verdict: {}\n", str(dev, "verdict"));
    for (const auto& reason : arr(dev, "reasons"))
      if (reason.is_string()) out += fmt::format("    - {}\n", std::string_view(reason.get_string()));
  }
  for (const auto& n : arr(doc, "notes"))
    if (n.is_string()) out += fmt::format("\nnote: {}\n", std::string_view(n.get_string()));
  out += fmt::format("\nOVERALL: {}  (exit {})\n", str(doc, "verdict"), num(doc, "exit_code"));
  return out;
}

}  // namespace diskvet::runner
