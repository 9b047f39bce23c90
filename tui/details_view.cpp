// Details of one device: identity, queue facts, protection, health (SMART / NVMe log), NVMe facts.
#include <fmt/format.h>

#include <utility>
#include <vector>

#include "common/units.hpp"
#include "tui/format.hpp"
#include "tui/view.hpp"

namespace diskvet::tui {

namespace {

using Lines = std::vector<std::pair<std::string, std::string>>;

template <typename T>
void opt(Lines& out, const char* key, const std::optional<T>& v, const char* unit = "") {
  if (v) out.emplace_back(key, fmt::format("{}{}", *v, unit));
}

Lines describe(const devices::Device& d) {
  Lines out;
  auto add = [&](const char* k, const std::string& v) {
    if (!v.empty()) out.emplace_back(k, v);
  };
  add("path", d.path);
  add("kind", std::string(devices::to_string(d.kind)));
  add("model", d.model);
  add("serial", d.serial.empty() ? "(none)" : d.serial);
  add("wwn", d.wwn);
  add("nsid", d.nvme_nsid ? std::to_string(d.nvme_nsid) : "");
  add("consent id", d.consent_id);
  add("firmware", d.firmware);
  add("vendor", d.vendor);
  add("bus", d.bus);
  add("backing file", d.backing_file);
  add("size", fmt::format("{} ({} bytes)", format_bytes(d.size_bytes), d.size_bytes));
  add("block size", fmt::format("logical {} / physical {}", d.logical_block_size, d.physical_block_size));
  add("queue", fmt::format("{}{}{}, scheduler {}, max transfer {}", d.rotational ? "rotational" : "non-rotational",
                           d.removable ? ", removable" : "", d.read_only ? ", read-only" : "", d.scheduler.empty() ? "-" : d.scheduler,
                           d.max_transfer_bytes ? format_bytes(d.max_transfer_bytes) : "-"));
  add("write cache", d.write_cache);
  add("discard", d.discard ? "yes" : "no");
  if (d.is_protected) {
    for (size_t i = 0; i < d.protection_reasons.size(); ++i) out.emplace_back(i == 0 ? "PROTECTED" : "", d.protection_reasons[i]);
  } else {
    out.emplace_back("protection", "free: may be chosen for a write test");
  }
  const auto& h = d.health;
  out.emplace_back("health", !h.known ? "unknown (no SMART/health source)" : (h.healthy() ? "ok (" + h.source + ")" : "UNHEALTHY (" + h.source + ")"));
  for (const auto& p : h.problems) out.emplace_back("", p);
  opt(out, "temperature", h.temperature_c, " C");
  opt(out, "percentage used", h.percentage_used ? std::optional<int>(*h.percentage_used) : std::nullopt, "%");
  opt(out, "available spare", h.available_spare_pct ? std::optional<int>(*h.available_spare_pct) : std::nullopt, "%");
  opt(out, "critical warning", h.critical_warning ? std::optional<int>(*h.critical_warning) : std::nullopt);
  opt(out, "media errors", h.media_errors);
  opt(out, "error log entries", h.error_log_entries);
  opt(out, "reallocated sectors", h.reallocated_sectors);
  opt(out, "pending sectors", h.pending_sectors);
  if (h.smart_passed) out.emplace_back("SMART self-assessment", *h.smart_passed ? "passed" : "FAILED");
  if (d.nvme) {
    const auto& n = *d.nvme;
    out.emplace_back("nvme", fmt::format("vendor {:04x}, {} namespace(s), format {}, sanitize {}{}{}", n.vendor_id, n.namespace_count,
                                         n.format_supported ? "yes" : "no", n.sanitize_crypto_erase ? "crypto " : "",
                                         n.sanitize_block_erase ? "block " : "", n.sanitize_overwrite ? "overwrite" : ""));
    out.emplace_back("firmware slot", fmt::format("{} active", n.active_firmware_slot));
  }
  return out;
}

}  // namespace

void render_details(const Model& m, Canvas& c, Area a) {
  const DeviceRow* r = m.current_device();
  if (!r) return;
  c.frame(0, a.top, a.width, a.height(), r->device.path);
  int y = a.top + 1;
  const size_t value_w = static_cast<size_t>(a.width - 4 - 23);
  for (const auto& [k, v] : describe(r->device)) {
    if (y >= a.bottom - 1) break;
    c.text(2, y, fit(k, 22), k == "PROTECTED" ? Style::bad : Style::dim);
    c.text(25, y, fit(v, value_w), k == "PROTECTED" || (k.empty() && r->device.is_protected) ? Style::bad : Style::normal);
    ++y;
  }
}

}  // namespace diskvet::tui
