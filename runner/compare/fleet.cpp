// Many reports as one fleet (see fleet.hpp).
#include "runner/compare/fleet.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "common/units.hpp"
#include "runner/report/html_page.hpp"
#include "runner/report/human_format.hpp"
#include "runner/report/svg_plot.hpp"

namespace diskvet::runner {

namespace {

std::string group_key(const DeviceIndex& d) { return fmt::format("{} | fw {} | {}", d.model.empty() ? "unknown model" : d.model, d.firmware.empty() ? "?" : d.firmware, format_bytes(d.size_bytes)); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The columns of a drive: IOPS and p99 of each workload direction; a sweep's at the common depth.
void add_columns(const DeviceIndex& d, std::vector<FleetColumn>& cols, std::set<std::string>& seen) {
  for (const auto& w : d.workloads)
    for (const char* m : {"iops", "lat_p99"}) {
      const std::string id = w.key + ":" + m;
      if (!seen.insert(id).second) continue;
      const CompareMetric* k = find_compare_metric(m);
      cols.push_back({id, fmt::format("{} {} {}{}", w.test, w.direction, std::string(m) == "iops" ? "IOPS" : "p99", w.sweep.empty() ? "" : " at common QD"), k,
                      !w.sweep.empty()});
    }
}

}  // namespace

namespace {

// A sweep column of a group: the largest outstanding count every drive of the group that swept the
// workload has a step at.
std::optional<double> common_outstanding(const std::vector<FleetRow>& rows, const std::vector<size_t>& idx, const std::string& wkey) {
  std::optional<std::set<double>> shared;
  for (size_t i : idx) {
    const WorkloadDirection* w = rows[i].device.find(wkey);
    if (!w || w->sweep.empty()) continue;
    std::set<double> qd;
    for (const auto& s : w->sweep) qd.insert(s.outstanding);
    if (!shared) {
      shared = qd;
      continue;
    }
    std::set<double> both;
    std::set_intersection(shared->begin(), shared->end(), qd.begin(), qd.end(), std::inserter(both, both.begin()));
    shared = both;
  }
  if (shared && !shared->empty()) return *shared->rbegin();
  return std::nullopt;
}

// One column of one group: each drive's value (at the common step for a sweep column), then, with
// two drives or more, how far each is from the group's median and whether that makes it an outlier.
void fill_column(std::vector<FleetRow>& rows, const std::vector<size_t>& idx, const FleetColumn& col, FleetGroup& g,
                 const FleetOptions& o) {
  const std::string wkey = col.id.substr(0, col.id.rfind(':'));
  std::optional<double> common;
  if (col.at_common_qd) {
    common = common_outstanding(rows, idx, wkey);
    if (!common) return;
    g.common_outstanding[col.id] = *common;
  }
  std::vector<double> values;
  for (size_t i : idx) {
    const WorkloadDirection* w = rows[i].device.find(wkey);
    if (!w) continue;
    FleetCell cell;
    if (common) {
      for (const auto& s : w->sweep)
        if (s.outstanding == *common) cell.value = std::string(col.kind->name) == "iops" ? s.iops : s.lat_p99_us * 1e3;
      cell.outstanding = common;
    } else if (auto it = w->metrics.find(col.kind->name); it != w->metrics.end()) {
      cell.value = it->second.value;
    }
    if (!cell.value) continue;
    values.push_back(*cell.value);
    rows[i].cells[col.id] = cell;
  }
  if (values.size() < 2) return;
  const double med = median(values);
  if (!(med > 0)) return;
  for (size_t i : idx) {
    auto it = rows[i].cells.find(col.id);
    if (it == rows[i].cells.end()) continue;
    FleetCell& c = it->second;
    c.median = med;
    c.off_pct = col.kind->better == Better::higher ? (med - *c.value) / med * 100 : (*c.value - med) / med * 100;
    c.outlier = c.off_pct > o.outlier_pct;
    if (c.outlier)
      rows[i].outliers.push_back(fmt::format(
          "{} {} ({}% {} the median {} of {} identical drives{})", col.label, format_metric(*col.kind, *c.value),
          human::plain(std::round(c.off_pct)), col.kind->better == Better::higher ? "below" : "above", format_metric(*col.kind, med),
          idx.size(), c.outstanding ? fmt::format(", at {} outstanding", human::plain(*c.outstanding)) : ""));
  }
}

}  // namespace

Fleet build_fleet(const std::vector<ReportIndex>& reports, const FleetOptions& o) {
  Fleet f;
  f.outlier_pct = o.outlier_pct;
  std::set<std::string> seen;
  for (const auto& r : reports)
    for (const auto& d : r.devices) {
      add_columns(d, f.columns, seen);
      f.rows.push_back(FleetRow{r.name, d, group_key(d), 0, {}, {}});
    }
  std::map<std::string, std::vector<size_t>> members;
  for (size_t i = 0; i < f.rows.size(); ++i) members[f.rows[i].group].push_back(i);
  for (auto& [key, idx] : members) {
    FleetGroup g{key, f.rows[idx[0]].device.model, f.rows[idx[0]].device.firmware, f.rows[idx[0]].device.size_bytes, idx.size(), 0, 0, {}};
    for (const auto& col : f.columns) fill_column(f.rows, idx, col, g, o);
    for (size_t i : idx) {
      f.rows[i].group_size = idx.size();
      g.failing += f.rows[i].device.verdict != "PASS";
      g.outliers += !f.rows[i].outliers.empty();
    }
    f.groups.push_back(std::move(g));
  }
  std::stable_sort(f.rows.begin(), f.rows.end(), [](const FleetRow& a, const FleetRow& b) {
    const int ra = verdict_rank(a.device.verdict), rb = verdict_rank(b.device.verdict);
    if (ra != rb) return ra < rb;
    if (a.outliers.empty() != b.outliers.empty()) return !a.outliers.empty();
    if (a.group != b.group) return a.group < b.group;
    return a.device.serial < b.device.serial;
  });
  std::stable_sort(f.groups.begin(), f.groups.end(), [](const FleetGroup& a, const FleetGroup& b) { return a.failing + a.outliers > b.failing + b.outliers; });
  return f;
}

namespace {

// The depth each swept workload of a group was compared at, once per workload (its IOPS and p99
// columns share it): "max-iops/randread#0/read" -> 4.
std::map<std::string, double> compared_depths(const FleetGroup& g) {
  std::map<std::string, double> out;
  for (const auto& [col, qd] : g.common_outstanding) out[col.substr(0, col.rfind(':'))] = qd;
  return out;
}

}  // namespace

std::string fleet_text(const Fleet& f) {
  std::string out = fmt::format("fleet: {} drive(s) in {} group(s) of identical drives (model, firmware, capacity)\n", f.rows.size(), f.groups.size());
  for (const auto& g : f.groups) {
    out += fmt::format("  group {}: {} drive(s), {} not passing, {} outlier(s)\n", g.key, g.drives, g.failing, g.outliers);
    for (const auto& [workload, qd] : compared_depths(g)) out += fmt::format("    {} compared at {} outstanding I/Os\n", workload, human::plain(qd));
  }
  out += fmt::format("\n  {:<13} {:<22} {:<24} {:<10} {}\n", "verdict", "serial", "path", "group", "file");
  for (const auto& r : f.rows) {
    out += fmt::format("  {:<13} {:<22} {:<24} {:<10} {}\n", r.device.verdict.empty() ? "NOT-JUDGED" : r.device.verdict,
                       r.device.serial.empty() ? "-" : r.device.serial, r.device.path, fmt::format("of {}", r.group_size), r.file);
    for (const auto& x : r.device.failing) out += "      failing: " + x + "\n";
    for (const auto& x : r.device.evidence.problems) out += "      health evidence: " + x + "\n";
    for (const auto& x : r.outliers) out += "      OUTLIER: " + x + "\n";
  }
  return out;
}

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

}  // namespace

std::string fleet_csv(const Fleet& f) {
  std::string out =
      "verdict,serial,model,firmware,size_bytes,path,report,group_size,outliers,writes_counted,error_log_new,error_log_failing,"
      "smart_counters_grown,self_test_before,self_test_after,sata_sas_log_new,sata_sas_log_failing,write_amplification";
  for (const auto& c : f.columns) {
    out += ',';
    out += csv_field(c.label + (c.kind->better == Better::higher ? "" : " (ns)"));
    if (c.at_common_qd) {
      out += ',';
      out += csv_field(c.label + " outstanding");
    }
  }
  out += "\n";
  for (const auto& r : f.rows) {
    std::string outl;
    for (const auto& x : r.outliers) {
      if (!outl.empty()) outl += "; ";
      outl += x;
    }
    const HealthEvidence& e = r.device.evidence;
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}", csv_field(r.device.verdict), csv_field(r.device.serial), csv_field(r.device.model),
                       csv_field(r.device.firmware), r.device.size_bytes, csv_field(r.device.path), csv_field(r.file), r.group_size, csv_field(outl),
                       e.writes.value_or(""), e.error_log_new ? std::to_string(*e.error_log_new) : "", e.error_log_new ? std::to_string(e.error_log_failing) : "",
                       e.smart_counters_compared ? std::to_string(e.smart_counters_grown) : "", e.self_test_before.value_or(""), e.self_test_after.value_or(""),
                       e.sata_sas_log_new ? std::to_string(*e.sata_sas_log_new) : "", e.sata_sas_log_new ? std::to_string(e.sata_sas_log_failing) : "",
                       csv_field(e.write_amplification.value_or("")));
    for (const auto& c : f.columns) {
      auto it = r.cells.find(c.id);
      const bool has = it != r.cells.end() && it->second.value;
      out += ',';
      if (has) out += fmt::format("{:.1f}", *it->second.value);  // fixed point: a spreadsheet reads it, a person too
      if (c.at_common_qd) {
        out += ',';
        if (has && it->second.outstanding) out += fmt::format("{:.0f}", *it->second.outstanding);
      }
    }
    out += "\n";
  }
  return out;
}

