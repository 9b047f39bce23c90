// What the kernel tells diskvet about the running system: the command line (root=, diskvet.boot=,
// which make a disk the boot medium), mountinfo and swaps. Values are single words; nothing crashes.
#include <cctype>
#include <cstdint>

#include "devices/host_state.hpp"
#include "tests/fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace diskvet;
  std::string_view text = fuzz::as_text(data, size);
  for (std::string_view key : {"root", "diskvet.boot"}) {
    std::string value = devices::cmdline_value(text, key);
    for (char c : value) FUZZ_CHECK(!std::isspace(static_cast<unsigned char>(c)));
    if (!value.empty()) FUZZ_CHECK(text.find(std::string(key) + "=" + value) != std::string_view::npos);
  }
  for (const auto& m : devices::parse_mountinfo(text)) FUZZ_CHECK(m.mountpoint.size() <= text.size());
  for (const auto& s : devices::parse_swaps(text)) FUZZ_CHECK(s.size() <= text.size());
  return 0;
}
