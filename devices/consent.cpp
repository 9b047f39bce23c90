// The consent rules, as a pure function of device, protection, consent and the host's other disks.
#include "devices/consent.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "devices/identity.hpp"

namespace diskvet::devices {

namespace {

std::string join(const std::vector<std::string>& v, const char* sep = "; ") {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string strong_ids(const Device& d, const std::vector<Device>& host_disks) {
  auto ids = exact_ids(d, host_disks);
  if (ids.empty()) return {};
  return "one of its own ids: " + join(ids, " or ");
}

// "/dev/nvme0n1: S123/1 or eui.…; /dev/nvme0n2: S123/2" for every disk that `shared` names.
std::string each_exact(const Device& d, const std::string& shared, const std::vector<Device>& host_disks) {
  std::vector<const Device*> named{&d};
  for (const auto& other : host_disks)
    if (other.path != d.path && identifies(other, shared)) named.push_back(&other);
  std::sort(named.begin(), named.end(), [](const Device* a, const Device* b) { return a->path < b->path; });
  std::vector<std::string> lines;
  for (const Device* x : named) {
    auto ids = exact_ids(*x, host_disks);
    lines.push_back(ids.empty() ? fmt::format("{}: its path together with {}", x->path, shared)
                                : fmt::format("{}: {}", x->path, join(ids, " or ")));
  }
  return join(lines);
}

Error shared_refusal(const Device& d, const std::string& shared, const std::vector<Device>& host_disks, const std::string& reasons) {
  std::string what = fmt::format("{} names several devices (a controller's serial is not a namespace's, one LUN may have "
                                 "several paths), so it consents to none of them{}",
                                 shared, reasons.empty() ? "" : "; PROTECTED: " + reasons);
  return safety_error(d.path, what + "; refusing to write",
                      fmt::format("nothing was written; name the one device to destroy by its exact id ({})",
                                  each_exact(d, shared, host_disks)));
}

}  // namespace

Status check_consent(const Device& d, const Protection& p, const Consent& consent, const std::vector<Device>& host_disks) {
  bool by_path = false, by_strong = false, all = false;
  std::string shared;  // the first id given that names d but another disk too
  for (const auto& id : consent.ids) {
    if (id == kAllUnprotected) {
      all = true;
      continue;
    }
    auto form = identifies(d, id);
    if (!form) form = identifies(d, resolve_device_path(id));
    if (form == IdForm::path) by_path = true;
    if (form == IdForm::namespace_id) by_strong = true;
    if (form == IdForm::serial || form == IdForm::wwn) {
      if (!names_another(d, id, host_disks)) by_strong = true;
      else if (shared.empty()) shared = id;
    }
  }
  // A shared serial or WWN beside this device's own path names this device and no other.
  if (by_path && !shared.empty()) by_strong = true;
  std::string reasons = join(p.texts());
  if (p.is_protected() && !p.only_overridable())
    return safety_error(d.path, "PROTECTED: " + reasons + "; refusing to write whatever the consent",
                        "nothing was written");
  if (p.is_protected()) {
    if (by_strong) return ok_status();
    if (!shared.empty()) return shared_refusal(d, shared, host_disks, reasons);
    std::string ids = strong_ids(d, host_disks);
    if (ids.empty())
      return safety_error(d.path, "PROTECTED: " + reasons + "; it has no serial or WWN to consent with, refusing to write",
                          "nothing was written; wipe it with wipefs yourself if its contents may be lost");
    return safety_error(d.path, "PROTECTED: " + reasons + "; refusing to write",
                        fmt::format("nothing was written; to destroy what is on it, name {} in --destroy-data "
                                    "(a path or all-unprotected is not enough)", ids));
  }
  if (by_path || by_strong || all) return ok_status();
  if (!shared.empty()) return shared_refusal(d, shared, host_disks, "");
  return safety_error(d.path, "a write test destroys the data on this device and needs consent",
                      fmt::format("nothing was written; add --destroy-data {} if its contents may be lost", d.path));
}

}  // namespace diskvet::devices
