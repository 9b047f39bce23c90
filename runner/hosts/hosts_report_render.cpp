// Text and HTML of a multi-host report.
#include "runner/hosts/hosts_report_render.hpp"

#include <fmt/format.h>

#include <vector>

#include "common/units.hpp"
#include "runner/report/human_format.hpp"
#include "runner/report/svg_plot.hpp"

namespace diskvet::runner {

namespace {

// A recorded number as the report's JSON would print it ("4", "19"), and nothing when it is not
// recorded.
std::string number_text(std::optional<double> x) { return x ? human::plain(*x) : std::string(); }

// One row of numbers for a host's fio result or a merged one: IOPS, MB/s, mean, p99; each absent
// when the result does not hold it (printed "-", never 0).
struct Row {
  std::string name;
  std::optional<double> iops, bw, mean_ns, p99_ns;

  std::string mb_s() const { return bw ? fmt::format("{:.1f}", *bw / 1e6) : "-"; }
};

// A sum of what is there: nothing added to nothing stays nothing.
void add_to(std::optional<double>& sum, const std::optional<double>& x) {
  if (x) sum = sum.value_or(0) + *x;
}

Row row_of(const std::string& name, const FioResultView& r, bool merged) {
  Row row;
  row.name = name;
  if (merged) {
    if (!r.total) return row;
    row.iops = r.total->iops;
    row.bw = r.total->bw_bytes;
    row.mean_ns = r.total->lat_mean_ns;
    row.p99_ns = r.total->percentile_ns(99.0);
    return row;
  }
  double mean_sum = 0, n_total = 0;
  for (const FioDirectionView* d : {r.direction("read"), r.direction("write")}) {
    if (!d) continue;
    add_to(row.iops, d->iops);
    add_to(row.bw, d->bw_bytes);
    const double n = d->lat_count.value_or(0);
    if (n > 0 && d->lat_mean_ns) {
      mean_sum += *d->lat_mean_ns * n;
      n_total += n;
      if (const auto p99 = d->percentile_ns(99.0)) row.p99_ns = std::max(row.p99_ns.value_or(0), *p99);  // the slower direction's p99
    }
  }
  if (n_total > 0) row.mean_ns = mean_sum / n_total;
  return row;
}

std::vector<Row> workload_rows(const HostsWorkloadView& w) {
  std::vector<Row> rows;
  for (const auto& [host, r] : w.hosts) rows.push_back(row_of(host, r, false));
  if (w.merged) rows.push_back(row_of("merged", *w.merged, true));
  return rows;
}

std::string workload_title(const HostsWorkloadView& w) {
  return fmt::format("{} {} QD{} x{}", w.rw, human::known(w.bs_bytes, format_bytes), number_text(w.iodepth), number_text(w.numjobs));
}

// A workload's steady-state rounds in words: "steady state attained in 3 rounds (merged IOPS)",
// "NOT steady after 25 of at most 25 rounds (merged IOPS): not judged"; empty without rounds.
std::string steady_text(const HostsWorkloadView& w) {
  if (!w.steady_state) return {};
  const HostsSteadyStateView& ss = *w.steady_state;
  const uint64_t rounds = ss.rounds.value_or(0);
  const std::string max = number_text(ss.max_rounds);
  std::string t = ss.attained ? fmt::format("steady state attained in {} round{}", rounds, rounds == 1 ? "" : "s")
                              : fmt::format("NOT steady after {} round{}{}", rounds, rounds == 1 ? "" : "s", max.empty() ? "" : " of at most " + max);
  std::string what = ss.tracks;
  if (!ss.workload.empty()) what += (what.empty() ? "" : " of ") + ss.workload;
  if (!ss.decided_by.empty()) what = "decided by " + ss.decided_by;
  if (!what.empty()) t += " (" + what + ")";
  if (!ss.attained && ss.required) t += ": required, so not judged";
  return t;
}

// A sweep's steps: "QD1 x1 120k, QD8 x1 410k, QD32 x1 420k".
std::string sweep_text(const HostsWorkloadView& w) {
  std::string t;
  for (const HostsWorkloadView& s : w.sweep) {
    const FioDirectionView* tot = s.merged ? s.merged->direction("total") : nullptr;
    t += fmt::format("{}QD{} x{} {}", t.empty() ? "" : ", ", number_text(s.iodepth), number_text(s.numjobs),
                     tot ? human::known(tot->iops, format_count) : "-");
  }
  return t;
}

// A matrix test's rounds: "matrix: 4 rounds, tracked cell 0% read 4 KiB: steady state attained".
std::string matrix_text(const HostsTestView& test) {
  if (!test.matrix) return {};
  const HostsMatrixView& m = *test.matrix;
  const bool attained = m.steady_state && m.steady_state->attained;
  const std::string rounds = number_text(m.rounds_run);
  return fmt::format("matrix: {} round{} of every cell, tracked cell {}% read {}: {}{}", rounds, rounds == "1" ? "" : "s",
                     m.tracked ? number_text(m.tracked_rwmixread) : "?", m.tracked ? human::known(m.tracked_bs, format_bytes) : "?",
                     attained ? "steady state attained" : "NOT steady",
                     !attained && m.steady_state && m.steady_state->required ? " (required: not judged)" : "");
}

}  // namespace

std::string render_hosts_text(const ReportView& report) {
  const MultiHostView& doc = multi_host_of(report);
  std::string t = fmt::format("diskvet multi-host run: suite {}, profile {}\n{} {} (exit {})\n", report.suite.name, doc.profile, doc.status,
                              report.verdict, number_text(report.exit_code));
  if (!doc.error.empty()) t += "error: " + doc.error + "\n";
  if (!doc.not_judged.empty()) t += "not judged: " + doc.not_judged + "\n";
  for (const PhaseNotRunView& p : doc.phases_not_run) t += fmt::format("not run: {}: {}\n", p.phase, p.why);
  t += fmt::format("\n{:<16} {:<17} {:<10} {}\n", "HOST", "STATE", "FIO", "DEVICES");
  for (const HostStateView& h : doc.hosts) {
    std::string devs;
    for (const HostsDeviceView& d : h.devices)
      devs += fmt::format("{}{} ({})", devs.empty() ? "" : ", ", d.path, d.refused ? "REFUSED" : (d.held ? "held" : "read only"));
    t += fmt::format("{:<16} {:<17} {:<10} {}\n", h.name, h.state, h.fio_version, devs);
    if (!h.reason.empty()) t += fmt::format("  {} at {}\n", h.reason, h.when);
    // Why each device was refused, where the host's reason does not already say it (a report of
    // an older diskvet named only the first).
    for (const HostsDeviceView& d : h.devices)
      if (!d.refusal.empty() && h.reason.find(d.refusal) == std::string::npos) t += fmt::format("  {} refused: {}\n", d.path, d.refusal);
  }
  for (const HostsTestView& test : doc.tests) {
    t += fmt::format("\n{}: {}\n", test.id, test.status.empty() ? "NOT-JUDGED" : test.status);
    if (const std::string mx = matrix_text(test); !mx.empty()) t += "  " + mx + "\n";
    for (const HostsWorkloadView& w : test.workloads) {
      t += fmt::format("  {}  start spread {} ms{}\n", workload_title(w), w.merged ? number_text(w.merged->start_spread_ms) : std::string("?"),
                       w.not_judged.empty() ? "" : "  (not judged: " + w.not_judged + ")");
      if (const std::string ss = steady_text(w); !ss.empty()) t += "    " + ss + "\n";
      if (const std::string sw = sweep_text(w); !sw.empty()) t += "    sweep: " + sw + "\n";
      t += fmt::format("    {:<16} {:>12} {:>10} {:>10} {:>10}\n", "host", "IOPS", "MB/s", "mean", "p99");
      for (const Row& r : workload_rows(w))
        t += fmt::format("    {:<16} {:>12} {:>10} {:>10} {:>10}\n", r.name, human::known(r.iops, format_count), r.mb_s(),
                         human::known(r.mean_ns, format_ns), human::known(r.p99_ns, format_ns));
    }
    for (const VerdictView& v : test.verdicts) t += fmt::format("  {} {}: {}\n", v.status, v.metric, v.reason);
    for (const auto& [host, status] : test.host_verdicts) t += fmt::format("  host {}: {}\n", host, status);
  }
  return t;
}

std::string render_hosts_html(const ReportView& report, bool seal_ok) {
  const MultiHostView& doc = multi_host_of(report);
  std::string h = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>diskvet multi-host report</title><style>"
                  "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:0.5em 0 1.5em}"
                  "td,th{border:1px solid #999;padding:0.2em 0.6em;text-align:right}td:first-child,th:first-child{text-align:left}"
                  ".merged{font-weight:bold;background:#eef}</style></head><body>";
  h += fmt::format("<h1>diskvet multi-host run: {}</h1><p>{} {} (exit {}), profile {}</p>", html_escape(report.suite.name), html_escape(doc.status),
                   html_escape(report.verdict), html_escape(number_text(report.exit_code)), html_escape(doc.profile));
  if (!seal_ok) h += "<p><strong>WARNING: the sha256 seal does not match: the report was altered after it was written.</strong></p>";
  if (!doc.error.empty()) h += "<p>error: " + html_escape(doc.error) + "</p>";
  if (!doc.not_judged.empty()) h += "<p>not judged: " + html_escape(doc.not_judged) + "</p>";
  for (const PhaseNotRunView& p : doc.phases_not_run) h += fmt::format("<p>not run: {}: {}</p>", html_escape(p.phase), html_escape(p.why));
  h += "<h2>Hosts</h2><table><tr><th>host</th><th>state</th><th>fio</th><th>devices</th><th>why</th></tr>";
  for (const HostStateView& o : doc.hosts) {
    std::string devs;
    for (const HostsDeviceView& d : o.devices)
      devs += html_escape(d.path) + (!d.refusal.empty() ? " (REFUSED: " + html_escape(d.refusal) + ")" : d.held ? " (held)" : "") + "<br>";
    h += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", html_escape(o.name), html_escape(o.state),
                     html_escape(o.fio_version), devs, html_escape(o.reason));
  }
  h += "</table>";
  for (const HostsTestView& test : doc.tests) {
    h += fmt::format("<h2>{}: {}</h2>", html_escape(test.id), html_escape(test.status));
    if (const std::string mx = matrix_text(test); !mx.empty()) h += "<p>" + html_escape(mx) + "</p>";
    for (const HostsWorkloadView& w : test.workloads) {
      h += fmt::format("<h3>{}</h3>", html_escape(workload_title(w)));
      if (const std::string ss = steady_text(w); !ss.empty()) h += "<p>" + html_escape(ss) + "</p>";
      if (const std::string sw = sweep_text(w); !sw.empty()) h += "<p>sweep: " + html_escape(sw) + "</p>";
      if (!w.not_judged.empty()) h += "<p>not judged: " + html_escape(w.not_judged) + "</p>";
      h += "<table><tr><th>host</th><th>IOPS</th><th>MB/s</th><th>mean</th><th>p99</th></tr>";
      for (const Row& r : workload_rows(w))
        h += fmt::format("<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                         r.name == "merged" ? " class=\"merged\"" : "", html_escape(r.name), human::known(r.iops, format_count), r.mb_s(),
                         human::known(r.mean_ns, format_ns), human::known(r.p99_ns, format_ns));
      h += "</table>";
    }
    if (!test.verdicts.empty()) {
      h += "<table><tr><th>metric</th><th>status</th><th>reason</th></tr>";
      for (const VerdictView& v : test.verdicts)
        h += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td></tr>", html_escape(v.metric), html_escape(v.status), html_escape(v.reason));
      h += "</table>";
    }
  }
  return h + "</body></html>\n";
}

}  // namespace diskvet::runner
