// Consent ids (--destroy-data, diskvet.destroy-data=, the TUI): whatever ids are given, a device is
// written only when one of them names it, a protected device only by its serial, SERIAL/NSID or WWN,
// a namespace of a controller with two never by the bare serial, and a mounted one never.
// Input: one byte choosing the protection and whether the controller has a second namespace, then
// ids one per line.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include "devices/consent.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace {

constexpr std::string_view kSerial = "S4EWNX0R123456";
constexpr std::string_view kWwnHex = "0025385b71b0a2c1";

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace diskvet::devices;
  if (size == 0) return 0;
  const int protection = data[0] % 3;
  const bool two_namespaces = (data[0] / 3) % 2 == 1;
  Device d;
  d.path = "/dev/fuzz-nvme0n1";  // no such node: ids resolve to themselves
  d.name = "fuzz-nvme0n1";
  d.kind = DeviceKind::nvme;
  d.serial = std::string(kSerial);
  d.nvme_nsid = 1;
  d.wwn = "eui." + std::string(kWwnHex);
  std::vector<Device> host_disks{d};
  if (two_namespaces) {
    Device other = d;
    other.path = "/dev/fuzz-nvme0n2";
    other.name = "fuzz-nvme0n2";
    other.nvme_nsid = 2;
    other.wwn = "eui.0025385b71b0a2c2";
    host_disks.push_back(other);
  }
  Protection p;
  if (protection == 1) p.reasons.push_back({ProtectionClass::signature, "has an ext4 signature"});
  if (protection == 2) p.reasons.push_back({ProtectionClass::mounted, "is mounted at /mnt"});
  Consent consent;
  std::string_view rest = diskvet::fuzz::as_text(data + 1, size - 1);
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    consent.ids.emplace_back(rest.substr(0, nl));
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
  }
  // What may name this namespace and no other: a generous oracle (any SERIAL/... form counts), so a
  // grant it does not explain is a real hole.
  auto names_it = [&](const std::string& id) {
    return (id == kSerial && !two_namespaces) || id.starts_with(std::string(kSerial) + "/") ||
           (id.size() >= kWwnHex.size() && lower(id).ends_with(kWwnHex));
  };
  auto has = [&](auto pred) { return std::any_of(consent.ids.begin(), consent.ids.end(), pred); };
  bool by_path = has([&](const std::string& id) { return id == d.path || id == d.name; });
  // The controller's serial together with the namespace's own path names that namespace (consent.hpp).
  bool strong = has(names_it) || (by_path && has([](const std::string& id) { return id == kSerial; }));
  bool any = strong || by_path || has([](const std::string& id) { return id == kAllUnprotected; });
  bool only_bare_serial = !consent.ids.empty() && std::all_of(consent.ids.begin(), consent.ids.end(), [](const std::string& id) { return id == kSerial; });
  auto decision = check_consent(d, p, consent, host_disks);
  if (!decision) FUZZ_CHECK(decision.error().kind == diskvet::ErrorKind::safety);
  if (protection == 2) FUZZ_CHECK(!decision.ok());                // mounted: never
  if (protection == 1) FUZZ_CHECK(!decision.ok() || strong);      // a signature: its own strong id only
  if (protection == 0) FUZZ_CHECK(!decision.ok() || any);         // unprotected: anything naming it
  if (two_namespaces && only_bare_serial) FUZZ_CHECK(!decision.ok());  // the serial names the controller
  if (!two_namespaces && only_bare_serial && protection != 2) FUZZ_CHECK(decision.ok());
  return 0;
}
