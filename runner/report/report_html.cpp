// Report JSON -> one HTML page (see report_html.hpp).
#include "runner/report/report_html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "common/units.hpp"
#include "runner/report/html_page.hpp"
#include "runner/report/health_evidence.hpp"
#include "runner/report/human_format.hpp"
#include "runner/report/report_json_access.hpp"
#include "runner/report/report_matrix.hpp"
#include "runner/report/report_plots.hpp"
#include "runner/report/report_schema.hpp"
#include "runner/report/svg_plot.hpp"

namespace diskvet::runner {

namespace json = boost::json;
using namespace rj;

namespace {

std::string esc(const std::string& s) { return html_escape(s); }

// Every verdict of a device, worst first (a failing metric is what the reader looks for).
std::vector<const json::value*> verdicts_worst_first(const json::value& dev) {
  std::vector<const json::value*> v;
  for (const auto& t : arr(dev, "tests"))
    for (const auto& x : arr(t, "verdicts")) v.push_back(&x);
  std::stable_sort(v.begin(), v.end(), [](const json::value* a, const json::value* b) { return verdict_rank(str(*a, "status")) < verdict_rank(str(*b, "status")); });
  return v;
}

std::string limit_text(const json::value& v) {
  if (!is_num(v, "expected")) return "-";
  return (str(v, "bound") == "min" ? "&ge; " : "&le; ") + esc(human::metric_value(str(v, "metric"), num(v, "expected")));
}
std::string measured_text(const json::value& v) { return is_num(v, "measured") ? esc(human::metric_value(str(v, "metric"), num(v, "measured"))) : "-"; }
std::string margin_text(const json::value& v) {
  if (!is_num(v, "expected") || !is_num(v, "measured")) return "-";
  return esc(human::margin(str(v, "bound"), num(v, "expected"), num(v, "measured")));
}

std::string identity_line(const json::value& dev) {
  std::string model = str(dev, "model").empty() ? "unknown model" : str(dev, "model");
  return fmt::format("{} &middot; {}", esc(str(dev, "path")), esc(model));
}

std::string verdict_table(const json::value& dev) {
  auto vs = verdicts_worst_first(dev);
  if (vs.empty()) return "<p>No limits judged on this device.</p>";
  std::string h = "<div class=\"scroll\"><table><tr><th>verdict</th><th>test</th><th>metric</th><th>limit</th><th>measured</th><th>margin</th><th>reason</th></tr>";
  for (const auto* v : vs)
    h += fmt::format("<tr><td class=\"{0}\">{0}</td><td>{1}</td><td>{2}</td><td class=\"num\">{3}</td><td class=\"num\">{4}</td><td>{5}</td><td>{6}</td></tr>",
                     esc(str(*v, "status")), esc(str(*v, "test")), esc(str(*v, "metric")), limit_text(*v), measured_text(*v), margin_text(*v),
                     // A pass says it all in its margin; the runner's reason (raw numbers) explains the others.
                     str(*v, "status") == "PASS" ? "" : esc(str(*v, "reason")));
  return h + "</table></div>";
}

// What happened on the device beside the metrics: reasons, preparation, stalls, kernel lines.
std::string findings(const json::value& dev) {
  std::string h = "<ul>";
  const json::value& capacity = obj(dev, "capacity_probe");
  if (flag(capacity, "performed"))
    h += fmt::format("<li{}>Capacity probe: {} &mdash; real capacity {} of {} claimed: {}</li>", str(capacity, "verdict") == "FAIL" ? " class=\"FAIL\"" : "",
                     esc(str(capacity, "verdict")), format_bytes(bytes(capacity, "real_bytes")), format_bytes(bytes(capacity, "claimed_bytes")),
                     esc(str(capacity, "summary")));
  const json::value& pre = obj(dev, "precondition");
  if (flag(pre, "performed"))
    h += fmt::format("<li>Preconditioning: {:.2f} of {:.2f} capacities written ({}) in {}</li>", num(pre, "capacities_written"),
                     num(pre, "capacities_target"), format_bytes(bytes(pre, "bytes_written")), esc(human::duration_s(num(pre, "elapsed_s"))));
  else if (!str(pre, "reason").empty())
    h += "<li>Preconditioning: " + esc(str(pre, "reason")) + "</li>";
  if (flag(obj(dev, "probe"), "performed")) h += "<li>Probe: " + esc(str(obj(dev, "probe"), "detail")) + "</li>";
  const json::value& purge = obj(dev, "purge");
  if (flag(purge, "requested")) h += fmt::format("<li>Purge: {}{} &mdash; {}</li>", esc(str(purge, "method")), flag(purge, "failed") ? " FAILED" : "", esc(str(purge, "detail")));
  const json::value& v = obj(dev, "verify");
  if (num(v, "blocks_written") + num(v, "blocks_verified") + num(v, "mismatches") > 0)
    h += fmt::format("<li{}>Verification: {} blocks written, {} verified, {} bad blocks found by {} reads</li>", num(v, "mismatches") > 0 ? " class=\"FAIL\"" : "",
                     human::count(num(v, "blocks_written")), human::count(num(v, "blocks_verified")), num(v, "bad_blocks"), num(v, "mismatches"));
  for (const auto& m : arr(v, "first_mismatches"))
    h += fmt::format("<li class=\"FAIL\">Mismatch at LBA {} ({}, at {}): {}</li>", num(m, "lba"), esc(str(m, "kind")), esc(human::duration_s(num(m, "t_s"))),
                     esc(str(m, "detail")));
  for (const auto& e : arr(dev, "slowdowns"))
    h += fmt::format("<li class=\"FAIL\">Slowdown in {}: {:.0f}% below the median for {}: {} ({})</li>", esc(str(e, "test")), num(e, "max_drop_pct"),
                     esc(human::duration_s(num(e, "duration_s"))), esc(str(e, "cause")), esc(str(e, "evidence")));
  const json::value& wd = obj(dev, "watchdog");
  for (const auto& s : arr(wd, "stalls"))
    h += fmt::format("<li class=\"FAIL\">Stall: {} at LBA {} in {} out {}{}</li>", esc(str(s, "direction")), num(s, "lba"), esc(str(s, "test")),
                     esc(human::duration_s(num(s, "out_s"))), flag(s, "completed") ? "" : " and never completed");
  for (const auto& o : arr(dev, "outliers"))
    h += fmt::format("<li class=\"FAIL\">Outlier: {} {} = {}, the median of {} devices is {} ({:.0f}% worse)</li>", esc(str(o, "test")), esc(str(o, "metric")),
                     esc(human::metric_value(str(o, "metric"), num(o, "value"))), num(o, "group_size"), esc(human::metric_value(str(o, "metric"), num(o, "median"))),
                     num(o, "worse_pct"));
  const json::value& klog = obj(dev, "kernel_log");
  if (!str(klog, "note").empty()) h += "<li>Kernel log: " + esc(str(klog, "note")) + "</li>";
  for (const auto& l : arr(klog, "lines"))
    h += fmt::format("<li>Kernel [{:.6f}] {}: <code>{}</code></li>", num(l, "kernel_s"), esc(str(l, "kind")), esc(str(l, "text")));
  const json::value& cpu = obj(dev, "cpu");
  if (obj(cpu, "host").is_object() && at(cpu, "host") && !obj(cpu, "host").as_object().empty())
    h += fmt::format("<li>CPU: diskvet's job threads {}; the host was {:.0f}% busy over the tests</li>", esc(human::duration_s(num(cpu, "job_cpu_s"))),
                     num(obj(cpu, "host"), "busy_pct"));
  return h == "<ul>" ? "" : h + "</ul>";
}

std::string steady_text(const json::value& w) {
  const json::value& ss = obj(w, "steady_state");
  if (!at(w, "steady_state")) return "";
  std::string h = fmt::format("<p>Steady state {} after {} round(s){}.", flag(ss, "attained") ? "attained" : "<b>NOT attained</b>", num(ss, "rounds_used"),
                              str(ss, "workload").empty() ? "" : " of " + esc(str(ss, "workload")) + ", then the sweep");
  const json::value& mw = obj(ss, "measurement_window");
  if (is_num(mw, "first_round"))
    h += fmt::format(" Measured: rounds {:.0f}&ndash;{:.0f} averaged (range {:.1f}%, slope {:.1f}% of the average).", num(mw, "first_round"),
                     num(mw, "last_round"), num(mw, "range_pct"), num(mw, "slope_pct"));
  return h + "</p>";
}

// A workload's numbers in one line: IOPS, bandwidth, mean and p99 per direction.
std::string result_line(const json::value& w) {
  std::string h;
  const json::value& res = obj(w, "result");
  for (const char* dir : {"read", "write"}) {
    const json::value& d = obj(res, dir);
    if (num(d, "total_ios") <= 0) continue;
    const json::value& lat = obj(d, "lat_ns");
    h += fmt::format("<li><b>{}</b>: {}, {}, mean {}, p99 {}, p99.99 {}</li>", dir, esc(human::iops(num(d, "iops"))), esc(human::bandwidth(num(d, "bw_bytes"))),
                     esc(human::latency_ns(num(lat, "mean"))), esc(human::latency_ns(num(obj(lat, "percentile"), "99.000000"))),
                     esc(human::latency_ns(num(obj(lat, "percentile"), "99.990000"))));
  }
  return h.empty() ? "" : "<ul>" + h + "</ul>";
}

std::string device_section(const json::value& dev) {
  // On paper each device's pages open with its card, so a printed device stands alone; on a screen
  // the cards are already the first thing on the page.
  std::string h = fmt::format("<section class=\"device\"><h2>{} {}</h2><div class=\"print-only\">{}</div>", identity_line(dev),
                              verdict_badge(str(dev, "verdict")), device_card_html(dev));
  h += "<h3>Verdicts, failing first</h3>" + verdict_table(dev);
  h += findings(dev);
  if (auto hp = health_plot(dev)) h += "<div class=\"plots\">" + render_svg(*hp) + "</div>";
  for (const auto& t : arr(dev, "tests")) {
    h += fmt::format("<h3>{} {}</h3>", esc(str(t, "id")), verdict_badge(str(t, "verdict")));
    if (!str(t, "description").empty()) h += "<p class=\"meta\">" + esc(str(t, "description")) + "</p>";
    if (str(t, "verdict") != "PASS") {
      std::string why;
      for (const auto& r : arr(t, "reasons"))
        if (r.is_string()) why += "<li>" + esc(std::string(r.get_string())) + "</li>";
      if (!why.empty()) h += "<ul class=\"reasons\">" + why + "</ul>";
    }
    if (auto m = read_matrix_table(t)) {
      h += matrix_html(str(t, "id"), *m);
      continue;
    }
    for (const auto& w : arr(t, "workloads")) {
      h += "<h4>" + esc(workload_label(w)) + "</h4>";
      if (!flag(w, "ran")) {
        h += "<p>Not run: " + esc(str(w, "error").empty() ? str(w, "skipped") : str(w, "error")) + "</p>";
        continue;
      }
      h += result_line(w) + steady_text(w);
      if (const json::value& b = obj(w, "burst"); !str(b, "summary").empty())
        h += "<p class=\"burst\" data-burst=\"" + std::string(flag(b, "found") ? "step" : "none") + "\">Burst: " + esc(str(b, "summary")) + ".</p>";
      auto [iops, lat] = timeline_plots(w, t, dev);
      h += "<div class=\"plots\">" + render_svg(percentile_plot(w, t));
      if (auto sp = sweep_plot(w)) h += render_svg(*sp);
      h += render_svg(iops) + render_svg(lat) + "</div>";
      if (!str(w, "fio").empty()) h += "<details><summary>Reproduce with fio</summary><pre>" + esc(str(w, "fio")) + "</pre></details>";
    }
    // The fast path's first test once more on the block path: the numbers beside, never judged.
    for (const auto& w : arr(t, "block_path"))
      if (flag(w, "ran")) h += "<p class=\"beside\">On the block path (not judged): " + esc(workload_label(w)) + "</p>" + result_line(w);
  }
  return h + "</section>";
}

std::string health_counters(const json::value& h) {
  std::vector<std::string> parts;
  if (is_num(h, "temperature_c")) parts.push_back(human::plain(num(h, "temperature_c")) + " °C");
  if (is_num(h, "percentage_used")) parts.push_back(human::plain(num(h, "percentage_used")) + "% used");
  if (is_num(h, "available_spare_pct")) parts.push_back(human::plain(num(h, "available_spare_pct")) + "% spare");
  if (is_num(h, "media_errors")) parts.push_back(human::plain(num(h, "media_errors")) + " media errors");
  if (is_num(h, "reallocated_sectors")) parts.push_back(human::plain(num(h, "reallocated_sectors")) + " reallocated");
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : ", ") + p;
  return s;
}

}  // namespace

