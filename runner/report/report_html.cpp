// Report JSON -> one HTML page.
#include "runner/report/report_html.hpp"

#include <fmt/format.h>

#include <cmath>

#include "common/units.hpp"
#include "runner/report/report_json_access.hpp"
#include "runner/report/report_matrix.hpp"
#include "runner/report/svg_plot.hpp"

namespace diskvet::runner {

namespace json = boost::json;
using namespace rj;

namespace {

const char* kStyle =
    "body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:.5em 0}"
    "td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px}th{background:#f4f4f4}"
    ".PASS{background:#cfc}.FAIL{background:#fcc}.INCONCLUSIVE{background:#ffc}.NOT-EVALUATED{background:#eee}.NOT-JUDGED{background:#eee}.ERROR{background:#f9c}"
    ".warn{background:#fcc;padding:.5em}h3{margin-top:1.5em}";

std::string badge(const std::string& s) { return fmt::format("<span class=\"{0}\">&nbsp;{0}&nbsp;</span>", html_escape(s)); }

std::string workload_label(const json::value& w) {
  return fmt::format("{} {} QD{}x{}", str(w, "rw"), format_bytes(bytes(w, "bs")), num(w, "iodepth"), num(w, "numjobs"));
}

std::string interval_plot(const json::value& w) {
  const json::value& res = obj(w, "result");
  Plot p{"IOPS per interval: " + workload_label(w), "seconds into the measurement window", "IOPS", {}, {}, {}};
  PlotSeries rd{"read", "#1f77b4", {}}, wr{"write", "#d62728", {}};
  for (const auto& s : arr(res, "intervals")) {
    double t = num(s, "t_s");
    if (num(obj(s, "read"), "iops") > 0) rd.points.push_back({t, num(obj(s, "read"), "iops")});
    if (num(obj(s, "write"), "iops") > 0) wr.points.push_back({t, num(obj(s, "write"), "iops")});
  }
  if (!rd.points.empty()) p.series.push_back(rd);
  if (!wr.points.empty()) p.series.push_back(wr);
  return render_svg(p);
}

std::string rounds_plot(const json::value& w) {
  const json::value& ss = obj(w, "steady_state");
  Plot p{fmt::format("Steady-state rounds: {} ({})", workload_label(w), flag(ss, "attained") ? "attained" : "not attained"), "round",
         "tracked value", {}, {}, {}};
  PlotSeries s{"tracked", "#2ca02c", {}};
  size_t i = 1;
  for (const auto& r : arr(ss, "rounds")) s.points.push_back({static_cast<double>(i++), num(r, "tracked")});
  p.series.push_back(s);
  const json::value& win = obj(ss, "window");
  if (is_num(win, "first_round")) p.shade_x = std::make_pair(num(win, "first_round") + 1, num(win, "first_round") + num(win, "rounds"));
  return render_svg(p);
}

std::string matrix_rounds_plot(const json::value& m) {
  const json::value& ss = obj(m, "steady_state");
  const json::value& tr = obj(m, "tracked");
  Plot p{fmt::format("Steady-state rounds: {} {} IOPS ({})", mix_label(num(tr, "rwmixread")), bs_label(bytes(tr, "bs")),
                     flag(ss, "attained") ? "attained" : "not attained"),
         "round", "IOPS", {}, {}, {}};
  PlotSeries s{"tracked", "#2ca02c", {}};
  size_t i = 1;
  for (const auto& r : arr(ss, "tracked_iops"))
    if (r.is_number()) s.points.push_back({static_cast<double>(i++), r.to_number<double>()});
  p.series.push_back(s);
  const json::value& win = obj(ss, "measurement_window");
  if (is_num(win, "first_round")) p.shade_x = std::make_pair(num(win, "first_round"), num(win, "last_round"));
  return render_svg(p);
}

std::string percentile_plot(const json::value& w) {
  const json::value& res = obj(w, "result");
  Plot p{"Latency percentiles: " + workload_label(w), "percentile", "latency (us)", {}, {}, {}};
  const char* colors[] = {"#1f77b4", "#d62728"};
  int c = 0;
  for (const char* dir : {"read", "write"}) {
    const json::value& pct = obj(obj(obj(res, dir), "lat_ns"), "percentile");
    PlotSeries s{dir, colors[c++], {}};
    const auto* o = pct.if_object();
    if (!o) continue;
    size_t i = 0;
    std::vector<std::string> labels;
    for (const auto& kv : *o) {
      if (!kv.value().is_number()) continue;
      s.points.push_back({static_cast<double>(i++), kv.value().to_number<double>() / 1e3});
      std::string label(kv.key());
      label = label.substr(0, label.find_last_not_of('0') + 1);  // "99.900000" -> "99.9"
      if (label.ends_with('.')) label.pop_back();
      labels.push_back(label);
    }
    if (!s.points.empty()) {
      p.series.push_back(s);
      // Every fourth label keeps the axis readable; the curve spans 1% .. 99.9999%.
      p.x_tick_labels.clear();
      for (size_t k = 0; k < labels.size(); ++k) p.x_tick_labels.push_back(k % 4 == 0 || k + 1 == labels.size() ? labels[k] : "");
    }
  }
  return render_svg(p);
}

std::string knee_plot(const json::value& w) {
  const json::value& sw = obj(w, "sweep");
  const auto& pts = arr(sw, "points");
  // IOPS and p99 on their own axes: a plateau of IOPS while latency grows is the knee.
  Plot iops{"Max-IOPS sweep (" + str(w, "rw") + "): IOPS, knee shaded", "outstanding I/Os", "IOPS", {}, {}, {}};
  Plot lat{"Max-IOPS sweep (" + str(w, "rw") + "): p99 latency", "outstanding I/Os", "p99 (us)", {}, {}, {}};
  PlotSeries si{"IOPS", "#1f77b4", {}}, sl{"p99", "#ff7f0e", {}};
  for (const auto& pt : pts) {
    si.points.push_back({num(pt, "outstanding"), num(pt, "iops")});
    sl.points.push_back({num(pt, "outstanding"), num(pt, "lat_p99_us")});
  }
  iops.series = {si};
  lat.series = {sl};
  if (auto k = index_below(sw, "knee", pts.size())) {
    double x = num(pts[*k], "outstanding");
    iops.shade_x = lat.shade_x = std::make_pair(x - 0.5, x + 0.5);
  }
  return render_svg(iops) + render_svg(lat);
}

}  // namespace

std::string render_report_html(const json::object& r, bool seal_ok) {
  const json::value doc = r;
  std::string h = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>diskvet report</title><style>";
  h += kStyle;
  h += "</style></head><body>";
  h += fmt::format("<h1>diskvet report: {}</h1>", badge(str(doc, "verdict")));
  if (!seal_ok) h += "<p class=\"warn\">The sha256 seal does not match the content: this report was altered after it was written.</p>";
  if (!flag(doc, "complete")) h += fmt::format("<p class=\"warn\">Partial report: {}</p>", html_escape(str(doc, "aborted")));
  const json::value& suite = obj(doc, "suite");
  const json::value& host = obj(doc, "host");
  h += fmt::format("<p>Suite <b>{}</b> &mdash; {}<br>diskvet {} on {} ({}, {} cores, {})<br>{} .. {}</p>", html_escape(str(suite, "name")),
                   html_escape(str(suite, "description")), html_escape(str(obj(doc, "tool"), "version")), html_escape(str(host, "kernel")),
                   html_escape(str(host, "cpu")), num(host, "cores"), format_bytes(bytes(host, "memory_bytes")),
                   html_escape(str(doc, "started")), html_escape(str(doc, "finished")));
  for (const auto& n : arr(doc, "notes"))
    if (n.is_string()) h += "<p><i>" + html_escape(n.get_string()) + "</i></p>";
  for (const auto& dev : arr(doc, "devices")) {
    h += fmt::format("<h2>{} {}</h2><p>{} {} &mdash; tested {} of {}<br>profile: {} &mdash; {}</p>", html_escape(str(dev, "path")), badge(str(dev, "verdict")),
                     html_escape(str(dev, "model")), html_escape(str(dev, "serial")), format_bytes(bytes(dev, "tested_bytes")),
                     format_bytes(bytes(dev, "size_bytes")), html_escape(str(obj(dev, "profile"), "name")),
                     html_escape(str(obj(dev, "profile"), "reason")));
    h += "<ul>";
    for (const auto& reason : arr(dev, "reasons"))
      if (reason.is_string()) h += "<li>" + html_escape(reason.get_string()) + "</li>";
    const json::value& pre = obj(dev, "precondition");
    if (flag(pre, "performed"))
      h += fmt::format("<li>preconditioning: {:.2f} of {:.2f} capacities written in {}</li>", num(pre, "capacities_written"), num(pre, "capacities_target"),
                       format_duration(num(pre, "elapsed_s")));
    if (flag(obj(dev, "probe"), "performed")) h += "<li>probe: " + html_escape(str(obj(dev, "probe"), "detail")) + "</li>";
    for (const auto& o : arr(dev, "outliers"))
      h += fmt::format("<li class=\"FAIL\">outlier: {} {} = {:.4g}, median {:.4g} ({:.0f}% worse)</li>", html_escape(str(o, "test")),
                       html_escape(str(o, "metric")), num(o, "value"), num(o, "median"), num(o, "worse_pct"));
    const json::value& wd = obj(dev, "watchdog");
    for (const auto& s : arr(wd, "stalls"))
      h += fmt::format("<li class=\"FAIL\">stall: {} at LBA {} in {}: out {:.2f} s{} from {:.2f} s</li>", html_escape(str(s, "direction")), num(s, "lba"),
                       html_escape(str(s, "test")), num(s, "out_s"), flag(s, "completed") ? "" : " and never completed", num(s, "submit_s"));
    const json::value& klog = obj(dev, "kernel_log");
    if (!str(klog, "note").empty()) h += "<li>kernel log: " + html_escape(str(klog, "note")) + "</li>";
    for (const auto& l : arr(klog, "lines"))
      h += fmt::format("<li>kernel [{:.6f}] {}: <code>{}</code></li>", num(l, "kernel_s"), html_escape(str(l, "kind")), html_escape(str(l, "text")));
    h += "</ul><table><tr><th>test</th><th>metric</th><th>expected</th><th>measured</th><th>margin</th><th>verdict</th><th>reason</th></tr>";
    for (const auto& t : arr(dev, "tests"))
      for (const auto& v : arr(t, "verdicts"))
        h += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"{}\">{}</td><td>{}</td></tr>", html_escape(str(v, "test")),
                         html_escape(str(v, "metric")),
                         is_num(v, "expected") ? fmt::format("{} {:.4g}", str(v, "bound") == "min" ? "&ge;" : "&le;", num(v, "expected")) : "-",
                         is_num(v, "measured") ? fmt::format("{:.4g}", num(v, "measured")) : "-",
                         is_num(v, "margin_pct") ? fmt::format("{:+.1f}%", num(v, "margin_pct")) : "-", html_escape(str(v, "status")),
                         html_escape(str(v, "status")), html_escape(str(v, "reason")));
    h += "</table>";
    for (const auto& t : arr(dev, "tests")) {
      h += fmt::format("<h3>{} {}</h3><p>{}</p>", html_escape(str(t, "id")), badge(str(t, "verdict")), html_escape(str(t, "description")));
      if (auto m = read_matrix_table(t)) {
        // A matrix's cells are its table and plot, and the tracked cell's rounds.
        h += matrix_html(str(t, "id"), *m);
        h += matrix_rounds_plot(obj(t, "matrix"));
        continue;
      }
      for (const auto& w : arr(t, "workloads")) {
        if (!flag(w, "ran")) {
          h += "<p>" + html_escape(workload_label(w)) + ": not run: " + html_escape(str(w, "error")) + "</p>";
          continue;
        }
        h += "<p><code>" + html_escape(str(w, "fio")) + "</code></p>";
        const json::value& mw = obj(obj(w, "steady_state"), "measurement_window");
        if (is_num(mw, "first_round"))
          h += fmt::format("<p>Measured in steady state{}: rounds {:.0f}-{:.0f} averaged (range {:.1f}%, slope {:.1f}% of the average)</p>",
                           flag(mw, "steady") ? "" : " <b>NOT attained</b>", num(mw, "first_round"), num(mw, "last_round"), num(mw, "range_pct"),
                           num(mw, "slope_pct"));
        h += "<div>";
        h += interval_plot(w);
        h += percentile_plot(w);
        if (at(w, "steady_state")) h += rounds_plot(w);
        if (at(w, "sweep")) h += knee_plot(w);
        h += "</div>";
      }
    }
  }
  h += "</body></html>\n";
  return h;
}

}  // namespace diskvet::runner
