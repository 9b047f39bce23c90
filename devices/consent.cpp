// The consent rules, as a pure function of device, protection and consent.
#include "devices/consent.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "devices/identity.hpp"

namespace diskvet::devices {

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : "; ") + s;
  return out;
}

std::string strong_ids(const Device& d) {
  if (!d.serial.empty() && !d.wwn.empty()) return fmt::format("its serial {} or WWN {}", d.serial, d.wwn);
  if (!d.serial.empty()) return fmt::format("its serial {}", d.serial);
  if (!d.wwn.empty()) return fmt::format("its WWN {}", d.wwn);
  return {};
}

}  // namespace

Status check_consent(const Device& d, const Protection& p, const Consent& consent) {
  bool by_path = false, by_strong = false, all = false;
  for (const auto& id : consent.ids) {
    if (id == kAllUnprotected) {
      all = true;
      continue;
    }
    auto form = identifies(d, id);
    if (!form) form = identifies(d, resolve_device_path(id));
    if (form == IdForm::path) by_path = true;
    if (form == IdForm::serial || form == IdForm::wwn) by_strong = true;
  }
  std::string reasons = join(p.texts());
  if (p.is_protected() && !p.only_overridable())
    return safety_error(d.path, "PROTECTED: " + reasons + "; refusing to write whatever the consent",
                        "nothing was written");
  if (p.is_protected()) {
    if (by_strong) return ok_status();
    std::string ids = strong_ids(d);
    if (ids.empty())
      return safety_error(d.path, "PROTECTED: " + reasons + "; it has no serial or WWN to consent with, refusing to write",
                          "nothing was written; wipe it with wipefs yourself if its contents may be lost");
    return safety_error(d.path, "PROTECTED: " + reasons + "; refusing to write",
                        fmt::format("nothing was written; to destroy what is on it, name {} in --destroy-data "
                                    "(a path or all-unprotected is not enough)", ids));
  }
  if (by_path || by_strong || all) return ok_status();
  return safety_error(d.path, "a write test destroys the data on this device and needs consent",
                      fmt::format("nothing was written; add --destroy-data {} if its contents may be lost", d.path));
}

}  // namespace diskvet::devices
