// Matching operator-given ids against a device's path, serial and WWN.
#include "devices/identity.hpp"

#include <cctype>
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

std::optional<IdForm> identifies(const Device& d, std::string_view id) {
  if (id.empty()) return std::nullopt;
  if (id == d.path || (!d.name.empty() && id == d.name)) return IdForm::path;
  if (!d.serial.empty() && id == d.serial) return IdForm::serial;
  if (!d.wwn.empty() && normalize_wwn(id) == normalize_wwn(d.wwn) && !normalize_wwn(id).empty()) return IdForm::wwn;
  return std::nullopt;
}

std::string resolve_device_path(std::string_view id) {
  if (!id.starts_with("/")) return std::string(id);
  std::error_code ec;
  auto canonical = std::filesystem::canonical(std::filesystem::path(id), ec);
  return ec ? std::string(id) : canonical.string();
}

}  // namespace diskvet::devices