std::string fleet_html(const Fleet& f) {
  auto esc = [](const std::string& s) { return html_escape(s); };
  size_t failing = 0, outliers = 0;
  for (const auto& r : f.rows) failing += r.device.verdict != "PASS", outliers += !r.outliers.empty();
  std::string h = fmt::format("<header><h1>diskvet fleet {}</h1><p>{} drives in {} groups of identical drives (model, firmware, capacity): {} not passing, {} outliers "
                              "(more than {}% worse than their group's median).</p></header>",
                              verdict_badge(failing ? "FAIL" : outliers ? "INCONCLUSIVE" : "PASS"), f.rows.size(), f.groups.size(), failing, outliers,
                              human::plain(f.outlier_pct));
  h += "<table><tr><th>group</th><th>drives</th><th>not passing</th><th>outliers</th><th>max-IOPS compared at</th></tr>";
  for (const auto& g : f.groups) {
    std::string qd;
    for (const auto& [workload, n] : compared_depths(g)) qd += (qd.empty() ? "" : "<br>") + esc(workload) + ": " + human::plain(n) + " outstanding";
    h += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>", esc(g.key), g.drives, g.failing,
                     g.outliers, qd.empty() ? "-" : qd);
  }
  h += "</table><div class=\"scroll\"><table><tr><th>verdict</th><th>serial</th><th>model / firmware / size</th><th>path</th><th>report</th><th>group</th>"
       "<th>writes counted</th><th>error log</th><th>SMART counters</th><th>self-tests</th><th>SATA/SAS logs</th><th>write amplification</th>";
  for (const auto& c : f.columns) h += "<th>" + esc(c.label) + "</th>";
  h += "</tr>";
  // One line per drive: the report by its file name (the whole path on hover), and the findings on a
  // row of their own under it, across the table, instead of a narrow last column that made each row
  // hundreds of pixels tall.
  const size_t width = 12 + f.columns.size();
  for (const auto& r : f.rows) {
    const std::string v = r.device.verdict.empty() ? "NOT-JUDGED" : r.device.verdict;
    h += fmt::format("<tr><td class=\"{0}\">{0}</td><td>{1}</td><td>{2} / {3} / {4}</td><td class=\"nowrap\">{5}</td><td title=\"{6}\">{7}</td><td class=\"num\">{8}</td>",
                     esc(v), esc(r.device.serial), esc(r.device.model), esc(r.device.firmware), format_bytes(r.device.size_bytes), esc(r.device.path),
                     esc(r.file), esc(std::filesystem::path(r.file).filename().string()), r.group_size);
    const HealthEvidence& e = r.device.evidence;
    h += fmt::format("<td class=\"{}\">{}</td>", e.writes && *e.writes != "agrees" ? "worse" : "", esc(e.writes.value_or("-")));
    h += fmt::format("<td class=\"{}\">{}</td>", e.error_log_failing ? "worse" : "",
                     e.error_log_new ? fmt::format("{} of {} new fail", e.error_log_failing, *e.error_log_new) : "-");
    h += fmt::format("<td class=\"{}\">{}</td>", e.smart_counters_grown ? "worse" : "",
                     e.smart_counters_compared ? fmt::format("{} of {} grew", e.smart_counters_grown, *e.smart_counters_compared) : "-");
    h += fmt::format("<td>{} / {}</td>", esc(e.self_test_before.value_or("-")), esc(e.self_test_after.value_or("-")));
    h += fmt::format("<td class=\"{}\">{}</td>", e.sata_sas_log_failing ? "worse" : "",
                     e.sata_sas_log_new ? fmt::format("{} of {} new fail", e.sata_sas_log_failing, *e.sata_sas_log_new) : "-");
    h += fmt::format("<td>{}</td>", esc(e.write_amplification.value_or("-")));
    for (const auto& c : f.columns) {
      auto it = r.cells.find(c.id);
      if (it == r.cells.end() || !it->second.value) {
        h += "<td>-</td>";
        continue;
      }
      h += fmt::format("<td class=\"num{}\">{}</td>", it->second.outlier ? " worse" : "", esc(format_metric(*c.kind, *it->second.value)));
    }
    h += "</tr>";
    std::string notes;
    for (const auto& x : r.device.failing) notes += "<li>failing: " + esc(x) + "</li>";
    for (const auto& x : r.device.evidence.problems) notes += "<li>health evidence: " + esc(x) + "</li>";
    for (const auto& x : r.outliers) notes += "<li>outlier: " + esc(x) + "</li>";
    if (!notes.empty()) h += fmt::format("<tr class=\"findings\"><td></td><td colspan=\"{}\"><ul>{}</ul></td></tr>", width - 1, notes);
  }
  h += "</table></div>";
  return html_page("diskvet fleet", h);
}

}  // namespace diskvet::runner
