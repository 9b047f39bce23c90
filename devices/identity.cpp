// Matching operator-given ids against a device's path, serial, WWN and SERIAL/NSID, and deciding
// which ids name one device alone.
#include "devices/identity.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <filesystem>

namespace diskvet::devices {

std::string normalize_wwn(std::string_view wwn) {
  std::string out;
  for (char c : wwn) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view prefix : {"naa.", "eui.", "t10.", "nguid.", "uuid.", "0x"})
    if (std::string_view(out).starts_with(prefix)) {
      out.erase(0, prefix.size());
      break;
    }
  return out;
}

std::string namespace_id(const Device& d) {
  if (d.kind != DeviceKind::nvme || d.serial.empty() || d.nvme_nsid == 0) return {};
  return fmt::format("{}/{}", d.serial, d.nvme_nsid);
}

namespace {

bool is_namespace_id(const Device& d, std::string_view id) {
  if (d.kind != DeviceKind::nvme || d.serial.empty() || d.nvme_nsid == 0) return false;
  size_t slash = id.rfind('/');
  if (slash == std::string_view::npos || id.substr(0, slash) != d.serial) return false;
  std::string_view digits = id.substr(slash + 1);
  uint32_t nsid = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), nsid);
  return ec == std::errc() && end == digits.data() + digits.size() && !digits.empty() && nsid == d.nvme_nsid;
}

}  // namespace

std::optional<IdForm> identifies(const Device& d, std::string_view id) {
  if (id.empty()) return std::nullopt;
  if (id == d.path || (!d.name.empty() && id == d.name)) return IdForm::path;
  if (!d.serial.empty() && id == d.serial) return IdForm::serial;
  if (is_namespace_id(d, id)) return IdForm::namespace_id;
  if (!d.wwn.empty() && normalize_wwn(id) == normalize_wwn(d.wwn) && !normalize_wwn(id).empty()) return IdForm::wwn;
  return std::nullopt;
}

bool names_another(const Device& d, std::string_view id, const std::vector<Device>& host_disks) {
  for (const auto& other : host_disks) {
    if (other.path == d.path) continue;
    auto form = identifies(other, id);
    if (form == IdForm::serial || form == IdForm::wwn) return true;
  }
  return false;
}

std::vector<std::string> exact_ids(const Device& d, const std::vector<Device>& host_disks) {
  std::vector<std::string> out;
  if (!d.serial.empty() && !names_another(d, d.serial, host_disks)) out.push_back(d.serial);
  if (auto ns = namespace_id(d); !ns.empty()) out.push_back(ns);
  if (!d.wwn.empty() && !normalize_wwn(d.wwn).empty() && !names_another(d, d.wwn, host_disks)) out.push_back(d.wwn);
  return out;
}

std::string consent_id(const Device& d, const std::vector<Device>& host_disks) {
  auto ids = exact_ids(d, host_disks);
  return ids.empty() ? std::string() : ids.front();
}

bool same_medium(const Device& a, const Device& b) {
  if (a.path == b.path) return true;
  std::string wa = normalize_wwn(a.wwn), wb = normalize_wwn(b.wwn);
  if (!wa.empty() || !wb.empty()) return wa == wb;
  return !a.serial.empty() && a.serial == b.serial && a.nvme_nsid == b.nvme_nsid;
}

std::string resolve_device_path(std::string_view id) {
  if (!id.starts_with("/")) return std::string(id);
  std::error_code ec;
  auto canonical = std::filesystem::canonical(std::filesystem::path(id), ec);
  return ec ? std::string(id) : canonical.string();
}

}  // namespace diskvet::devices
