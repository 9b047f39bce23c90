// Report view -> one HTML page (see report_html.hpp).
#include "runner/report/report_html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "common/units.hpp"
#include "runner/report/html_page.hpp"
#include "runner/report/health_evidence.hpp"
#include "runner/report/human_format.hpp"
#include "runner/report/report_matrix.hpp"
#include "runner/report/report_plots.hpp"
#include "runner/report/report_schema.hpp"
#include "runner/report/svg_plot.hpp"

namespace diskvet::runner {

namespace {

std::string esc(const std::string& s) { return html_escape(s); }

using human::known_as;
std::string known_duration(const std::optional<double>& s) { return s ? esc(human::duration_s(*s)) : "-"; }

// Every verdict of a device, worst first (a failing metric is what the reader looks for).
std::vector<const VerdictView*> verdicts_worst_first(const DeviceView& dev) {
  std::vector<const VerdictView*> v;
  for (const auto& t : dev.tests)
    for (const auto& x : t.verdicts) v.push_back(&x);
  std::stable_sort(v.begin(), v.end(), [](const VerdictView* a, const VerdictView* b) { return verdict_rank(a->status) < verdict_rank(b->status); });
  return v;
}

std::string limit_text(const VerdictView& v) {
  if (!v.expected) return "-";
  return (v.bound == "min" ? "&ge; " : "&le; ") + esc(human::metric_value(v.metric, *v.expected));
}
std::string measured_text(const VerdictView& v) { return v.measured ? esc(human::metric_value(v.metric, *v.measured)) : "-"; }
std::string margin_text(const VerdictView& v) {
  if (!v.expected || !v.measured) return "-";
  return esc(human::margin(v.bound, *v.expected, *v.measured));
}

std::string identity_line(const DeviceView& dev) {
  std::string model = dev.model.empty() ? "unknown model" : dev.model;
  return fmt::format("{} &middot; {}", esc(dev.path), esc(model));
}

std::string verdict_table(const DeviceView& dev) {
  auto vs = verdicts_worst_first(dev);
  if (vs.empty()) return "<p>No limits judged on this device.</p>";
  std::string h = "<div class=\"scroll\"><table><tr><th>verdict</th><th>test</th><th>metric</th><th>limit</th><th>measured</th><th>margin</th><th>reason</th></tr>";
  for (const auto* v : vs)
    h += fmt::format("<tr><td class=\"{0}\">{0}</td><td>{1}</td><td>{2}</td><td class=\"num\">{3}</td><td class=\"num\">{4}</td><td>{5}</td><td>{6}</td></tr>",
                     esc(v->status), esc(v->test), esc(v->metric), limit_text(*v), measured_text(*v), margin_text(*v),
                     // A pass says it all in its margin; the runner's reason (raw numbers) explains the others.
                     v->status == "PASS" ? "" : esc(v->reason));
  return h + "</table></div>";
}

// What happened on the device beside the metrics: reasons, preparation, stalls, kernel lines.
std::string findings(const DeviceView& dev) {
  static const VerifyView kNotVerified;
  std::string h = "<ul>";
  if (const auto& c = dev.capacity_probe; c && c->performed)
    h += fmt::format("<li{}>Capacity probe: {} &mdash; real capacity {} of {} claimed: {}</li>",
                     c->verdict == "FAIL" ? " class=\"FAIL\"" : "", esc(c->verdict), human::known(c->real_bytes, format_bytes),
                     human::known(c->claimed_bytes, format_bytes), esc(c->summary));
  for (const PhaseNotRunView& p : dev.phases_not_run) h += fmt::format("<li>Not run: {}: {}</li>", esc(p.phase), esc(p.why));
  const PreconditionView& pre = dev.precondition;
  if (pre.performed) h += "<li>Preconditioning: " + esc(precondition_words(pre, human::duration_s)) + "</li>";
  else if (!pre.reason.empty())
    h += "<li>Preconditioning: " + esc(pre.reason) + "</li>";
  if (dev.probe.performed) h += "<li>Probe: " + esc(dev.probe.detail) + "</li>";
  const PurgeView& purge = dev.purge;
  if (purge.requested) h += fmt::format("<li>Purge: {}{} &mdash; {}</li>", esc(purge.method), purge.failed ? " FAILED" : "", esc(purge.detail));
  const VerifyView& v = dev.verify ? *dev.verify : kNotVerified;
  if (v.blocks_written.value_or(0) + v.blocks_verified.value_or(0) + v.mismatches.value_or(0) > 0)
    h += fmt::format("<li{}>Verification: {} blocks written, {} verified, {} bad blocks found by {} reads</li>",
                     v.mismatches.value_or(0) > 0 ? " class=\"FAIL\"" : "", human::known(v.blocks_written, human::count),
                     human::known(v.blocks_verified, human::count), known_as(v.bad_blocks), known_as(v.mismatches));
  for (const auto& m : v.first_mismatches)
    h += fmt::format("<li class=\"FAIL\">Mismatch at LBA {} ({}, at {}): {}</li>", known_as(m.lba), esc(m.kind), known_duration(m.t_s),
                     esc(m.detail));
  for (const auto& e : dev.slowdowns)
    h += fmt::format("<li class=\"FAIL\">Slowdown in {}: {}% below the median for {}: {} ({})</li>", esc(e.test),
                     known_as(e.max_drop_pct, "{:.0f}"), known_duration(e.duration_s), esc(e.cause), esc(e.evidence));
  for (const auto& s : dev.watchdog.stalls)
    h += fmt::format("<li class=\"FAIL\">Stall: {} at LBA {} in {} out {}{}</li>", esc(s.direction), known_as(s.lba), esc(s.test),
                     known_duration(s.out_s), s.completed ? "" : " and never completed");
  for (const auto& o : dev.outliers)
    h += fmt::format("<li class=\"FAIL\">Outlier: {} {} = {}, the median of {} devices is {} ({}% worse)</li>", esc(o.test), esc(o.metric),
                     esc(human::metric_value(o.metric, o.value)), known_as(o.group_size), esc(human::metric_value(o.metric, o.median)),
                     known_as(o.worse_pct, "{:.0f}"));
  const KernelLogView& klog = dev.kernel_log;
  if (!klog.note.empty()) h += "<li>Kernel log: " + esc(klog.note) + "</li>";
  for (const auto& l : klog.lines)
    h += fmt::format("<li>Kernel [{}] {}: <code>{}</code></li>", known_as(l.kernel_s, "{:.6f}"), esc(l.kind), esc(l.text));
  if (const auto& host = dev.cpu.host)
    h += fmt::format("<li>CPU: diskvet's job threads {}; the host was {}% busy over the tests</li>", known_duration(dev.cpu.job_cpu_s),
                     known_as(host->busy_pct, "{:.0f}"));
  else if (dev.cpu.job_cpu_s)
    h += fmt::format("<li>CPU: diskvet's job threads {}; the host's CPU was not sampled</li>", known_duration(dev.cpu.job_cpu_s));
  return h == "<ul>" ? "" : h + "</ul>";
}

std::string steady_text(const WorkloadView& w) {
  if (!w.steady_state) return "";
  const SteadyStateView& ss = *w.steady_state;
  std::string h = fmt::format("<p>Steady state {} after {} round(s){}.", ss.attained ? "attained" : "<b>NOT attained</b>",
                              known_as(ss.rounds_used), ss.workload.empty() ? "" : " of " + esc(ss.workload) + ", then the sweep");
  if (const auto& mw = ss.measurement_window; mw && mw->first_round)
    h += fmt::format(" Measured: rounds {:.0f}&ndash;{} averaged (range {}%, slope {}% of the average).", *mw->first_round,
                     known_as(mw->last_round, "{:.0f}"), known_as(mw->range_pct, "{:.1f}"), known_as(mw->slope_pct, "{:.1f}"));
  return h + "</p>";
}

// A workload's numbers in one line: IOPS, bandwidth, mean and p99 per direction.
std::string result_line(const WorkloadView& w) {
  if (!w.result) return "";
  std::string h;
  for (const char* dir : {"read", "write"}) {
    const DirectionView& d = w.result->direction(dir);
    if (!d.measured()) continue;
    h += fmt::format("<li><b>{}</b>: {}, {}, mean {}, p99 {}, p99.99 {}</li>", dir, esc(human::known(d.iops, human::iops)),
                     esc(human::known(d.bw_bytes, human::bandwidth)), esc(human::known(d.lat_mean_ns, human::latency_ns)),
                     esc(human::known(d.lat_p99_ns, human::latency_ns)), esc(human::known(d.lat_p9999_ns, human::latency_ns)));
  }
  return h.empty() ? "" : "<ul>" + h + "</ul>";
}

std::string device_section(const DeviceView& dev) {
  // On paper each device's pages open with its card, so a printed device stands alone; on a screen
  // the cards are already the first thing on the page.
  std::string h = fmt::format("<section class=\"device\"><h2>{} {}</h2><div class=\"print-only\">{}</div>", identity_line(dev), verdict_badge(dev.verdict),
                              device_card_html(dev));
  h += "<h3>Verdicts, failing first</h3>" + verdict_table(dev);
  h += findings(dev);
  if (auto hp = health_plot(dev)) h += "<div class=\"plots\">" + render_svg(*hp) + "</div>";
  for (const auto& t : dev.tests) {
    h += fmt::format("<h3>{} {}</h3>", esc(t.id), verdict_badge(t.verdict));
    if (!t.description.empty()) h += "<p class=\"meta\">" + esc(t.description) + "</p>";
    if (t.verdict != "PASS") {
      std::string why;
      for (const auto& r : t.reasons) why += "<li>" + esc(r) + "</li>";
      if (!why.empty()) h += "<ul class=\"reasons\">" + why + "</ul>";
    }
    if (t.matrix) {
      h += matrix_html(t.id, matrix_table(*t.matrix));
      continue;
    }
    for (const auto& w : t.workloads) {
      h += "<h4>" + esc(workload_label(w)) + "</h4>";
      if (!w.ran) {
        h += "<p>Not run: " + esc(w.error.empty() ? w.skipped : w.error) + "</p>";
        continue;
      }
      h += result_line(w) + steady_text(w);
      if (w.burst && !w.burst->summary.empty())
        h += "<p class=\"burst\" data-burst=\"" + std::string(w.burst->found ? "step" : "none") + "\">Burst: " + esc(w.burst->summary) + ".</p>";
      auto [iops, lat] = timeline_plots(w, t, dev);
      h += "<div class=\"plots\">" + render_svg(percentile_plot(w, t));
      if (auto sp = sweep_plot(w)) h += render_svg(*sp);
      h += render_svg(iops) + render_svg(lat) + "</div>";
      if (!w.fio.empty()) h += "<details><summary>Reproduce with fio</summary><pre>" + esc(w.fio) + "</pre></details>";
    }
    // The fast path's first test once more on the block path: the numbers beside, never judged.
    for (const auto& w : t.block_path)
      if (w.ran) h += "<p class=\"beside\">On the block path (not judged): " + esc(workload_label(w)) + "</p>" + result_line(w);
  }
  return h + "</section>";
}

std::string health_counters(const HealthReading& h) {
  std::vector<std::string> parts;
  if (h.temperature_c) parts.push_back(human::plain(*h.temperature_c) + " °C");
  if (h.percentage_used) parts.push_back(human::plain(*h.percentage_used) + "% used");
  if (h.available_spare_pct) parts.push_back(human::plain(*h.available_spare_pct) + "% spare");
  if (h.media_errors) parts.push_back(human::plain(*h.media_errors) + " media errors");
  if (h.reallocated_sectors) parts.push_back(human::plain(*h.reallocated_sectors) + " reallocated");
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : ", ") + p;
  return s;
}

}  // namespace

