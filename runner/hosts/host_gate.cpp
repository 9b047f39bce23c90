// The host-side gate of a multi-host run.
#include "runner/hosts/host_gate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "devices/discovery.hpp"
#include "runner/run/probe.hpp"
#include "diskvet/version.hpp"

namespace diskvet::runner {

namespace json = boost::json;

namespace {

std::string machine_id() {
  std::ifstream in("/etc/machine-id");
  std::string id;
  in >> id;
  return id;
}

}  // namespace

std::string same_device(const GateDevice& a, const GateDevice& b) {
  if (!a.serial.empty() && a.serial == b.serial && a.model == b.model) return fmt::format("serial {} of model {}", a.serial, a.model);
  if (!a.wwn.empty() && a.wwn == b.wwn) return "WWN " + a.wwn;
  if (!a.machine_id.empty() && a.machine_id == b.machine_id && !a.dev_id.empty() && a.dev_id == b.dev_id)
    return fmt::format("device {} ({}) of one machine", a.dev_id, a.path);
  return {};
}

HostGate HostGate::decide(const GateRequest& request) {
  HostGate g;
  const std::string machine = machine_id();
  devices::DiscoveryOptions look;
  look.read_health = false;
  auto found = devices::discover(look);
  for (const std::string& id : request.devices) {
    GateDevice d;
    d.id = id;
    d.write_asked = std::any_of(request.consent.ids.begin(), request.consent.ids.end(),
                                [&](const std::string& c) { return c == id || c == devices::kAllUnprotected; });
    auto dev = found ? devices::find_device(id, *found) : Result<devices::Device>(found.error());
    if (!dev) {
      d.refusal = dev.error().message();
      g.devices_.push_back(std::move(d));
      continue;
    }
    d.path = dev->path;
    d.size_bytes = dev->size_bytes;
    d.logical_block_size = dev->logical_block_size;
    d.model = dev->model;
    d.serial = dev->serial;
    d.wwn = dev->wwn;
    d.dev_id = dev->dev_id;
    d.machine_id = machine;
    if (request.probe_samples > 0) {
      // Read only, beside any O_EXCL hold: the probe never writes and needs no exclusive open.
      auto t = Target::open(dev->path, false);
      auto pr = t ? probe_unwritten(*t, Region{0, request.probe_region_bytes ? std::min(request.probe_region_bytes, dev->size_bytes) : dev->size_bytes},
                                    request.probe_samples, request.probe_max_zero_pct)
                  : Result<ProbeRecord>(t.error());
      d.probed = pr.ok();
      if (pr) {
        d.probe_samples = pr->samples;
        d.probe_zero_samples = pr->zero_samples;
        d.unwritten = pr->unwritten;
      } else {
        d.probe_error = pr.error().message();
      }
    }
    if (d.write_asked) {
      // The one gate: protection rules and consent, checked again while O_EXCL is held.
      auto grant = devices::open_for_write(dev->path, request.consent);
      if (grant) {
        d.held = true;
        g.grants_.push_back(std::move(*grant));
      } else {
        d.refusal = grant.error().message();
      }
    }
    g.devices_.push_back(std::move(d));
  }
  return g;
}

bool HostGate::all_granted() const {
  return std::all_of(devices_.begin(), devices_.end(), [](const GateDevice& d) { return !d.path.empty() && (d.held || !d.write_asked); });
}

json::object HostGate::to_json() const {
  json::array devs;
  for (const GateDevice& d : devices_) {
    json::object o{{"id", d.id}, {"path", d.path}, {"write_asked", d.write_asked}, {"held", d.held},
                   {"size_bytes", d.size_bytes}, {"logical_block_size", d.logical_block_size}, {"model", d.model}, {"serial", d.serial},
                   {"wwn", d.wwn}, {"dev_id", d.dev_id}, {"machine_id", d.machine_id}};
    if (!d.refusal.empty()) o["refusal"] = d.refusal;
    if (d.probed || !d.probe_error.empty())
      o["probe"] = d.probed ? json::object{{"samples", d.probe_samples}, {"zero_samples", d.probe_zero_samples}, {"unwritten", d.unwritten}}
                            : json::object{{"error", d.probe_error}};
    devs.push_back(std::move(o));
  }
  return json::object{{"diskvet_gate", 1}, {"diskvet_version", kVersion}, {"devices", std::move(devs)}};
}

Result<std::vector<GateDevice>> parse_gate_json(std::string_view text, const std::string& host) {
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  const json::object* o = ec ? nullptr : v.if_object();
  const json::value* devs = o ? o->if_contains("devices") : nullptr;
  if (!o || !o->contains("diskvet_gate") || !devs || !devs->is_array())
    return runtime_error(host, "the gate did not answer with its JSON", "check that diskvet on that host is this version ('diskvet gate --help')");
  std::vector<GateDevice> out;
  for (const json::value& e : devs->get_array()) {
    const json::object* d = e.if_object();
    if (!d) return runtime_error(host, "the gate's JSON lists a device that is not an object");
    GateDevice g;
    auto str = [&](const char* k) { const json::value* s = d->if_contains(k); return s && s->is_string() ? std::string(s->get_string()) : std::string(); };
    auto flag = [&](const char* k) { const json::value* s = d->if_contains(k); return s && s->is_bool() && s->get_bool(); };
    auto count = [&](const char* k) { const json::value* s = d->if_contains(k); return s && s->is_number() ? s->to_number<uint64_t>() : uint64_t{0}; };
    g.id = str("id");
    g.path = str("path");
    g.write_asked = flag("write_asked");
    g.held = flag("held");
    g.refusal = str("refusal");
    g.size_bytes = count("size_bytes");
    g.logical_block_size = static_cast<uint32_t>(count("logical_block_size"));
    g.model = str("model");
    g.serial = str("serial");
    g.wwn = str("wwn");
    g.dev_id = str("dev_id");
    g.machine_id = str("machine_id");
    if (const json::value* pv = d->if_contains("probe"); pv && pv->is_object()) {
      const json::object& po = pv->as_object();
      if (const json::value* pe = po.if_contains("error"); pe && pe->is_string()) g.probe_error = std::string(pe->get_string());
      else {
        g.probed = true;
        g.probe_samples = static_cast<uint32_t>(po.contains("samples") && po.at("samples").is_number() ? po.at("samples").to_number<uint64_t>() : 0);
        g.probe_zero_samples = static_cast<uint32_t>(po.contains("zero_samples") && po.at("zero_samples").is_number() ? po.at("zero_samples").to_number<uint64_t>() : 0);
        g.unwritten = !po.contains("unwritten") || !po.at("unwritten").is_bool() || po.at("unwritten").get_bool();  // unclear: unwritten
      }
    }
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace diskvet::runner
