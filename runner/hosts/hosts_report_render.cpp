// Text and HTML of a multi-host report.
#include "runner/hosts/hosts_report_render.hpp"

#include <fmt/format.h>

#include <vector>

#include "common/units.hpp"
#include "runner/report/svg_plot.hpp"

namespace diskvet::runner {

namespace json = boost::json;

namespace {

std::string str(const json::object& o, std::string_view k) {
  const json::value* v = o.if_contains(k);
  if (!v) return {};
  if (v->is_string()) return std::string(v->get_string());
  if (v->is_null()) return {};
  return json::serialize(*v);
}
double num(const json::value* v) { return v && v->is_number() ? v->to_number<double>() : 0; }
const json::object* obj(const json::object& o, std::string_view k) {
  const json::value* v = o.if_contains(k);
  return v ? v->if_object() : nullptr;
}
const json::array* arr(const json::object& o, std::string_view k) {
  const json::value* v = o.if_contains(k);
  return v ? v->if_array() : nullptr;
}

// One row of numbers for a client_stats entry (a host) or a merged object: IOPS, MB/s, mean, p99.
struct Row {
  std::string name;
  double iops = 0, bw = 0, mean_ns = 0, p99_ns = 0;
};

double p99_of(const json::object* lat) {
  const json::object* p = lat ? obj(*lat, "percentile") : nullptr;
  return p ? num(p->if_contains("99.000000")) : 0;
}

Row row_of(const std::string& name, const json::object& dirs, bool merged) {
  Row r{name};
  const char* sides[] = {"read", "write"};
  if (merged) {
    const json::object* t = obj(dirs, "total");
    if (!t) return r;
    r.iops = num(t->if_contains("iops"));
    r.bw = num(t->if_contains("bw_bytes"));
    const json::object* lat = obj(*t, "lat_ns");
    r.mean_ns = lat ? num(lat->if_contains("mean")) : 0;
    r.p99_ns = p99_of(lat);
    return r;
  }
  double n_total = 0;
  for (const char* s : sides) {
    const json::object* d = obj(dirs, s);
    if (!d) continue;
    r.iops += num(d->if_contains("iops"));
    r.bw += num(d->if_contains("bw_bytes"));
    const json::object* lat = obj(*d, "lat_ns");
    const double n = lat ? num(lat->if_contains("N")) : 0;
    if (n > 0) {
      r.mean_ns += num(lat->if_contains("mean")) * n;
      n_total += n;
      r.p99_ns = std::max(r.p99_ns, p99_of(lat));  // the slower direction's p99
    }
  }
  if (n_total > 0) r.mean_ns /= n_total;
  return r;
}

std::vector<Row> workload_rows(const json::object& w) {
  std::vector<Row> rows;
  if (const json::object* hosts = obj(w, "hosts"))
    for (const auto& kv : *hosts)
      if (kv.value().is_object()) rows.push_back(row_of(std::string(kv.key()), kv.value().as_object(), false));
  if (const json::object* m = obj(w, "merged")) rows.push_back(row_of("merged", *m, true));
  return rows;
}

std::string workload_title(const json::object& w) {
  return fmt::format("{} {} QD{} x{}", str(w, "rw"), format_bytes(static_cast<uint64_t>(num(w.if_contains("bs_bytes")))), str(w, "iodepth"),
                     str(w, "numjobs"));
}

// A workload's steady-state rounds in words: "steady state attained in 3 rounds (merged IOPS)",
// "NOT steady after 25 of at most 25 rounds (merged IOPS): not judged"; empty without rounds.
std::string steady_text(const json::object& w) {
  const json::object* ss = obj(w, "steady_state");
  if (!ss) return {};
  const json::value* at = ss->if_contains("attained");
  const bool attained = at && at->is_bool() && at->get_bool();
  const json::value* rv = ss->if_contains("rounds");
  const size_t rounds = rv && rv->is_array() ? rv->get_array().size() : static_cast<size_t>(num(rv));
  const json::object* c = obj(*ss, "criteria");
  const std::string max = c ? str(*c, "max_rounds") : std::string();
  std::string t = attained ? fmt::format("steady state attained in {} round{}", rounds, rounds == 1 ? "" : "s")
                           : fmt::format("NOT steady after {} round{}{}", rounds, rounds == 1 ? "" : "s", max.empty() ? "" : " of at most " + max);
  std::string what = str(*ss, "tracks");
  if (!str(*ss, "workload").empty()) what += (what.empty() ? "" : " of ") + str(*ss, "workload");
  if (!str(*ss, "decided_by").empty()) what = "decided by " + str(*ss, "decided_by");
  if (!what.empty()) t += " (" + what + ")";
  if (!attained && str(*ss, "required") == "true") t += ": required, so not judged";
  return t;
}

// A sweep's steps: "QD1 x1 120k, QD8 x1 410k, QD32 x1 420k".
std::string sweep_text(const json::object& w) {
  const json::array* steps = arr(w, "sweep");
  if (!steps || steps->empty()) return {};
  std::string t;
  for (const auto& sv : *steps) {
    if (!sv.is_object()) continue;
    const json::object& s = sv.as_object();
    const json::object* m = obj(s, "merged");
    const json::object* tot = m ? obj(*m, "total") : nullptr;
    t += fmt::format("{}QD{} x{} {}", t.empty() ? "" : ", ", str(s, "iodepth"), str(s, "numjobs"), tot ? format_count(num(tot->if_contains("iops"))) : "-");
  }
  return t;
}

// A matrix test's rounds: "matrix: 4 rounds, tracked cell 0% read 4 KiB: steady state attained".
std::string matrix_text(const json::object& test) {
  const json::object* m = obj(test, "matrix");
  if (!m) return {};
  const json::object* ss = obj(*m, "steady_state");
  const json::object* tr = obj(*m, "tracked");
  const json::value* at = ss ? ss->if_contains("attained") : nullptr;
  const bool attained = at && at->is_bool() && at->get_bool();
  return fmt::format("matrix: {} round{} of every cell, tracked cell {}% read {}: {}{}", str(*m, "rounds_run"), str(*m, "rounds_run") == "1" ? "" : "s",
                     tr ? str(*tr, "rwmixread") : "?", tr ? format_bytes(static_cast<uint64_t>(num(tr->if_contains("bs")))) : "?",
                     attained ? "steady state attained" : "NOT steady", !attained && ss && str(*ss, "required") == "true" ? " (required: not judged)" : "");
}

}  // namespace

bool is_hosts_report(const json::object& doc) {
  const json::value* k = doc.if_contains("kind");
  return k && k->is_string() && k->get_string() == kHostsReportKind;
}

std::string render_hosts_text(const json::object& doc) {
  std::string t = fmt::format("diskvet multi-host run: suite {}, profile {}\n{} {} (exit {})\n", str(doc, "suite"), str(doc, "profile"),
                              str(doc, "status"), str(doc, "verdict"), str(doc, "exit_code"));
  if (!str(doc, "error").empty()) t += "error: " + str(doc, "error") + "\n";
  if (!str(doc, "not_judged").empty()) t += "not judged: " + str(doc, "not_judged") + "\n";
  t += fmt::format("\n{:<16} {:<17} {:<10} {}\n", "HOST", "STATE", "FIO", "DEVICES");
  if (const json::array* hosts = arr(doc, "hosts"))
    for (const auto& hv : *hosts) {
      if (!hv.is_object()) continue;
      const json::object& h = hv.as_object();
      std::string devs;
      if (const json::array* d = arr(h, "devices"))
        for (const auto& dv : *d)
          if (dv.is_object())
            devs += fmt::format("{}{} ({})", devs.empty() ? "" : ", ", str(dv.as_object(), "path"),
                                dv.as_object().contains("refusal") ? "REFUSED" : (str(dv.as_object(), "held") == "true" ? "held" : "read only"));
      t += fmt::format("{:<16} {:<17} {:<10} {}\n", str(h, "name"), str(h, "state"), str(h, "fio_version"), devs);
      const std::string reason = str(h, "reason");
      if (!reason.empty()) t += fmt::format("  {} at {}\n", reason, str(h, "when"));
      // Why each device was refused, where the host's reason does not already say it (a report of
      // an older diskvet named only the first).
      if (const json::array* d = arr(h, "devices"))
        for (const auto& dv : *d)
          if (dv.is_object() && !str(dv.as_object(), "refusal").empty() && reason.find(str(dv.as_object(), "refusal")) == std::string::npos)
            t += fmt::format("  {} refused: {}\n", str(dv.as_object(), "path"), str(dv.as_object(), "refusal"));
    }
  if (const json::array* tests = arr(doc, "tests"))
    for (const auto& tv : *tests) {
      if (!tv.is_object()) continue;
      const json::object& test = tv.as_object();
      t += fmt::format("\n{}: {}\n", str(test, "id"), str(test, "status").empty() ? "NOT-JUDGED" : str(test, "status"));
      if (const std::string mx = matrix_text(test); !mx.empty()) t += "  " + mx + "\n";
      if (const json::array* ws = arr(test, "workloads"))
        for (const auto& wv : *ws) {
          if (!wv.is_object()) continue;
          const json::object& w = wv.as_object();
          const json::object* m = obj(w, "merged");
          t += fmt::format("  {}  start spread {} ms{}\n", workload_title(w), m ? str(*m, "start_spread_ms") : std::string("?"),
                           str(w, "not_judged").empty() ? "" : "  (not judged: " + str(w, "not_judged") + ")");
          if (const std::string ss = steady_text(w); !ss.empty()) t += "    " + ss + "\n";
          if (const std::string sw = sweep_text(w); !sw.empty()) t += "    sweep: " + sw + "\n";
          t += fmt::format("    {:<16} {:>12} {:>10} {:>10} {:>10}\n", "host", "IOPS", "MB/s", "mean", "p99");
          for (const Row& r : workload_rows(w))
            t += fmt::format("    {:<16} {:>12} {:>10.1f} {:>10} {:>10}\n", r.name, format_count(r.iops), r.bw / 1e6, format_ns(r.mean_ns), format_ns(r.p99_ns));
        }
      if (const json::array* vs = arr(test, "verdicts"))
        for (const auto& vv : *vs)
          if (vv.is_object()) t += fmt::format("  {} {}: {}\n", str(vv.as_object(), "status"), str(vv.as_object(), "metric"), str(vv.as_object(), "reason"));
      if (const json::object* hv = obj(test, "host_verdicts"))
        for (const auto& kv : *hv)
          if (kv.value().is_object()) t += fmt::format("  host {}: {}\n", std::string(kv.key()), str(kv.value().as_object(), "status"));
    }
  return t;
}

std::string render_hosts_html(const json::object& doc, bool seal_ok) {
  std::string h = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>diskvet multi-host report</title><style>"
                  "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:0.5em 0 1.5em}"
                  "td,th{border:1px solid #999;padding:0.2em 0.6em;text-align:right}td:first-child,th:first-child{text-align:left}"
                  ".merged{font-weight:bold;background:#eef}</style></head><body>";
  h += fmt::format("<h1>diskvet multi-host run: {}</h1><p>{} {} (exit {}), profile {}</p>", html_escape(str(doc, "suite")),
                   html_escape(str(doc, "status")), html_escape(str(doc, "verdict")), html_escape(str(doc, "exit_code")), html_escape(str(doc, "profile")));
  if (!seal_ok) h += "<p><strong>WARNING: the sha256 seal does not match: the report was altered after it was written.</strong></p>";
  if (!str(doc, "error").empty()) h += "<p>error: " + html_escape(str(doc, "error")) + "</p>";
  h += "<h2>Hosts</h2><table><tr><th>host</th><th>state</th><th>fio</th><th>devices</th><th>why</th></tr>";
  if (const json::array* hosts = arr(doc, "hosts"))
    for (const auto& hv : *hosts) {
      if (!hv.is_object()) continue;
      const json::object& o = hv.as_object();
      std::string devs;
      if (const json::array* d = arr(o, "devices"))
        for (const auto& dv : *d)
          if (dv.is_object()) {
            const std::string refusal = str(dv.as_object(), "refusal");
            devs += html_escape(str(dv.as_object(), "path")) +
                    (!refusal.empty() ? " (REFUSED: " + html_escape(refusal) + ")" : str(dv.as_object(), "held") == "true" ? " (held)" : "") + "<br>";
          }
      h += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", html_escape(str(o, "name")), html_escape(str(o, "state")),
                       html_escape(str(o, "fio_version")), devs, html_escape(str(o, "reason")));
    }
  h += "</table>";
  if (const json::array* tests = arr(doc, "tests"))
    for (const auto& tv : *tests) {
      if (!tv.is_object()) continue;
      const json::object& test = tv.as_object();
      h += fmt::format("<h2>{}: {}</h2>", html_escape(str(test, "id")), html_escape(str(test, "status")));
      if (const std::string mx = matrix_text(test); !mx.empty()) h += "<p>" + html_escape(mx) + "</p>";
      if (const json::array* ws = arr(test, "workloads"))
        for (const auto& wv : *ws) {
          if (!wv.is_object()) continue;
          const json::object& w = wv.as_object();
          h += fmt::format("<h3>{}</h3>", html_escape(workload_title(w)));
          if (const std::string ss = steady_text(w); !ss.empty()) h += "<p>" + html_escape(ss) + "</p>";
          if (const std::string sw = sweep_text(w); !sw.empty()) h += "<p>sweep: " + html_escape(sw) + "</p>";
          if (!str(w, "not_judged").empty()) h += "<p>not judged: " + html_escape(str(w, "not_judged")) + "</p>";
          h += "<table><tr><th>host</th><th>IOPS</th><th>MB/s</th><th>mean</th><th>p99</th></tr>";
          for (const Row& r : workload_rows(w))
            h += fmt::format("<tr{}><td>{}</td><td>{}</td><td>{:.1f}</td><td>{}</td><td>{}</td></tr>", r.name == "merged" ? " class=\"merged\"" : "",
                             html_escape(r.name), format_count(r.iops), r.bw / 1e6, format_ns(r.mean_ns), format_ns(r.p99_ns));
          h += "</table>";
        }
      if (const json::array* vs = arr(test, "verdicts")) {
        h += "<table><tr><th>metric</th><th>status</th><th>reason</th></tr>";
        for (const auto& vv : *vs)
          if (vv.is_object())
            h += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td></tr>", html_escape(str(vv.as_object(), "metric")),
                             html_escape(str(vv.as_object(), "status")), html_escape(str(vv.as_object(), "reason")));
        h += "</table>";
      }
    }
  return h + "</body></html>\n";
}

}  // namespace diskvet::runner
