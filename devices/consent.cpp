// The consent rules, as a pure function of device, protection, consent and the host's other disks.
#include "devices/consent.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>

#include "common/fd.hpp"

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

// Whether a resolved id names d by path: the device it resolved to, or for a path that named
// nothing then, the kernel node's exact name.
bool names_by_path(const Device& d, const ConsentId& c) {
  if (!c.dev_id.empty()) return !d.dev_id.empty() && c.dev_id == d.dev_id;
  if (c.path) return !c.existed && c.text == d.path;
  return !d.name.empty() && c.text == d.name;
}

}  // namespace

ConsentId resolve_consent_id(const std::string& id) {
  ConsentId c;
  c.text = id;
  c.path = id.starts_with("/");
  if (id.empty() || id == kAllUnprotected) return c;
  // By their words too: /proc/PID/fd/N whose N is closed now may be open later, as the gate's own.
  std::string normal = std::filesystem::path(id).lexically_normal().string();
  for (const char* magic : {"/proc/", "/dev/fd/", "/dev/stdin", "/dev/stdout", "/dev/stderr"})
    if (normal.starts_with(magic) || normal + "/" == magic) {
      c.refused = "resolves through /proc/PID/fd or /dev/fd, which names whatever a process has open, not a device or file";
      return c;
    }
  open_how how{};
  how.flags = O_PATH | O_CLOEXEC;
  how.resolve = RESOLVE_NO_MAGICLINKS;
  UniqueFd fd(static_cast<int>(::syscall(SYS_openat2, AT_FDCWD, id.c_str(), &how, sizeof how)));
  if (!fd.valid()) {
    if (errno == ELOOP && ::access(id.c_str(), F_OK) == 0)  // a link planted elsewhere that leads into /proc/PID/fd
      c.refused = "resolves through /proc/PID/fd or /dev/fd, which names whatever a process has open, not a device or file";
    else if (errno == ENOSYS)  // kernels before 5.6: a plain open (the words were checked above)
      fd.reset(::open(id.c_str(), O_PATH | O_CLOEXEC));
    if (!fd.valid()) return c;
  }
  struct stat st{};
  if (::fstat(fd.get(), &st) != 0) return c;
  c.existed = true;
  if (S_ISBLK(st.st_mode)) c.dev_id = dev_id_of(st.st_rdev);
  else if (S_ISREG(st.st_mode)) c.file = {st.st_dev, st.st_ino};
  return c;
}

Consent::Consent(const std::vector<std::string>& given) {
  for (const auto& id : given) add(id);
}

void Consent::add(const std::string& id) {
  ids.push_back(id);
  resolved.push_back(resolve_consent_id(id));
}

const ConsentId* Consent::refused() const {
  for (const auto& c : resolved)
    if (!c.refused.empty()) return &c;
  return nullptr;
}

Status check_consent(const Device& d, const Protection& p, const Consent& consent, const std::vector<Device>& host_disks) {
  if (const ConsentId* bad = consent.refused())
    return safety_error(d.path, fmt::format("--destroy-data {} {}; refusing to write", bad->text, bad->refused),
                        "nothing was written; name the device by its /dev path, serial or WWN");
  bool by_path = false, by_strong = false, all = false;
  std::string shared;  // the first id given that names d but another disk too
  for (size_t i = 0; i < consent.ids.size(); ++i) {
    const std::string& id = consent.ids[i];
    if (id == kAllUnprotected) {
      all = true;
      continue;
    }
    // A Consent built field by field (no resolution) has only its texts: resolved now, once.
    ConsentId c = i < consent.resolved.size() ? consent.resolved[i] : resolve_consent_id(id);
    if (names_by_path(d, c)) by_path = true;
    auto form = identifies(d, id);
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
