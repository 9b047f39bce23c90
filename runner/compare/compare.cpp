// Two reports side by side (see compare.hpp).
#include "runner/compare/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "runner/report/human_format.hpp"

namespace diskvet::runner {

namespace {

std::string device_name(const DeviceIndex& d) {
  std::string s = d.path.empty() ? fmt::format("device {}", d.position + 1) : d.path;
  if (!d.model.empty()) s += " " + d.model;
  if (!d.serial.empty()) s += " s/n " + d.serial;
  return s;
}

// Serial first (the same drive over time), then the n-th drive of a model against the n-th of the
// same model (two hosts built alike), then what is left in order.
// Two multi-host reports: the merged array with the merged array, each host with the host of its name.
std::vector<std::tuple<const DeviceIndex*, const DeviceIndex*, std::string>> match_devices(const ReportIndex& a, const ReportIndex& b) {
  std::vector<std::tuple<const DeviceIndex*, const DeviceIndex*, std::string>> out;
  if (a.hosts) {
    for (const auto& da : a.devices)
      for (const auto& db : b.devices)
        if (da.path == db.path) out.emplace_back(&da, &db, da.path == kMergedHosts ? "test, the merged array" : "host name");
    return out;
  }
  std::vector<bool> used_a(a.devices.size()), used_b(b.devices.size());
  for (size_t i = 0; i < a.devices.size(); ++i)
    for (size_t j = 0; j < b.devices.size() && !a.devices[i].serial.empty(); ++j)
      if (!used_b[j] && a.devices[i].serial == b.devices[j].serial) {
        out.emplace_back(&a.devices[i], &b.devices[j], "serial");
        used_a[i] = used_b[j] = true;
        break;
      }
  for (size_t i = 0; i < a.devices.size(); ++i)
    for (size_t j = 0; j < b.devices.size() && !used_a[i]; ++j)
      if (!used_b[j] && a.devices[i].model == b.devices[j].model) {
        out.emplace_back(&a.devices[i], &b.devices[j], "position among " + (a.devices[i].model.empty() ? std::string("unnamed") : a.devices[i].model) + " drives");
        used_a[i] = used_b[j] = true;
      }
  for (size_t i = 0, j = 0; i < a.devices.size(); ++i) {
    if (used_a[i]) continue;
    while (j < b.devices.size() && used_b[j]) ++j;
    if (j == b.devices.size()) break;
    out.emplace_back(&a.devices[i], &b.devices[j], "position (the models differ)");
    used_a[i] = used_b[j] = true;
  }
  return out;
}

bool worse_when_higher(const std::string& counter) {
  static const std::set<std::string> higher_is_worse = {"media_errors", "error_log_entries", "percentage_used", "reallocated_sectors",
                                                        "pending_sectors", "critical_warning", "thermal_transitions"};
  return higher_is_worse.contains(counter);
}

void compare_health(DevicePair& p) {
  std::set<std::string> counters;
  for (const auto& [k, v] : p.a->health_after.counters) counters.insert(k);
  for (const auto& [k, v] : p.b->health_after.counters) counters.insert(k);
  for (const auto& c : counters) {
    HealthChange h{c, std::nullopt, std::nullopt, false};
    if (auto it = p.a->health_after.counters.find(c); it != p.a->health_after.counters.end()) h.a = it->second;
    if (auto it = p.b->health_after.counters.find(c); it != p.b->health_after.counters.end()) h.b = it->second;
    if (h.a && h.b) h.worse = worse_when_higher(c) ? *h.b > *h.a : (c == "available_spare_pct" && *h.b < *h.a);
    p.health.push_back(h);
  }
}

// The evidence checks either run made, side by side.
void compare_evidence(DevicePair& p) {
  const HealthEvidence &a = p.a->evidence, &b = p.b->evidence;
  if (a.writes || b.writes) {
    const bool fails_a = a.writes && *a.writes != "agrees", fails_b = b.writes && *b.writes != "agrees";
    p.evidence.push_back({"writes counted", a.writes.value_or("-"), b.writes.value_or("-"), !fails_a && fails_b});
  }
  if (a.error_log_new || b.error_log_new) {
    auto words = [](const HealthEvidence& e) {
      return e.error_log_new ? fmt::format("{} of {} new entries fail", e.error_log_failing, *e.error_log_new) : std::string("-");
    };
    p.evidence.push_back({"error log", words(a), words(b), a.error_log_failing == 0 && b.error_log_failing > 0});
  }
  if (a.smart_counters_compared || b.smart_counters_compared) {
    auto words = [](const HealthEvidence& e) {
      return e.smart_counters_compared ? fmt::format("{} of {} grew", e.smart_counters_grown, *e.smart_counters_compared) : std::string("-");
    };
    p.evidence.push_back({"SMART counters", words(a), words(b), a.smart_counters_grown == 0 && b.smart_counters_grown > 0});
  }
  if (a.sata_sas_log_new || b.sata_sas_log_new) {
    auto words = [](const HealthEvidence& e) {
      return e.sata_sas_log_new ? fmt::format("{} of {} new entries fail", e.sata_sas_log_failing, *e.sata_sas_log_new) : std::string("-");
    };
    p.evidence.push_back({"SATA/SAS logs", words(a), words(b), a.sata_sas_log_failing == 0 && b.sata_sas_log_failing > 0});
  }
  // Evidence, never a verdict: a different write amplification is shown, never called worse.
  if (a.write_amplification || b.write_amplification)
    p.evidence.push_back({"write amplification", a.write_amplification.value_or("-"), b.write_amplification.value_or("-"), false});
  // A self-test is clean when it passed; "not-supported" judges nothing either way.
  auto self_test = [&](const char* check, const std::optional<std::string>& ta, const std::optional<std::string>& tb) {
    if (!ta && !tb) return;
    auto failing = [](const std::optional<std::string>& t) { return t && *t != "passed" && *t != "not-supported"; };
    p.evidence.push_back({check, ta.value_or("-"), tb.value_or("-"), !failing(ta) && failing(tb)});
  };
  self_test("self-test before", a.self_test_before, b.self_test_before);
  self_test("self-test after", a.self_test_after, b.self_test_after);
}

bool chosen(const CompareOptions& o, std::string_view metric) { return std::find(o.metrics.begin(), o.metrics.end(), metric) != o.metrics.end(); }

// The steps of two sweeps of one workload, matched by outstanding I/Os; regressions in words go to `out`.
SweepComparison compare_sweeps(const WorkloadDirection& wa, const WorkloadDirection& wb, const CompareOptions& o, const DeviceIndex& db,
                               std::vector<std::string>& out) {
  SweepComparison sc{wa.test, without_queue_depth(wa.label), wa.direction, {}, {}, {}};
  auto at = [](const std::vector<SweepStep>& steps, double qd) -> const SweepStep* {
    for (const auto& s : steps)
      if (s.outstanding == qd) return &s;
    return nullptr;
  };
  for (const auto& sa : wa.sweep) {
    const SweepStep* sb = at(wb.sweep, sa.outstanding);
    if (!sb) {
      sc.only_in_a.push_back(sa.outstanding);
      continue;
    }
    SweepStepComparison st{sa.outstanding, sa.iops, sb->iops, sa.lat_p99_us, sb->lat_p99_us, 0, 0, false};
    if (sa.iops > 0) st.iops_worse_pct = (sa.iops - sb->iops) / sa.iops * 100;
    if (sa.lat_p99_us > 0) st.p99_worse_pct = (sb->lat_p99_us - sa.lat_p99_us) / sa.lat_p99_us * 100;
    if (o.max_regression_pct) {
      const double limit = *o.max_regression_pct;
      std::vector<std::string> worse;
      if (chosen(o, "iops") && sa.iops > 0 && st.iops_worse_pct > limit)
        worse.push_back(fmt::format("IOPS {} worse ({} -> {})", human::change_pct(st.iops_worse_pct).substr(1), human::iops(sa.iops), human::iops(sb->iops)));
      if (chosen(o, "lat_p99") && sa.lat_p99_us > 0 && st.p99_worse_pct > limit)
        worse.push_back(fmt::format("p99 {} worse ({} -> {})", human::change_pct(st.p99_worse_pct).substr(1), human::latency_us(sa.lat_p99_us),
                                    human::latency_us(sb->lat_p99_us)));
      st.regression = !worse.empty();
      for (const auto& w : worse)
        out.push_back(fmt::format("{}: {} {} sweep at {} outstanding: {}; at most {} allowed", device_name(db), wa.test, wa.label, human::plain(sa.outstanding), w,
                                  human::plain(limit) + "%"));
    }
    sc.steps.push_back(st);
  }
  for (const auto& sb : wb.sweep)
    if (!at(wa.sweep, sb.outstanding)) sc.only_in_b.push_back(sb.outstanding);
  return sc;
}

// The largest outstanding I/O count both sweeps have a step at.
std::optional<double> deepest_common_step(const std::vector<SweepStep>& a, const std::vector<SweepStep>& b) {
  std::optional<double> deepest;
  for (const auto& sa : a)
    for (const auto& sb : b)
      if (sa.outstanding == sb.outstanding && (!deepest || sa.outstanding > *deepest)) deepest = sa.outstanding;
  return deepest;
}

// The numbers a sweep step holds, as compare's metrics (latency in ns).
std::map<std::string, MetricValue> step_metrics(const std::vector<SweepStep>& steps, double outstanding) {
  for (const auto& s : steps)
    if (s.outstanding == outstanding) return {{"iops", {s.iops, {}}}, {"lat_mean", {s.lat_mean_us * 1e3, {}}}, {"lat_p99", {s.lat_p99_us * 1e3, {}}}};
  return {};
}

// A device's verdict and its tests' verdicts, from one run to the other; a PASS (or a host's "ok")
// that is no longer one is a regression.
void compare_verdicts(DevicePair& p, Comparison& c, bool hosts) {
  const DeviceIndex& da = *p.a;
  const DeviceIndex& db = *p.b;
  if (da.verdict != db.verdict) {
    p.verdict_changes.push_back(fmt::format("device: {} -> {}", da.verdict, db.verdict));
    // A host that took part and did not the next time lost its share of the array.
    if (da.verdict == "PASS" || (hosts && da.verdict == "ok"))
      c.regressions.push_back(
          fmt::format("{}: {} {} -> {}", device_name(db), hosts && da.path != kMergedHosts ? "state" : "verdict", da.verdict, db.verdict));
  }
  for (const auto& [test, status] : da.test_verdicts) {
    auto it = db.test_verdicts.find(test);
    if (it == db.test_verdicts.end() || it->second == status) continue;
    p.verdict_changes.push_back(fmt::format("{}: {} -> {}", test, status, it->second));
    if (status == "PASS") c.regressions.push_back(fmt::format("{}: {} verdict PASS -> {}", device_name(db), test, it->second));
  }
}

// One workload direction both runs measured, metric by metric. Two sweeps: a run's headline numbers
// are its knee's, and the knees of two runs can sit at different queue depths, which would compare
// the depth, not the drive. Both are read at the deepest step both runs made instead (as fleet
// does), and say so.
void compare_workload(DevicePair& p, Comparison& c, const WorkloadDirection& wa, const WorkloadDirection& wb, const CompareOptions& o) {
  const DeviceIndex& db = *p.b;
  const bool swept = !wa.sweep.empty() && !wb.sweep.empty();
  const std::optional<double> common = swept ? deepest_common_step(wa.sweep, wb.sweep) : std::nullopt;
  const auto& values_a = common ? step_metrics(wa.sweep, *common) : wa.metrics;
  const auto& values_b = common ? step_metrics(wb.sweep, *common) : wb.metrics;
  const std::string at = common ? fmt::format(" at {} outstanding", human::plain(*common)) : "";
  // At a common step the knee's queue depth ("QD32x2") is not what was read: the step's count is.
  auto label_of = [&](const std::string& label) { return common ? without_queue_depth(label) + at : label; };
  for (const auto& kind : compare_metrics()) {
    if (swept && !common) break;  // no step in common: the step-by-step table says which each made
    auto ia = values_a.find(kind.name), ib = values_b.find(kind.name);
    if (ia == values_a.end() || ib == values_b.end()) continue;
    MetricComparison m;
    m.key = wa.key;
    m.test = wa.test;
    m.direction = wa.direction;
    m.label_a = label_of(wa.label);
    m.label_b = label_of(wb.label);
    m.sweep_step = common.has_value();
    m.kind = &kind;
    m.a = ia->second.value;
    m.b = ib->second.value;
    m.ratio = m.a > 0 ? m.b / m.a : 0;
    const double change = m.a > 0 ? (m.b - m.a) / m.a * 100 : 0;
    m.worse_pct = kind.better == Better::higher ? -change : change;
    if (ia->second.noise_pct && ib->second.noise_pct) {
      m.noise_pct = std::max(*ia->second.noise_pct, *ib->second.noise_pct);
      m.beyond_noise = std::fabs(change) > *m.noise_pct;
    }
    m.regression = chosen(o, kind.name) && o.max_regression_pct && m.a > 0 && m.worse_pct > *o.max_regression_pct;
    if (m.regression)
      c.regressions.push_back(fmt::format("{}: {} {} {} {} is {} worse ({} -> {}; at most {} allowed)", device_name(db), wa.test, wa.label,
                                          wa.direction, kind.label, human::change_pct(m.worse_pct).substr(1), format_metric(kind, m.a),
                                          format_metric(kind, m.b), (human::plain(*o.max_regression_pct) + "%")));
    p.metrics.push_back(m);
  }
  if (swept) p.sweeps.push_back(compare_sweeps(wa, wb, o, db, c.regressions));
}

// Why a comparison that paired drives still compared nothing (empty: it compared something).
std::string why_nothing_compared(const Comparison& c, const ReportIndex& a, const ReportIndex& b, const CompareOptions& o) {
  const bool measured_both = std::any_of(c.pairs.begin(), c.pairs.end(), [](const DevicePair& p) { return !p.metrics.empty(); });
  if (c.pairs.empty())
    return fmt::format("no drive of {} matches a drive of {} ({} and {} drive(s))", b.name, a.name, b.devices.size(), a.devices.size());
  // The merged array always pairs with the merged array: that alone compares nothing.
  if (a.hosts && !measured_both)
    return fmt::format("no test workload of {} was measured in {} (matched by test and by host name)", b.name, a.name);
  if (!o.max_regression_pct) return {};
  const bool gated = std::any_of(c.pairs.begin(), c.pairs.end(), [&](const DevicePair& p) {
    return std::any_of(p.metrics.begin(), p.metrics.end(), [&](const MetricComparison& m) { return m.a > 0 && chosen(o, m.kind->name); });
  });
  if (gated) return {};
  return fmt::format("the matched drives have no workload in common that measured {}, so --max-regression-pct judged nothing",
                     fmt::join(o.metrics, ", "));
}

}  // namespace

Comparison compare_reports(const ReportIndex& a, const ReportIndex& b, const CompareOptions& o) {
  Comparison c{a.name, b.name, a.hosts, {}, {}, {}, {}};
  if (a.hosts != b.hosts) {
    const ReportIndex& multi = a.hosts ? a : b;
    const ReportIndex& drives = a.hosts ? b : a;
    c.not_compared = fmt::format("{} is a multi-host report and {} a per-drive report: the first holds numbers per host and merged, the other per drive",
                                 multi.name, drives.name);
    return c;
  }
  for (auto [da, db, how] : match_devices(a, b)) {
    DevicePair p{da, db, how, {}, {}, {}, {}, {}, {}, {}};
    compare_verdicts(p, c, a.hosts);
    for (const auto& wa : da->workloads) {
      if (const WorkloadDirection* wb = db->find(wa.key)) compare_workload(p, c, wa, *wb, o);
      else p.only_in_a.push_back(wa.test + " " + wa.label + " " + wa.direction);
    }
    for (const auto& wb : db->workloads)
      if (!da->find(wb.key)) p.only_in_b.push_back(wb.test + " " + wb.label + " " + wb.direction);
    compare_health(p);
    compare_evidence(p);
    c.pairs.push_back(std::move(p));
  }
  std::set<const DeviceIndex*> paired;
  for (const auto& p : c.pairs) paired.insert(p.a), paired.insert(p.b);
  for (const auto& d : a.devices)
    if (!paired.contains(&d)) c.unmatched.push_back(fmt::format("{} only in {}", device_name(d), a.name));
  for (const auto& d : b.devices)
    if (!paired.contains(&d)) c.unmatched.push_back(fmt::format("{} only in {}", device_name(d), b.name));
  c.not_compared = why_nothing_compared(c, a, b, o);
  return c;
}

std::string without_queue_depth(const std::string& label) {
  const size_t qd = label.find(" QD");
  if (qd == std::string::npos) return label;
  const size_t end = label.find(' ', qd + 1);
  return label.substr(0, qd) + (end == std::string::npos ? "" : label.substr(end));
}

std::string noise_words(const MetricComparison& m) {
  if (!m.beyond_noise) return m.sweep_step ? "noise: one sample" : "noise: no series";
  return fmt::format("{} noise ±{}", *m.beyond_noise ? "beyond" : "within", human::change_pct(*m.noise_pct).substr(1));
}

namespace {

std::string change_words(const MetricComparison& m) {
  if (m.a <= 0) return "-";
  return fmt::format("{} ({})", human::ratio(m.ratio), human::change_pct((m.b - m.a) / m.a * 100));
}

}  // namespace

std::string compare_text(const std::vector<Comparison>& cs, const CompareOptions& o) {
  std::string out;
  for (const auto& c : cs) {
    out += fmt::format("compare {} (baseline) with {}\n", c.a_name, c.b_name);
    if (c.hosts) out += "multi-host reports: the merged array's numbers and each host's, matched by test and by host name\n";
    for (const auto& p : c.pairs) {
      out += fmt::format("\n{}  vs  {}  (matched by {})\n", device_name(*p.a), device_name(*p.b), p.matched_by);
      out += fmt::format("  {}: {}\n", c.hosts && p.a->path != kMergedHosts ? "host state" : "verdict",
                         p.a->verdict == p.b->verdict ? p.a->verdict + " (unchanged)" : p.a->verdict + " -> " + p.b->verdict);
      for (const auto& v : p.verdict_changes)
        if (!v.starts_with("device:")) out += "  verdict change: " + v + "\n";
      std::string last;
      for (const auto& m : p.metrics) {
        const std::string head = m.test + " " + m.label_a + (m.label_a == m.label_b ? "" : " / " + m.label_b) + " " + m.direction;
        if (head != last) out += "  " + head + "\n";
        last = head;
        out += fmt::format("    {:<15} {:>14} {:>14}  {:<16} {:<22}{}\n", m.kind->label, format_metric(*m.kind, m.a), format_metric(*m.kind, m.b),
                           change_words(m), noise_words(m), m.regression ? "  REGRESSION" : "");
      }
      for (const auto& sw : p.sweeps) {
        out += fmt::format("  {} {} {} sweep, step by step (outstanding I/Os):\n", sw.test, sw.label, sw.direction);
        for (const auto& st : sw.steps)
          out += fmt::format("    {:>6} {:>14} {:>14}  {:<16} p99 {:>9} {:>9}  {:<16}{}\n", human::plain(st.outstanding), human::iops(st.iops_a), human::iops(st.iops_b),
                             st.iops_a > 0 ? fmt::format("{} ({})", human::ratio(st.iops_b / st.iops_a), human::change_pct(-st.iops_worse_pct)) : "-",
                             human::latency_us(st.p99_us_a), human::latency_us(st.p99_us_b),
                             st.p99_us_a > 0 ? human::change_pct(st.p99_worse_pct) : "-", st.regression ? "  REGRESSION" : "");
        for (double q : sw.only_in_a) out += fmt::format("    {:>6} only in the baseline\n", human::plain(q));
        for (double q : sw.only_in_b) out += fmt::format("    {:>6} only in the new run\n", human::plain(q));
      }
      for (const auto& w : p.only_in_a) out += "  only in the baseline: " + w + "\n";
      for (const auto& w : p.only_in_b) out += "  only in the new run: " + w + "\n";
      for (const auto& h : p.health)
        out += fmt::format("  health {}: {} -> {}{}\n", h.counter, h.a ? human::plain(*h.a) : "-", h.b ? human::plain(*h.b) : "-", h.worse ? "  WORSE" : "");
      for (const auto& e : p.evidence) out += fmt::format("  health evidence, {}: {} -> {}{}\n", e.check, e.a, e.b, e.worse ? "  WORSE" : "");
    }
    for (const auto& u : c.unmatched) out += "  unmatched: " + u + "\n";
    if (!c.not_compared.empty())
      out += "\nNOTHING COMPARED: " + c.not_compared + "\n";
    else if (c.regressions.empty())
      out += fmt::format("\nno regression{}\n", o.max_regression_pct ? " beyond " + (human::plain(*o.max_regression_pct) + "%") : "");
    for (const auto& r : c.regressions) out += "REGRESSION: " + r + "\n";
    out += "\n";
  }
  return out;
}

}  // namespace diskvet::runner