std::string health_words(const std::optional<HealthReading>& h) {
  if (!h || !h->known) return "unknown (no health source)";
  std::string s = h->problems.empty() ? "healthy" : "UNHEALTHY";
  for (const auto& p : h->problems) s += ": " + p;
  const std::string counters = health_counters(*h);
  return counters.empty() ? s : s + " (" + counters + ")";
}

std::string device_card_html(const boost::json::value& dev) { return device_card_html(decode_device(dev)); }

std::string device_card_html(const DeviceView& dev) {
  const std::string status = dev.verdict.empty() ? "NOT-JUDGED" : dev.verdict;
  std::string h = fmt::format("<div class=\"card {}\"><h2>{} {}</h2><dl>", esc(status), verdict_badge(status), identity_line(dev));
  auto row = [&](const std::string& k, const std::string& v) { h += fmt::format("<dt>{}</dt><dd>{}</dd>", k, v.empty() ? "&mdash;" : esc(v)); };
  row("serial", dev.serial);
  row("firmware", dev.firmware);
  row("size",
      dev.size_bytes.value_or(0) ? format_bytes(*dev.size_bytes) + " (tested " + human::known(dev.tested_bytes, format_bytes) + ")" : "");
  const ProfileView& prof = dev.profile;
  std::string profile = prof.name.empty() ? "none" : prof.name;
  if (!prof.reason.empty()) profile += " — " + prof.reason;
  row("profile", profile);
  if (!dev.fast_path_summary.empty()) row("fast path", dev.fast_path_summary);
  if (prof.source && !prof.source->empty()) row("limits from", *prof.source);
  const HealthView& health = dev.health;
  row("health before", health_words(health.before));
  row("health after", health_words(health.after));
  if (const auto& wa = health.write_accounting; wa && !wa->words.empty()) {
    row("writes counted", (wa->fails ? "DISAGREE: " : "") + wa->words);
    if (!wa->other_writer.empty()) row("another writer", wa->other_writer);
  }
  for (const auto& [label, line] : error_log_lines(health.error_log)) row(label, line);
  for (const auto& [label, line] : smart_counter_lines(health.smart_counters)) row(label, line);
  for (const auto& [label, line] : smart_log_lines(health.sata_sas_logs)) row(label, line);
  for (const auto& [label, line] : write_amplification_lines(health.write_amplification)) row(label, line);
  for (const auto& [label, line] : self_test_lines(dev.self_test)) row(label, line);
  for (const auto& [label, line] : across_self_test_lines(health.across_self_test)) row(label, line);
  h += "</dl><ul>";
  size_t shown = 0, passed = 0;
  for (const auto* v : verdicts_worst_first(dev)) {
    if (v->status == "PASS") {
      ++passed;
      continue;
    }
    if (shown++ < 8)
      h += fmt::format("<li class=\"bad\">{} {} {}: {} against {} ({})</li>", esc(v->status), esc(v->test), esc(v->metric), measured_text(*v), limit_text(*v),
                       v->measured ? margin_text(*v) : esc(v->reason));
  }
  if (shown > 8) h += fmt::format("<li class=\"bad\">and {} more not passing</li>", shown - 8);
  if (dev.verdict != "PASS")
    for (const auto& r : dev.reasons) h += "<li>" + esc(r) + "</li>";
  if (passed) h += fmt::format("<li>{} metric(s) passed</li>", passed);
  return h + "</ul></div>";
}