std::string health_words(const json::value& h) {
  if (!flag(h, "known")) return "unknown (no health source)";
  std::string s = arr(h, "problems").empty() ? "healthy" : "UNHEALTHY";
  for (const auto& p : arr(h, "problems"))
    if (p.is_string()) s += ": " + std::string(p.get_string());
  const std::string counters = health_counters(h);
  return counters.empty() ? s : s + " (" + counters + ")";
}

std::string device_card_html(const json::value& dev) {
  const std::string status = str(dev, "verdict").empty() ? "NOT-JUDGED" : str(dev, "verdict");
  std::string h = fmt::format("<div class=\"card {}\"><h2>{} {}</h2><dl>", esc(status), verdict_badge(status), identity_line(dev));
  auto row = [&](const std::string& k, const std::string& v) { h += fmt::format("<dt>{}</dt><dd>{}</dd>", k, v.empty() ? "&mdash;" : esc(v)); };
  row("serial", str(dev, "serial"));
  row("firmware", str(dev, "firmware"));
  row("size", bytes(dev, "size_bytes") ? format_bytes(bytes(dev, "size_bytes")) + " (tested " + format_bytes(bytes(dev, "tested_bytes")) + ")" : "");
  const json::value& prof = obj(dev, "profile");
  std::string profile = str(prof, "name").empty() ? "none" : str(prof, "name");
  if (!str(prof, "reason").empty()) profile += " — " + str(prof, "reason");
  row("profile", profile);
  if (const json::value& fp = obj(dev, "fast_path"); !str(fp, "summary").empty()) row("fast path", str(fp, "summary"));
  if (!str(prof, "source").empty()) row("limits from", str(prof, "source"));
  const json::value& health = obj(dev, "health");
  row("health before", health_words(obj(health, "before")));
  row("health after", health_words(obj(health, "after")));
  if (const json::value& wa = obj(health, "write_accounting"); !str(wa, "words").empty()) {  // absent: an empty object
    row("writes counted", (flag(wa, "fails") ? "DISAGREE: " : "") + str(wa, "words"));
    if (!str(wa, "other_writer").empty()) row("another writer", str(wa, "other_writer"));
  }
  for (const auto& [label, line] : error_log_lines(obj(health, "error_log"))) row(label, line);
  for (const auto& [label, line] : smart_counter_lines(obj(health, "smart_counters"))) row(label, line);
  for (const auto& [label, line] : smart_log_lines(obj(health, "sata_sas_logs"))) row(label, line);
  for (const auto& [label, line] : write_amplification_lines(obj(health, "write_amplification"))) row(label, line);
  for (const auto& [label, line] : self_test_lines(obj(dev, "self_test"))) row(label, line);
  for (const auto& [label, line] : across_self_test_lines(obj(health, "across_self_test"))) row(label, line);
  h += "</dl><ul>";
  size_t shown = 0, passed = 0;
  for (const auto* v : verdicts_worst_first(dev)) {
    if (str(*v, "status") == "PASS") {
      ++passed;
      continue;
    }
    if (shown++ < 8)
      h += fmt::format("<li class=\"bad\">{} {} {}: {} against {} ({})</li>", esc(str(*v, "status")), esc(str(*v, "test")), esc(str(*v, "metric")),
                       measured_text(*v), limit_text(*v), is_num(*v, "measured") ? margin_text(*v) : esc(str(*v, "reason")));
  }
  if (shown > 8) h += fmt::format("<li class=\"bad\">and {} more not passing</li>", shown - 8);
  for (const auto& r : arr(dev, "reasons"))
    if (r.is_string() && str(dev, "verdict") != "PASS") h += "<li>" + esc(std::string(r.get_string())) + "</li>";
  if (passed) h += fmt::format("<li>{} metric(s) passed</li>", passed);
  return h + "</ul></div>";
}

