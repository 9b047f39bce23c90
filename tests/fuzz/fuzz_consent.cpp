// Consent ids (--destroy-data, diskvet.destroy-data=, the TUI): whatever ids are given, a device is
// written only when one of them names it, a protected device only by its serial or WWN, and a
// mounted one never. Input: one byte choosing the device's protection, then ids one per line.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>

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
  Device d;
  d.path = "/dev/fuzz-nvme0n1";  // no such node: ids resolve to themselves
  d.name = "fuzz-nvme0n1";
  d.serial = std::string(kSerial);
  d.wwn = "eui." + std::string(kWwnHex);
  Protection p;
  switch (data[0] % 3) {
    case 0: break;
    case 1: p.reasons.push_back({ProtectionClass::signature, "has an ext4 signature"}); break;
    default: p.reasons.push_back({ProtectionClass::mounted, "is mounted at /mnt"}); break;
  }
  Consent consent;
  std::string_view rest = diskvet::fuzz::as_text(data + 1, size - 1);
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    consent.ids.emplace_back(rest.substr(0, nl));
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
  }
  bool strong = std::any_of(consent.ids.begin(), consent.ids.end(), [](const std::string& id) {
    return id == kSerial || (id.size() >= kWwnHex.size() && lower(id).ends_with(kWwnHex));
  });
  bool any = strong || std::any_of(consent.ids.begin(), consent.ids.end(), [&](const std::string& id) {
               return id == d.path || id == d.name || id == kAllUnprotected;
             });
  bool names_exactly = std::any_of(consent.ids.begin(), consent.ids.end(), [](const std::string& id) { return id == kSerial; });
  auto decision = check_consent(d, p, consent);
  if (!decision) FUZZ_CHECK(decision.error().kind == diskvet::ErrorKind::safety);
  switch (data[0] % 3) {
    case 0:  // unprotected: any id naming it, or all-unprotected
      FUZZ_CHECK(!decision.ok() || any);
      if (names_exactly) FUZZ_CHECK(decision.ok());
      break;
    case 1:  // a signature: only its serial or WWN
      FUZZ_CHECK(!decision.ok() || strong);
      if (names_exactly) FUZZ_CHECK(decision.ok());
      break;
    default:  // mounted: never
      FUZZ_CHECK(!decision.ok());
      break;
  }
  return 0;
}
