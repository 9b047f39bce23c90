// Boot medium evidence: libblkid identities and the FAT marker file of every node of a disk.
#include "devices/boot_medium.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "devices/fat_file.hpp"
#include "devices/host_state.hpp"
#include "devices/signatures.hpp"
#include "devices/sysfs.hpp"

namespace diskvet::devices {

namespace fs = std::filesystem;

namespace {

bool equal_nocase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string where(const NodeIdentity& n) { return n.who.empty() ? "the disk" : n.who; }

// The marker is one line of hex digits; anything else is shown escaped-free and short.
std::string printable_marker(const std::string& raw) {
  std::string out;
  for (char c : raw)
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '-') out += c;
  return out.substr(0, 32);
}

}  // namespace

std::vector<NodeIdentity> identify_nodes(const Device& d, const HostPaths& host) {
  std::vector<NodeIdentity> out;
  fs::path sysdir = host.sysfs / "block" / d.name;
  auto add = [&](std::string who, std::string node, std::string dev_id) {
    NodeIdentity n{std::move(who), std::move(node), std::move(dev_id), {}, {}, {}, {}, {}, {}};
    std::error_code ec;
    if (!fs::exists(n.node, ec)) return;
    auto facts = probe_volume(n.node, host.live() ? n.dev_id : std::string());
    if (!facts) return;
    n.type = facts->type;
    n.label = facts->label;
    n.uuid = facts->uuid;
    n.part_uuid = facts->part_uuid;
    n.part_label = facts->part_label;
    // Only a FAT volume can hold the marker file; the reader checks the boot sector itself too.
    if (n.type == "vfat" || n.type.empty()) n.medium_marker = read_fat_root_file(facts->fd.get(), kMediumMarkerFile, 256);
    out.push_back(std::move(n));
  };
  add("", d.path, d.dev_id.empty() ? read_attr(sysdir / "dev").value_or("") : d.dev_id);
  for (const auto& part : d.partitions)
    add("partition " + part, (host.dev / part).string(), read_attr(sysdir / part / "dev").value_or(""));
  return out;
}

bool spec_names(std::string_view spec, const NodeIdentity& n) {
  auto tag = [&](std::string_view key, const std::string& have, bool nocase) {
    if (!spec.starts_with(key) || have.empty()) return false;
    std::string_view want = spec.substr(key.size());
    if (want.size() >= 2 && want.front() == '"' && want.back() == '"') want = want.substr(1, want.size() - 2);
    return nocase ? equal_nocase(want, have) : want == have;
  };
  if (spec.starts_with("/")) {
    if (spec == n.node) return true;
    std::string id = block_dev_id(std::string(spec));
    return !id.empty() && id == n.dev_id;
  }
  return tag("UUID=", n.uuid, true) || tag("LABEL=", n.label, false) || tag("PARTUUID=", n.part_uuid, true) ||
         tag("PARTLABEL=", n.part_label, false);
}

std::vector<std::string> boot_medium_evidence(const std::vector<NodeIdentity>& nodes, std::string_view boot_spec) {
  std::vector<std::string> out;
  for (const auto& n : nodes) {
    if (n.medium_marker) {
      std::string id = printable_marker(*n.medium_marker);
      out.push_back(fmt::format("diskvet medium marker {}on {}", id.empty() ? "" : id + " ", where(n)));
    }
    if (n.type == "iso9660" && n.label == kImageVolumeLabel)
      out.push_back(fmt::format("diskvet image volume {} on {}", kImageVolumeLabel, where(n)));
    if (!boot_spec.empty() && spec_names(boot_spec, n))
      out.push_back(fmt::format("diskvet.boot={} names {}", boot_spec, where(n)));
  }
  return out;
}

}  // namespace diskvet::devices