std::string render_report_html(const json::object& r, bool seal_ok) {
  const json::value doc = r;
  std::string h = fmt::format("<header><h1>diskvet report {}</h1>", verdict_badge(str(doc, "verdict")));
  if (!seal_ok) h += "<p class=\"warn\">The sha256 seal does not match the content: this report was altered after it was written.</p>";
  if (!flag(doc, "complete")) h += fmt::format("<p class=\"warn\">Partial report: {}</p>", esc(str(doc, "aborted")));
  if (auto note = schema_note(doc)) h += "<p class=\"meta\">" + esc(*note) + "</p>";
  const json::value& suite = obj(doc, "suite");
  const json::value& host = obj(doc, "host");
  h += fmt::format("<p class=\"meta\">Suite <b>{}</b> &mdash; {}<br>diskvet {} on {} ({}, {} cores, {})<br>{} &ndash; {}</p></header>", esc(str(suite, "name")),
                   esc(str(suite, "description")), esc(str(obj(doc, "tool"), "version")), esc(str(host, "kernel")), esc(str(host, "cpu")), num(host, "cores"),
                   format_bytes(bytes(host, "memory_bytes")), esc(str(doc, "started")), esc(str(doc, "finished")));
  h += "<section class=\"cards\">";
  for (const auto& dev : arr(doc, "devices")) h += device_card_html(dev);
  h += "</section>";
  for (const auto& n : arr(doc, "notes"))
    if (n.is_string()) h += "<p class=\"meta\"><i>" + esc(std::string(n.get_string())) + "</i></p>";
  for (const auto& dev : arr(doc, "devices")) h += device_section(dev);
  // The key to the health evidence lines, where a device had any (a loop device or a file has none).
  const json::array& devices = arr(doc, "devices");
  const bool any_evidence = std::any_of(devices.begin(), devices.end(), [](const json::value& dev) {
    return flag(obj(obj(dev, "health"), "before"), "known") || !str(obj(obj(dev, "self_test"), "before"), "result").empty() ||
           !str(obj(obj(dev, "self_test"), "after"), "result").empty();
  });
  if (any_evidence) {
    h += "<details class=\"meta\"><summary>Health evidence: what each line checks, and its source</summary><dl>";
    for (const auto& [label, text] : health_evidence_sources()) h += "<dt>" + esc(label) + "</dt><dd>" + esc(text) + "</dd>";
    h += "</dl></details>";
  }
  return html_page(fmt::format("diskvet report: {} — {}", str(doc, "verdict"), str(suite, "name")), h);
}

}  // namespace diskvet::runner
