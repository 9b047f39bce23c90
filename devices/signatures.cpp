// libblkid probing at the boundary; the only file that includes blkid.h.
#include "devices/signatures.hpp"

#include <blkid/blkid.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <fmt/format.h>

#include <cerrno>
#include <memory>

#include "common/fd.hpp"

namespace diskvet::devices {

namespace {

struct ProbeFree {
  void operator()(blkid_struct_probe* p) const { blkid_free_probe(p); }
};

std::string value(blkid_probe pr, const char* name) {
  const char* data = nullptr;
  size_t len = 0;
  if (blkid_probe_lookup_value(pr, name, &data, &len) != 0 || !data) return {};
  std::string s(data, len);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

using ProbePtr = std::unique_ptr<blkid_struct_probe, ProbeFree>;

// libblkid on a descriptor this code opened: read-only and never O_EXCL, so probing cannot make
// another program's exclusive open fail (libblkid's own open flags vary between versions).
struct OpenProbe {
  UniqueFd fd;
  ProbePtr probe{nullptr};
  int err = 0;
};

// With `dev_id`, the opened node must be that block device (fstat), or nothing is probed: a name
// can be another device's in this mount namespace, or change between a look-up and the open.
OpenProbe open_probe(const std::string& node, const std::string& dev_id = {}) {
  OpenProbe o;
  o.fd.reset(::open(node.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!o.fd.valid()) {
    o.err = errno;
    return o;
  }
  struct stat st{};
  if (!dev_id.empty() &&
      (::fstat(o.fd.get(), &st) != 0 || !S_ISBLK(st.st_mode) || fmt::format("{}:{}", major(st.st_rdev), minor(st.st_rdev)) != dev_id)) {
    o.err = ENXIO;
    return o;
  }
  o.probe.reset(blkid_new_probe());
  if (!o.probe || blkid_probe_set_device(o.probe.get(), o.fd.get(), 0, 0) != 0) {
    o.probe.reset();
    o.err = EIO;
  }
  return o;
}

}  // namespace

Result<Signatures> probe_signatures(const std::string& node, const std::string& dev_id) {
  OpenProbe opened = open_probe(node, dev_id);
  if (!opened.probe) {
    int err = opened.err ? opened.err : EIO;
    return system_error(node, "cannot be probed for partition tables and signatures", err,
                        (err == EACCES || err == EPERM) ? "run as root, with access to the device" : "check the device");
  }
  blkid_probe p = opened.probe.get();
  blkid_probe_enable_superblocks(p, 1);
  blkid_probe_set_superblocks_flags(p, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE | BLKID_SUBLKS_LABEL);
  blkid_probe_enable_partitions(p, 1);
  blkid_probe_set_partitions_flags(p, BLKID_PARTS_ENTRY_DETAILS);
  Signatures s;
  int rc = blkid_do_safeprobe(p);
  if (rc == -2) {
    s.ambivalent = true;
  } else if (rc < 0) {
    return runtime_error(node, "cannot be probed for partition tables and signatures (libblkid failed)", "check the device");
  }
  if (rc == 0) {
    s.partition_table = value(p, "PTTYPE");
    s.type = value(p, "TYPE");
    s.usage = value(p, "USAGE");
    s.label = value(p, "LABEL");
    if (!s.partition_table.empty())
      if (blkid_partlist list = blkid_probe_get_partitions(p)) {
        int n = blkid_partlist_numof_partitions(list);
        s.partition_count = n > 0 ? static_cast<size_t>(n) : 0;
      }
  }
  return s;
}

std::string describe_signature(const Signatures& s) {
  if (s.ambivalent) return "carries several conflicting signatures";
  if (s.type == "LVM2_member") return "carries an LVM physical volume signature (LVM2_member)";
  if (s.type == "linux_raid_member" || s.usage == "raid") return fmt::format("carries a RAID member signature ({})", s.type);
  if (s.type == "swap") return "carries a swap signature";
  if (s.usage == "crypto") return fmt::format("carries an encrypted volume signature ({})", s.type);
  std::string label = s.label.empty() ? "" : fmt::format(", label '{}'", s.label);
  if (s.usage == "filesystem") return fmt::format("carries a filesystem signature ({}{})", s.type, label);
  return fmt::format("carries a signature ({}{})", s.type, label);
}

}  // namespace diskvet::devices

namespace diskvet::devices {

std::optional<VolumeFacts> probe_volume(const std::string& node, const std::string& dev_id) {
  OpenProbe opened = open_probe(node, dev_id);
  if (!opened.probe) return std::nullopt;
  blkid_probe p = opened.probe.get();
  blkid_probe_enable_superblocks(p, 1);
  blkid_probe_set_superblocks_flags(p, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL | BLKID_SUBLKS_UUID);
  blkid_probe_enable_partitions(p, 1);
  blkid_probe_set_partitions_flags(p, BLKID_PARTS_ENTRY_DETAILS);
  VolumeFacts v;
  if (blkid_do_safeprobe(p) == 0) {
    v.type = value(p, "TYPE");
    v.label = value(p, "LABEL");
    v.uuid = value(p, "UUID");
    v.part_uuid = value(p, "PART_ENTRY_UUID");
    v.part_label = value(p, "PART_ENTRY_NAME");
  }
  v.fd = std::move(opened.fd);
  return v;
}

std::string resolve_device_spec(const std::string& spec) {
  if (spec.empty()) return {};
  if (spec.starts_with("/")) return spec;
  std::unique_ptr<char, decltype(&free)> dev(blkid_evaluate_tag(spec.c_str(), nullptr, nullptr), &free);
  return dev ? std::string(dev.get()) : std::string();
}

}  // namespace diskvet::devices
