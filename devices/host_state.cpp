// Parsing the kernel's views of mounts, swap and boot parameters; walking the block stack in sysfs.
//
// mountinfo and swaps are parsed here, not with libmount (util-linux 2.38); a libmount version was
// written and measured: its mountinfo parser replaces a "/dev/root" source with the device of that
// number on the running host (its sysfs, else root= on its kernel command line through blkid), so
// parsing a fake host's text consults the real machine and the result depends on it; it reads swaps
// with a forced format only from a file name (from text it guesses from the header); and it would
// save 11 lines (36 of table, iterator and stream handling for the 47 of unescape_octal,
// parse_mountinfo and parse_swaps) for a new build dependency.
#include "devices/host_state.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "devices/sysfs.hpp"

namespace diskvet::devices {

namespace fs = std::filesystem;

namespace {

// mountinfo escapes space, tab, newline and backslash as \ooo (octal).
std::string unescape_octal(std::string_view s) {
  auto oct = [&](size_t k) { return k < s.size() && s[k] >= '0' && s[k] <= '7'; };
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && oct(i + 1) && oct(i + 2) && oct(i + 3)) {
      out += static_cast<char>((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

void walk(const fs::path& dir, std::vector<std::string>& out, int depth) {
  if (depth > 16) return;  // a cycle would be a kernel bug; do not loop forever on a fake tree
  std::error_code ec;
  fs::path d = fs::canonical(dir, ec);
  if (ec) return;
  if (fs::exists(d / "partition", ec)) d = d.parent_path();
  for (const auto& slave : fs::directory_iterator(d / "slaves", ec)) walk(slave.path(), out, depth + 1);
  // A dm/md device is listed too: it is itself a disk that discovery reports.
  std::string name = d.filename().string();
  if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
}

}  // namespace

std::vector<MountEntry> parse_mountinfo(std::string_view text) {
  std::vector<MountEntry> out;
  std::istringstream lines{std::string(text)};
  for (std::string line; std::getline(lines, line);) {
    std::istringstream in(line);
    std::string id, parent, devno, root, mountpoint, options;
    if (!(in >> id >> parent >> devno >> root >> mountpoint >> options)) continue;
    MountEntry e{devno, unescape_octal(mountpoint), {}, {}, options, {}};
    // Optional fields end at a lone "-"; then fstype, source and super options, each after exactly one
    // space: the kernel writes an empty source (`mount -t tmpfs "" /x`) as nothing between two spaces,
    // which reading words would skip, taking the options for the source.
    for (std::string field; in >> field;)
      if (field == "-") {
        std::string tail;
        std::getline(in, tail);
        std::vector<std::string> parts;
        for (size_t at = tail.empty() || tail[0] != ' ' ? 0 : 1, end = 0; at <= tail.size(); at = end + 1) {
          end = std::min(tail.find(' ', at), tail.size());
          parts.push_back(tail.substr(at, end - at));
        }
        parts.resize(3);
        e.fstype = parts[0];
        e.source = unescape_octal(parts[1]);
        e.super_options = parts[2];
        break;
      }
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<std::string> parse_swaps(std::string_view text) {
  std::vector<std::string> out;
  std::istringstream lines{std::string(text)};
  std::string line;
  std::getline(lines, line);  // header
  while (std::getline(lines, line)) {
    std::istringstream in(line);
    std::string name;
    if (in >> name) out.push_back(unescape_octal(name));
  }
  return out;
}

std::string cmdline_value(std::string_view cmdline, std::string_view key) {
  std::istringstream in{std::string(cmdline)};
  std::string found;
  for (std::string word; in >> word;)
    if (word.size() > key.size() && word.compare(0, key.size(), key) == 0 && word[key.size()] == '=')
      found = word.substr(key.size() + 1);  // the last one wins, as in the kernel
  return found;
}

std::vector<std::string> backing_disks(const std::string& dev_id, const HostPaths& host) {
  std::vector<std::string> out;
  if (dev_id.empty()) return out;
  walk(host.sysfs / "dev" / "block" / dev_id, out, 0);
  return out;
}

std::string block_dev_id(const std::string& node) {
  struct stat st{};
  if (::stat(node.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) return {};
  return fmt::format("{}:{}", major(st.st_rdev), minor(st.st_rdev));
}

}  // namespace diskvet::devices