std::string render_report_html(const boost::json::object& report, bool seal_ok) { return render_report_html(decode_report(report), seal_ok); }

std::string render_report_html(const ReportView& r, bool seal_ok) {
  std::string h = fmt::format("<header><h1>diskvet report {}</h1>", verdict_badge(r.verdict));
  if (!seal_ok) h += "<p class=\"warn\">The sha256 seal does not match the content: this report was altered after it was written.</p>";
  if (!r.complete) h += fmt::format("<p class=\"warn\">Partial report: {}</p>", esc(r.aborted));
  if (r.schema_note) h += "<p class=\"meta\">" + esc(*r.schema_note) + "</p>";
  h += fmt::format("<p class=\"meta\">Suite <b>{}</b> &mdash; {}<br>diskvet {} on {} ({}, {} cores, {})<br>{} &ndash; {}</p></header>",
                   esc(r.suite.name), esc(r.suite.description), esc(r.tool_version), esc(r.host.kernel), esc(r.host.cpu),
                   known_as(r.host.cores), human::known(r.host.memory_bytes, format_bytes), esc(r.started), esc(r.finished));
  h += "<section class=\"cards\">";
  for (const auto& dev : r.devices) h += device_card_html(dev);
  h += "</section>";
  for (const auto& n : r.notes) h += "<p class=\"meta\"><i>" + esc(n) + "</i></p>";
  for (const auto& dev : r.devices) h += device_section(dev);
  // The key to the health evidence lines, where a device had any (a loop device or a file has none).
  const bool any_evidence = std::any_of(r.devices.begin(), r.devices.end(), [](const DeviceView& dev) {
    auto ran = [](const std::optional<SelfTestOutcomeView>& st) { return st && !st->result.empty(); };
    return (dev.health.before && dev.health.before->known) || ran(dev.self_test.before) || ran(dev.self_test.after);
  });
  if (any_evidence) {
    h += "<details class=\"meta\"><summary>Health evidence: what each line checks, and its source</summary><dl>";
    for (const auto& [label, text] : health_evidence_sources()) h += "<dt>" + esc(label) + "</dt><dd>" + esc(text) + "</dd>";
    h += "</dl></details>";
  }
  return html_page(fmt::format("diskvet report: {} — {}", r.verdict, r.suite.name), h);
}

}  // namespace diskvet::runner
