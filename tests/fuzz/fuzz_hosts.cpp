// Hosts inventories (diskvet run --hosts FILE): a file loads into hosts with unique plain names and
// ssh destinations that cannot pass for options, and consent only where diskvet is, or is rejected
// with an input error.
#include <cstdint>
#include <set>

#include "runner/hosts/inventory.hpp"
#include "tests/fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace diskvet;
  auto inv = runner::parse_inventory(fuzz::as_text(data, size), "fuzz-hosts.json");
  if (!inv) {
    FUZZ_CHECK(inv.error().kind == ErrorKind::input);
    FUZZ_CHECK(!inv.error().what.empty());
    return 0;
  }
  FUZZ_CHECK(!inv->hosts.empty());
  std::set<std::string> names;
  for (const auto& h : inv->hosts) {
    FUZZ_CHECK(names.insert(h.name).second);
    FUZZ_CHECK(!h.name.empty() && h.name.find('/') == std::string::npos && h.name[0] != '.');
    FUZZ_CHECK(!h.ssh.empty() && h.ssh[0] != '-' && h.ssh.find(' ') == std::string::npos);
    for (const auto& d : h.devices) {
      FUZZ_CHECK(!d.id.empty() && d.id[0] != '-');
      FUZZ_CHECK(!d.destroy_data || h.has_diskvet());
    }
  }
  return 0;
}
