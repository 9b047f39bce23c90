// sysfs attribute reading, shared by discovery, protection and health.
#include "devices/sysfs.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>

#include "common/fd.hpp"

namespace diskvet::devices {

namespace {

// Plain read(2): sysfs attributes fail with errors such as ENXIO (a device without the page),
// and libstdc++'s filebuf throws on a failed read instead of reporting it. nullopt on any error.
std::optional<std::string> read_file(const std::filesystem::path& file) {
  UniqueFd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY));
  if (!fd.valid()) return std::nullopt;
  std::string text;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return std::nullopt;
    }
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
    if (text.size() > (1u << 20)) break;  // attributes are small; never slurp a huge file by mistake
  }
  return text;
}

}  // namespace

std::string read_raw(const std::filesystem::path& file) { return read_file(file).value_or(""); }

std::optional<std::string> read_attr(const std::filesystem::path& file) {
  auto text = read_file(file);
  if (!text) return std::nullopt;
  while (!text->empty() && (text->back() == '\n' || text->back() == ' ' || text->back() == '\t' || text->back() == '\0'))
    text->pop_back();
  size_t start = text->find_first_not_of(" \t");
  return start == std::string::npos ? std::string() : text->substr(start);
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

std::string devname(const std::filesystem::path& sysdir) {
  auto uevent = read_attr(sysdir / "uevent").value_or("");
  size_t at = uevent.find("DEVNAME=");
  if (at == std::string::npos) return {};
  size_t end = uevent.find('\n', at);
  return uevent.substr(at + 8, end == std::string::npos ? std::string::npos : end - at - 8);
}

}  // namespace diskvet::devices
