// The decoder's health part (see report_view.hpp): a device's health readings and the evidence
// judged beside them, its self-tests, and a burn-in's verification.
#include "runner/report/report_reader.hpp"

namespace diskvet::runner::report_reader {

namespace {

HealthReading health_reading(ObjectReader& r) {
  HealthReading h;
  h.known = r.flag("known");
  h.problems = r.texts("problems");
  h.temperature_c = r.number("temperature_c");
  h.warning_temp_c = r.number("warning_temp_c");
  h.percentage_used = r.number("percentage_used");
  h.available_spare_pct = r.number("available_spare_pct");
  h.media_errors = r.number("media_errors");
  h.reallocated_sectors = r.number("reallocated_sectors");
  h.error_log_entries = r.number("error_log_entries");
  h.data_units_written = r.number("data_units_written");
  h.thermal_transitions = r.number("thermal_transitions");
  h.pending_sectors = r.number("pending_sectors");
  h.critical_warning = r.number("critical_warning");
  r.open();  // every counter a drive reports (devices/health.hpp): more than the pages print
  return h;
}

ErrorLogView error_log(ObjectReader& r) {
  ErrorLogView e;
  e.problems = r.texts("problems");
  e.notes = r.texts("notes");
  e.inconclusive = r.texts("inconclusive");
  e.new_entries = r.number("new_entries");
  for (bool fails : r.list<bool>("entries", [](ObjectReader& x) {
         x.open();  // the entry as the drive logged it, decoded
         return x.flag("fails");
       }))
    e.failing_entries += fails;
  r.open();  // the log's counts (devices/nvme_error_log)
  return e;
}

SmartCountersView smart_counters(ObjectReader& r) {
  SmartCountersView s;
  s.findings = r.list<SmartCounterFinding>("findings", [](ObjectReader& f) {
    f.open();
    return SmartCounterFinding{f.flag("fails"), f.text("words")};
  });
  s.compared = r.size("compared");
  s.problems = r.texts("problems");
  s.inconclusive = r.texts("inconclusive");
  r.open();  // the counters read before and after (devices/smart_counters)
  return s;
}

SataSasLogsView sata_sas_logs(ObjectReader& r) {
  SataSasLogsView s;
  s.problems = r.texts("problems");
  s.notes = r.texts("notes");
  s.inconclusive = r.texts("inconclusive");
  s.findings = r.list<bool>("findings", [](ObjectReader& f) {
    f.open();  // the entry as smartctl gave it
    return f.flag("fails");
  });
  s.new_errors = r.number("new_errors");
  s.unseen = r.size("unseen");
  s.error_log = r.text("error_log");
  s.self_test_log = r.text("self_test_log");
  s.errors_after = r.size("errors_after");
  s.new_self_tests = r.number("new_self_tests");
  s.scsi_counters = r.flag("scsi_counters");
  r.open();  // the logs' entries as smartctl gave them (devices/smart_logs)
  return s;
}

}  // namespace

HealthView read_health(ObjectReader& r) {
  HealthView h;
  h.before = r.recorded<HealthReading>("before", health_reading);
  h.after = r.recorded<HealthReading>("after", health_reading);
  {
    ObjectReader delta = r.object("delta");
    h.delta_problems = delta.texts("problems");
    delta.open();  // the counters' changes (devices/health.hpp)
  }
  h.write_accounting = r.recorded<WriteAccountingView>("write_accounting", [](ObjectReader& w) {
    w.open();  // the counts compared (devices/write_accounting)
    return WriteAccountingView{w.text("words"), w.text("other_writer"), w.flag("fails"), w.text("result")};
  });
  h.error_log = r.recorded<ErrorLogView>("error_log", error_log);
  h.smart_counters = r.recorded<SmartCountersView>("smart_counters", smart_counters);
  h.sata_sas_logs = r.recorded<SataSasLogsView>("sata_sas_logs", sata_sas_logs);
  h.write_amplification = r.recorded<WriteAmplificationView>("write_amplification", [](ObjectReader& w) {
    w.open();  // the OCP log's counters (devices/write_amplification)
    return WriteAmplificationView{w.text("words"), w.number("factor"), w.flag("available")};
  });
  h.across_self_test = r.recorded<AcrossSelfTestView>("across_self_test", [](ObjectReader& a) {
    AcrossSelfTestView x;
    x.error_log = a.recorded<ErrorLogView>("error_log", error_log);
    x.smart_counters = a.recorded<SmartCountersView>("smart_counters", smart_counters);
    x.sata_sas_logs = a.recorded<SataSasLogsView>("sata_sas_logs", sata_sas_logs);
    return x;
  });
  return h;
}

SelfTestView read_self_test(ObjectReader& r) {
  auto outcome = [](ObjectReader& o) {
    o.open();  // the drive's own figures (devices/self_test)
    return SelfTestOutcomeView{o.text("result"), o.text("type"), o.text("words")};
  };
  return {r.recorded<SelfTestOutcomeView>("before", outcome), r.recorded<SelfTestOutcomeView>("after", outcome)};
}

VerifyView read_verify(ObjectReader& r) {
  VerifyView v;
  v.blocks_written = r.number("blocks_written");
  v.blocks_verified = r.number("blocks_verified");
  v.bad_blocks = r.number("bad_blocks");
  v.mismatches = r.number("mismatches");
  v.crc32c = r.text("crc32c");
  v.bad_blocks_exact = r.has("bad_blocks_exact") ? std::optional<bool>(r.flag("bad_blocks_exact")) : std::nullopt;
  v.state = r.recorded<VerifyStateView>("state", [](ObjectReader& s) {
    s.written({"mode", "bs_bytes", "blocks", "region_blocks", "region_bytes"});
    return VerifyStateView{s.size("memory_bytes"), s.size("budget_bytes"), s.text("guarantee")};
  });
  v.first_mismatches = r.list<MismatchView>("first_mismatches", [](ObjectReader& m) {
    m.written({"offset_bytes", "expected", "found", "crc_ok", "first_bad_byte", "last_bad_byte", "bad_bytes"});
    return MismatchView{m.number("lba"), m.number("t_s"), m.text("kind"), m.text("detail")};
  });
  ObjectReader lo = r.object("latency_outliers");
  v.latency_outliers_count = lo.number("count");
  v.latency_outliers_limit_ms = lo.number("limit_ms");
  v.latency_outliers = lo.list<LatencyOutlierView>("first", [](ObjectReader& x) {
    return LatencyOutlierView{x.text("dir"), x.number("lba"), x.number("lat_ms"), x.number("t_s")};
  });
  r.written({"enabled", "blocks_unchecked"});
  return v;
}

}  // namespace diskvet::runner::report_reader
