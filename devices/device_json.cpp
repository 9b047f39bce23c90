// Device and Health <-> JSON. One place per type, so list, reports and the TUI agree on the shape.
#include "devices/device_json.hpp"

namespace diskvet::devices {

namespace json = boost::json;

namespace {

template <typename T>
void put(json::object& o, std::string_view key, const std::optional<T>& v) {
  if (v) o[key] = *v;
}

void put_text(json::object& o, std::string_view key, const std::string& v) {
  if (!v.empty()) o[key] = v;
}

template <typename T>
void get(const json::object& o, std::string_view key, std::optional<T>& out) {
  if (auto* p = o.if_contains(key)) {
    if constexpr (std::is_same_v<T, bool>) {
      if (p->is_bool()) out = p->as_bool();
    } else if (p->is_number()) {
      boost::system::error_code ec;
      auto n = p->to_number<T>(ec);  // out of range for T: left unknown rather than wrapped
      if (!ec) out = n;
    }
  }
}

template <typename T>
void get_plain(const json::object& o, std::string_view key, T& out) {
  std::optional<T> v;
  get(o, key, v);
  if (v) out = *v;
}

void get_text(const json::object& o, std::string_view key, std::string& out) {
  if (auto* p = o.if_contains(key); p && p->is_string()) out = std::string(p->as_string());
}

std::vector<std::string> get_strings(const json::object& o, std::string_view key) {
  std::vector<std::string> out;
  if (auto* p = o.if_contains(key); p && p->is_array())
    for (const auto& s : p->as_array())
      if (s.is_string()) out.emplace_back(s.as_string());
  return out;
}

json::array strings(const std::vector<std::string>& v) {
  json::array a;
  for (const auto& s : v) a.emplace_back(s);
  return a;
}

}  // namespace

void tag_invoke(json::value_from_tag, json::value& v, const Health& h) {
  json::object o;
  o["known"] = h.known;
  // "healthy" is only ever true when health is known: unknown is never reported as healthy.
  o["healthy"] = h.healthy();
  put_text(o, "source", h.source);
  put(o, "smart_passed", h.smart_passed);
  put(o, "critical_warning", h.critical_warning);
  put(o, "temperature_c", h.temperature_c);
  put(o, "warning_temp_c", h.warning_temp_c);
  put(o, "critical_temp_c", h.critical_temp_c);
  put(o, "available_spare_pct", h.available_spare_pct);
  put(o, "available_spare_threshold_pct", h.available_spare_threshold_pct);
  put(o, "percentage_used", h.percentage_used);
  put(o, "data_units_read", h.data_units_read);
  put(o, "data_units_written", h.data_units_written);
  put(o, "media_errors", h.media_errors);
  put(o, "error_log_entries", h.error_log_entries);
  put(o, "warning_temp_time_min", h.warning_temp_time_min);
  put(o, "critical_temp_time_min", h.critical_temp_time_min);
  put(o, "thermal_transitions", h.thermal_transitions);
  put(o, "reallocated_sectors", h.reallocated_sectors);
  put(o, "pending_sectors", h.pending_sectors);
  if (!h.smart_counters.empty()) {
    json::array counters;
    for (const auto& c : h.smart_counters) counters.push_back(json::object{{"key", c.key}, {"name", c.name}, {"raw", c.raw}});
    o["smart_counters"] = std::move(counters);
  }
  put(o, "ata_written_units", h.ata_written_units);
  if (h.ata_written_units) {
    o["ata_written_unit_bytes"] = h.ata_written_unit_bytes;
    o["ata_written_attribute"] = h.ata_written_attribute;
  }
  put(o, "host_sectors_written", h.host_sectors_written);
  put(o, "device_sectors_written", h.device_sectors_written);
  put(o, "ocp_physical_bytes_written", h.ocp_physical_bytes_written);
  put_text(o, "ocp_log_absent", h.ocp_log_absent);
  o["problems"] = strings(h.problems);
  v = std::move(o);
}

Health tag_invoke(json::value_to_tag<Health>, const json::value& v) {
  Health h;
  const json::object* o = v.if_object();
  if (!o) return h;
  get_plain(*o, "known", h.known);
  get_text(*o, "source", h.source);
  get(*o, "smart_passed", h.smart_passed);
  get(*o, "critical_warning", h.critical_warning);
  get(*o, "temperature_c", h.temperature_c);
  get(*o, "warning_temp_c", h.warning_temp_c);
  get(*o, "critical_temp_c", h.critical_temp_c);
  get(*o, "available_spare_pct", h.available_spare_pct);
  get(*o, "available_spare_threshold_pct", h.available_spare_threshold_pct);
  get(*o, "percentage_used", h.percentage_used);
  get(*o, "data_units_read", h.data_units_read);
  get(*o, "data_units_written", h.data_units_written);
  get(*o, "media_errors", h.media_errors);
  get(*o, "error_log_entries", h.error_log_entries);
  get(*o, "warning_temp_time_min", h.warning_temp_time_min);
  get(*o, "critical_temp_time_min", h.critical_temp_time_min);
  get(*o, "thermal_transitions", h.thermal_transitions);
  get(*o, "reallocated_sectors", h.reallocated_sectors);
  get(*o, "pending_sectors", h.pending_sectors);
  if (auto* cs = o->if_contains("smart_counters"); cs && cs->is_array())
    for (const auto& c : cs->as_array())
      if (const json::object* co = c.if_object()) {
        SmartCounter sc;
        get_text(*co, "key", sc.key);
        get_text(*co, "name", sc.name);
        get_plain(*co, "raw", sc.raw);
        h.smart_counters.push_back(std::move(sc));
      }
  get(*o, "ata_written_units", h.ata_written_units);
  get_plain(*o, "ata_written_unit_bytes", h.ata_written_unit_bytes);
  get_text(*o, "ata_written_attribute", h.ata_written_attribute);
  get(*o, "host_sectors_written", h.host_sectors_written);
  get(*o, "device_sectors_written", h.device_sectors_written);
  get(*o, "ocp_physical_bytes_written", h.ocp_physical_bytes_written);
  get_text(*o, "ocp_log_absent", h.ocp_log_absent);
  h.problems = get_strings(*o, "problems");
  return h;
}

void tag_invoke(json::value_from_tag, json::value& v, const Device& d) {
  json::object o;
  o["path"] = d.path;
  o["name"] = d.name;
  o["kind"] = to_string(d.kind);
  o["model"] = d.model;
  o["serial"] = d.serial;
  o["wwn"] = d.wwn;
  o["consent_id"] = d.consent_id;
  o["firmware"] = d.firmware;
  put_text(o, "vendor", d.vendor);
  put_text(o, "bus", d.bus);
  put_text(o, "id_path", d.id_path);
  put_text(o, "backing_file", d.backing_file);
  put_text(o, "dev_id", d.dev_id);
  if (!d.nvme_controller.empty()) {
    o["nvme_controller"] = d.nvme_controller;
    o["nvme_nsid"] = d.nvme_nsid;
  }
  o["size_bytes"] = d.size_bytes;
  o["logical_block_size"] = d.logical_block_size;
  o["physical_block_size"] = d.physical_block_size;
  o["rotational"] = d.rotational;
  o["removable"] = d.removable;
  o["read_only"] = d.read_only;
  put_text(o, "write_cache", d.write_cache);
  o["discard"] = d.discard;
  if (d.max_transfer_bytes) o["max_transfer_bytes"] = d.max_transfer_bytes;
  put_text(o, "scheduler", d.scheduler);
  put_text(o, "zoned", d.zoned);
  o["partitions"] = strings(d.partitions);
  o["protected"] = d.is_protected;
  o["protection_reasons"] = strings(d.protection_reasons);
  o["protection_overridable"] = d.protection_overridable;
  o["health"] = json::value_from(d.health);
  if (d.nvme) o["nvme"] = json::value_from(*d.nvme);
  if (d.file_system) o["file_system"] = json::value_from(*d.file_system);
  v = std::move(o);
}

void tag_invoke(json::value_from_tag, json::value& v, const FileSystemFacts& f) {
  json::object fs{{"mountpoint", f.mountpoint},       {"fstype", f.fstype},               {"source", f.source},
                  {"mount_options", f.mount_options}, {"super_options", f.super_options}, {"direct_io", f.direct_io}};
  if (!f.nfs_server.empty() || f.nfs_rsize_bytes || f.nfs_wsize_bytes)
    fs["nfs"] = json::object{{"server", f.nfs_server}, {"version", f.nfs_version}, {"rsize_bytes", f.nfs_rsize_bytes}, {"wsize_bytes", f.nfs_wsize_bytes}};
  v = std::move(fs);
}

void tag_invoke(json::value_from_tag, json::value& v, const NvmeFacts& f) {
  json::object o;
  o["vendor_id"] = f.vendor_id;
  o["oacs"] = f.oacs;
  o["format_supported"] = f.format_supported;
  o["sanitize_crypto_erase"] = f.sanitize_crypto_erase;
  o["sanitize_block_erase"] = f.sanitize_block_erase;
  o["sanitize_overwrite"] = f.sanitize_overwrite;
  o["namespace_count"] = f.namespace_count;
  json::array formats;
  for (auto b : f.lba_format_bytes) formats.emplace_back(b);
  o["lba_format_bytes"] = std::move(formats);
  o["lba_format_in_use"] = f.lba_format_in_use;
  o["capacity_blocks"] = f.capacity_blocks;
  o["active_firmware_slot"] = f.active_firmware_slot;
  o["firmware_slots"] = strings(f.firmware_slots);
  v = std::move(o);
}

void tag_invoke(json::value_from_tag, json::value& v, const HealthDelta& d) {
  json::object o;
  put(o, "new_media_errors", d.new_media_errors);
  put(o, "new_error_log_entries", d.new_error_log_entries);
  put(o, "new_thermal_transitions", d.new_thermal_transitions);
  put(o, "new_warning_temp_time_min", d.new_warning_temp_time_min);
  put(o, "new_critical_temp_time_min", d.new_critical_temp_time_min);
  put(o, "data_units_written", d.data_units_written);
  put(o, "data_units_read", d.data_units_read);
  put(o, "max_temperature_c", d.max_temperature_c);
  o["became_unhealthy"] = d.became_unhealthy;
  o["worsened"] = d.worsened();
  o["problems"] = strings(d.problems);
  v = std::move(o);
}

void tag_invoke(json::value_from_tag, json::value& v, const WriteAccounting& a) {
  json::object o;
  o["counter"] = a.counter;
  o["unit_bytes"] = a.unit_bytes;
  o["counted_units"] = a.counted_units;
  o["counted_bytes"] = a.counted_bytes;
  o["tolerance_bytes"] = a.tolerance_bytes;
  o["sent_bytes"] = a.sent_bytes;
  o["sent_source"] = a.sent_source;
  o["diskvet_bytes"] = a.diskvet_bytes;
  if (a.passthrough_bytes) o["passthrough_bytes"] = a.passthrough_bytes;
  put(o, "device_kernel_bytes", a.device_kernel_bytes);
  put(o, "other_writer_bytes", a.other_writer_bytes);
  put_text(o, "other_writer", a.other_writer);
  o["result"] = to_string(a.result);
  o["fails"] = a.fails();
  o["words"] = a.words;
  v = std::move(o);
}

void tag_invoke(json::value_from_tag, json::value& v, const ErrorLogReview& r) {
  json::array entries;
  for (const auto& f : r.entries) {
    const NvmeErrorEntry& e = f.entry;
    json::object o{{"error_count", e.error_count}, {"sqid", e.sqid}, {"cmdid", e.cmdid}, {"sct", e.sct()}, {"sc", e.sc()},
                   {"status", nvme_error_status_words(e.sct(), e.sc())}, {"nsid", e.nsid}, {"lba", e.lba},
                   {"parameter_error_location", e.parameter_error_location}, {"fails", f.judgement.fails}, {"why", f.judgement.why},
                   {"words", f.words}};
    entries.push_back(std::move(o));
  }
  v = json::object{{"new_entries", r.new_entries}, {"unseen", r.unseen}, {"entries", std::move(entries)},
                   {"problems", strings(r.problems)}, {"notes", strings(r.notes)}};
}

void tag_invoke(json::value_from_tag, json::value& v, const SmartCounterReview& r) {
  json::array findings;
  for (const auto& f : r.findings)
    findings.push_back(json::object{{"key", f.key}, {"name", f.name}, {"before", f.before}, {"after", f.after}, {"fails", f.fails}, {"words", f.words}});
  v = json::object{{"compared", r.compared}, {"findings", std::move(findings)}, {"problems", strings(r.problems)},
                   {"inconclusive", strings(r.inconclusive)}};
}

void tag_invoke(json::value_from_tag, json::value& v, const SmartLogReview& r) {
  json::array findings;
  for (const auto& f : r.findings) {
    json::object o{{"log", f.log}, {"fails", f.fails}, {"words", f.words}, {"why", f.why}};
    put(o, "number", f.number);
    put(o, "lba", f.lba);
    findings.push_back(std::move(o));
  }
  json::object o{{"new_errors", r.new_errors}, {"unseen", r.unseen}, {"scsi_counters", r.scsi_counters}, {"findings", std::move(findings)},
                 {"problems", strings(r.problems)}, {"notes", strings(r.notes)}};
  put_text(o, "error_log", r.error_log);
  put(o, "errors_before", r.errors_before);
  put(o, "errors_after", r.errors_after);
  put(o, "new_self_tests", r.new_self_tests);
  put_text(o, "self_test_log", r.self_test_log);
  v = std::move(o);
}

void tag_invoke(json::value_from_tag, json::value& v, const WriteAmplification& w) {
  json::object o{{"available", w.available}, {"words", w.words}};
  put(o, "physical_bytes", w.physical_bytes);
  put(o, "host_bytes", w.host_bytes);
  put(o, "factor", w.factor);
  v = std::move(o);
}

void tag_invoke(json::value_from_tag, json::value& v, const SelfTestOutcome& o) {
  json::object j{{"type", to_string(o.type)}, {"source", o.source}, {"result", to_string(o.result)}, {"passed", o.passed()},
                 {"words", o.words}, {"timeout_min", o.timeout_min}, {"elapsed_s", o.elapsed_s}, {"last_percent", o.last_percent},
                 {"polls", o.polls}};
  put(j, "estimate_min", o.estimate_min);
  put_text(j, "estimate_source", o.estimate_source);
  if (o.entry) {
    put(j, "failed_segment", o.entry->failed_segment);
    put(j, "failing_lba", o.entry->failing_lba);
    put(j, "power_on_hours", o.entry->power_on_hours);
  }
  v = std::move(j);
}

Device tag_invoke(json::value_to_tag<Device>, const json::value& v) {
  Device d;
  const json::object* o = v.if_object();
  if (!o) return d;
  get_text(*o, "path", d.path);
  get_text(*o, "name", d.name);
  std::string kind;
  get_text(*o, "kind", kind);
  d.kind = parse_device_kind(kind).value_or(DeviceKind::other);
  get_text(*o, "model", d.model);
  get_text(*o, "serial", d.serial);
  get_text(*o, "wwn", d.wwn);
  get_text(*o, "consent_id", d.consent_id);
  get_text(*o, "firmware", d.firmware);
  get_text(*o, "vendor", d.vendor);
  get_text(*o, "bus", d.bus);
  get_text(*o, "id_path", d.id_path);
  get_text(*o, "backing_file", d.backing_file);
  get_text(*o, "dev_id", d.dev_id);
  get_text(*o, "nvme_controller", d.nvme_controller);
  get_plain(*o, "nvme_nsid", d.nvme_nsid);
  get_plain(*o, "size_bytes", d.size_bytes);
  get_plain(*o, "logical_block_size", d.logical_block_size);
  get_plain(*o, "physical_block_size", d.physical_block_size);
  get_plain(*o, "rotational", d.rotational);
  get_plain(*o, "removable", d.removable);
  get_plain(*o, "read_only", d.read_only);
  get_text(*o, "write_cache", d.write_cache);
  get_plain(*o, "discard", d.discard);
  get_plain(*o, "max_transfer_bytes", d.max_transfer_bytes);
  get_text(*o, "scheduler", d.scheduler);
  get_text(*o, "zoned", d.zoned);
  d.partitions = get_strings(*o, "partitions");
  get_plain(*o, "protected", d.is_protected);
  d.protection_reasons = get_strings(*o, "protection_reasons");
  get_plain(*o, "protection_overridable", d.protection_overridable);
  if (auto* h = o->if_contains("health")) d.health = json::value_to<Health>(*h);
  if (const auto* fsv = o->if_contains("file_system"); fsv && fsv->is_object()) {
    const json::object& fo = fsv->get_object();
    FileSystemFacts f;
    get_text(fo, "mountpoint", f.mountpoint);
    get_text(fo, "fstype", f.fstype);
    get_text(fo, "source", f.source);
    get_text(fo, "mount_options", f.mount_options);
    get_text(fo, "super_options", f.super_options);
    get_plain(fo, "direct_io", f.direct_io);
    if (const auto* n = fo.if_contains("nfs"); n && n->is_object()) {
      get_text(n->get_object(), "server", f.nfs_server);
      get_text(n->get_object(), "version", f.nfs_version);
      get_plain(n->get_object(), "rsize_bytes", f.nfs_rsize_bytes);
      get_plain(n->get_object(), "wsize_bytes", f.nfs_wsize_bytes);
    }
    d.file_system = std::move(f);
  }
  return d;
}

}  // namespace diskvet::devices
