// sysfs attribute reading, shared by discovery, protection and health.
#include "devices/sysfs.hpp"

#include <charconv>
#include <fstream>
#include <iterator>

namespace diskvet::devices {

// libstdc++'s filebuf throws std::ios_base::failure when read() fails (some sysfs attributes answer
// ENXIO or EIO, e.g. on QEMU's NVMe controller): an unreadable attribute is an absent one.
std::string read_raw(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  try {
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::ios_base::failure&) {
    return {};
  }
}

std::optional<std::string> read_attr(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text;
  try {
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::ios_base::failure&) {
    return std::nullopt;
  }
  if (in.bad()) return std::nullopt;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\t' || text.back() == '\0'))
    text.pop_back();
  size_t start = text.find_first_not_of(" \t");
  return start == std::string::npos ? std::string() : text.substr(start);
}

std::optional<uint64_t> read_u64(const std::filesystem::path& file) {
  auto text = read_attr(file);
  if (!text || text->empty()) return std::nullopt;
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
  if (ec != std::errc() || ptr != text->data() + text->size()) return std::nullopt;
  return v;
}

std::string selected_choice(const std::string& list) {
  auto open = list.find('[');
  auto close = list.find(']', open);
  if (open == std::string::npos || close == std::string::npos) return list;
  return list.substr(open + 1, close - open - 1);
}

}  // namespace diskvet::devices
