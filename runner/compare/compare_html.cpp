// Two reports side by side as one HTML page (see compare.hpp).
#include <fmt/format.h>

#include "runner/compare/compare.hpp"
#include "runner/report/html_page.hpp"
#include "runner/report/human_format.hpp"
#include "runner/report/report_plots.hpp"
#include "runner/report/svg_plot.hpp"

namespace diskvet::runner {

namespace {

std::string esc(const std::string& s) { return html_escape(s); }

constexpr const char* kBaselineColor = "#888";
constexpr const char* kNewColor = "#1f77b4";

// A series of each run, the baseline's dashed; runs without points are left out.
void add_runs(Plot& p, std::vector<std::pair<double, double>> a, std::vector<std::pair<double, double>> b) {
  PlotSeries base{"baseline", kBaselineColor, std::move(a)}, now{"new", kNewColor, std::move(b)};
  base.dashed = true;
  for (auto* s : {&base, &now})
    if (!s->points.empty()) p.series.push_back(std::move(*s));
}

// A plot of latency (log scale) against `x`.
Plot latency_plot(std::string kind, std::string title, std::string latency_label) {
  Plot p;
  p.kind = std::move(kind);
  p.title = std::move(title);
  p.y.label = std::move(latency_label);
  p.y.scale = Scale::log;
  p.y.format = [](double ns) { return human::latency_ns(ns); };
  return p;
}

Plot sweep_pair_plot(const std::string& title, const WorkloadDirection& a, const WorkloadDirection& b) {
  Plot p = latency_plot("compare-sweep", "p99 latency against IOPS, step by step: " + title, "p99 latency (log scale)");
  p.x.label = "IOPS";
  p.x.format = [](double x) { return human::count(x); };
  auto curve = [](const WorkloadDirection& w, const char* label, const char* color, bool dashed) {
    PlotSeries s{label, color, {}};
    s.dashed = dashed;
    for (const auto& st : w.sweep) {
      s.points.emplace_back(st.iops, st.lat_p99_us * 1e3);
      s.point_labels.push_back(human::plain(st.outstanding));
    }
    return s;
  };
  for (auto s : {curve(a, "baseline", kBaselineColor, true), curve(b, "new", kNewColor, false)})
    if (!s.points.empty()) p.series.push_back(std::move(s));
  return p;
}

Plot percentile_pair_plot(const std::string& title, const WorkloadDirection& a, const WorkloadDirection& b) {
  Plot p = latency_plot("compare-percentiles", "Latency by percentile: " + title, "latency (log scale)");
  double max_nines = 2;
  auto on_nines = [&](const std::vector<std::pair<double, double>>& pct) {
    std::vector<std::pair<double, double>> pts;
    for (const auto& [q, ns] : pct) pts.emplace_back(nines(q), ns), max_nines = std::max(max_nines, nines(q));
    return pts;
  };
  add_runs(p, on_nines(a.percentiles_ns), on_nines(b.percentiles_ns));
  p.x = nines_axis(max_nines);
  return p;
}

Plot iops_pair_plot(const std::string& title, const WorkloadDirection& a, const WorkloadDirection& b) {
  Plot p;
  p.kind = "compare-iops";
  p.title = "IOPS over the measured time: " + title;
  p.x.label = "seconds into the measurement";
  p.x.format = [](double s) { return human::plain(s) + " s"; };
  p.y.label = "IOPS";
  p.y.format = [](double x) { return human::count(x); };
  add_runs(p, a.iops_series, b.iops_series);
  return p;
}

std::string who(const DeviceIndex& d) {
  return esc(fmt::format("{} {}{}", d.path, d.model, d.serial.empty() ? "" : " s/n " + d.serial));
}

std::string pair_html(const DevicePair& p) {
  std::string h = fmt::format("<section class=\"device\"><h2>{} &rarr; {} {}</h2><p class=\"meta\">{} vs {} &mdash; matched by {}</p>",
                              verdict_badge(p.a->verdict), verdict_badge(p.b->verdict), who(*p.b), who(*p.a), who(*p.b), esc(p.matched_by));
  if (!p.verdict_changes.empty()) {
    h += "<ul>";
    for (const auto& v : p.verdict_changes) h += "<li><b>" + esc(v) + "</b></li>";
    h += "</ul>";
  }
  h += "<div class=\"scroll\"><table><tr><th>test</th><th>workload</th><th>dir</th><th>metric</th><th>baseline</th><th>new</th><th>ratio</th><th>change</th><th>noise</th></tr>";
  for (const auto& m : p.metrics) {
    const double change = m.a > 0 ? (m.b - m.a) / m.a * 100 : 0;
    std::string cls;
    if (m.beyond_noise.value_or(false)) cls = m.worse_pct > 0 ? "worse" : "better";
    if (m.regression) cls = "FAIL";
    h += fmt::format(
        "<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td "
        "class=\"num\">{}</td><td>{}</td></tr>",
        cls, esc(m.test), esc(m.label_a == m.label_b ? m.label_a : m.label_a + " / " + m.label_b), esc(m.direction), esc(m.kind->label),
        esc(format_metric(*m.kind, m.a)), esc(format_metric(*m.kind, m.b)), m.a > 0 ? esc(human::ratio(m.ratio)) : "-",
        m.a > 0 ? esc(human::change_pct(change)) : "-",
        !m.beyond_noise ? esc(noise_words(m)) : fmt::format("{} &plusmn;{}", *m.beyond_noise ? "<b>beyond</b>" : "within", esc(human::change_pct(*m.noise_pct).substr(1))));
  }
  h += "</table></div>";
  for (const auto& sw : p.sweeps) {
    h += fmt::format("<h3>{} {} {}: the sweep step by step</h3><div class=\"scroll\"><table><tr><th>outstanding</th><th>IOPS baseline</th><th>IOPS "
                     "new</th><th>ratio</th><th>p99 baseline</th><th>p99 new</th><th>p99 change</th></tr>",
                     esc(sw.test), esc(sw.label), esc(sw.direction));
    for (const auto& st : sw.steps) {
      const std::string cls = st.regression ? "FAIL" : "";
      h += fmt::format(
          "<tr class=\"{}\"><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td "
          "class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
          cls, esc(human::plain(st.outstanding)), esc(human::iops(st.iops_a)), esc(human::iops(st.iops_b)), st.iops_a > 0 ? esc(human::ratio(st.iops_b / st.iops_a)) : "-",
          esc(human::latency_us(st.p99_us_a)), esc(human::latency_us(st.p99_us_b)), st.p99_us_a > 0 ? esc(human::change_pct(st.p99_worse_pct)) : "-");
    }
    h += "</table></div>";
    for (double q : sw.only_in_a) h += "<p class=\"meta\">step at " + esc(human::plain(q)) + " outstanding only in the baseline</p>";
    for (double q : sw.only_in_b) h += "<p class=\"meta\">step at " + esc(human::plain(q)) + " outstanding only in the new run</p>";
  }
  if (!p.health.empty() || !p.evidence.empty()) {
    h += "<h3>Health after each run</h3><table><tr><th>counter</th><th>baseline</th><th>new</th></tr>";
    for (const auto& c : p.health)
      h += fmt::format("<tr class=\"{}\"><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>", c.worse ? "worse" : "", esc(c.counter),
                       c.a ? esc(human::plain(*c.a)) : "-", c.b ? esc(human::plain(*c.b)) : "-");
    for (const auto& e : p.evidence)
      h += fmt::format("<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td></tr>", e.worse ? "worse" : "", esc(e.check), esc(e.a), esc(e.b));
    h += "</table>";
  }
  if (const auto plots = compare_plots(p); !plots.empty()) {
    h += "<details open><summary>the two runs drawn over each other</summary><div class=\"plots\">";
    for (const auto& plot : plots) h += render_svg(plot);
    h += "</div></details>";
  }
  for (const auto& w : p.only_in_a) h += "<p class=\"meta\">only in the baseline: " + esc(w) + "</p>";
  for (const auto& w : p.only_in_b) h += "<p class=\"meta\">only in the new run: " + esc(w) + "</p>";
  return h + "</section>";
}

}  // namespace

std::vector<Plot> compare_plots(const DevicePair& pair) {
  std::vector<Plot> out;
  for (const auto& a : pair.a->workloads) {
    const WorkloadDirection* b = pair.b->find(a.key);
    if (!b) continue;
    const std::string title = fmt::format("{} {}{} {}", a.test, a.label, a.label == b->label ? "" : " / " + b->label, a.direction);
    std::vector<Plot> plots;
    if (!a.sweep.empty() && !b->sweep.empty())
      plots.push_back(sweep_pair_plot(fmt::format("{} {} {}", a.test, without_queue_depth(a.label), a.direction), a, *b));
    else
      plots = {percentile_pair_plot(title, a, *b), iops_pair_plot(title, a, *b)};
    for (auto& p : plots)
      if (plotted_points(p) > 0) out.push_back(std::move(p));
  }
  return out;
}

std::string compare_html(const std::vector<Comparison>& cs, const CompareOptions& o) {
  std::string h = "<header><h1>diskvet compare</h1>";
  bool regressed = false, not_compared = false;
  for (const auto& c : cs) regressed = regressed || !c.regressions.empty(), not_compared = not_compared || !c.not_compared.empty();
  h += fmt::format("<p>{}</p>", regressed      ? verdict_badge("FAIL") + " regressions found"
                                : not_compared ? verdict_badge("NOT-JUDGED") + " nothing compared"
                                               : verdict_badge("PASS") + (o.max_regression_pct ? " no regression beyond " + esc((human::plain(*o.max_regression_pct) + "%"))
                                                                                               : std::string(" no verdict got worse")));
  h += "<p class=\"meta\">Ratios are new / baseline. A change is <b>beyond noise</b> when it is larger than the interval-to-interval spread "
       "(coefficient of variation) either run measured; green is better, red worse.</p></header>";
  for (const auto& c : cs) {
    h += fmt::format("<h2>{} (baseline) &rarr; {}</h2>", esc(c.a_name), esc(c.b_name));
    if (c.hosts)
      h += "<p class=\"meta\">Multi-host reports: the merged array's numbers (IOPS and bandwidth summed, percentiles from the summed latency "
           "bins) and each host's own, matched by test and by host name.</p>";
    if (!c.regressions.empty()) {
      h += "<ul class=\"warn\">";
      for (const auto& r : c.regressions) h += "<li>" + esc(r) + "</li>";
      h += "</ul>";
    }
    if (!c.not_compared.empty()) h += "<p class=\"warn\">NOTHING COMPARED: " + esc(c.not_compared) + "</p>";
    for (const auto& u : c.unmatched) h += "<p class=\"warn\">unmatched: " + esc(u) + "</p>";
    for (const auto& p : c.pairs) h += pair_html(p);
  }
  return html_page("diskvet compare", h);
}

}  // namespace diskvet::runner
