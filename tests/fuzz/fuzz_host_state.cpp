// What the kernel tells diskvet about the running system: the command line (root=, diskvet.boot=,
// which make a disk the boot medium), mountinfo and swaps. Values are single words; nothing crashes.
#include <cctype>
#include <cstdint>

#include "devices/file_system.hpp"
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
  auto mounts = devices::parse_mountinfo(text);
  for (const auto& m : mounts) {
    FUZZ_CHECK(m.mountpoint.size() <= text.size());
    FUZZ_CHECK(m.super_options.size() <= text.size());
    // The file system of a file target on each mount: whatever the options say, the sizes are numbers or 0.
    if (auto f = devices::file_system_of(m.dev_id, m.mountpoint + "/f", mounts)) {
      FUZZ_CHECK(f->fstype.size() <= text.size());
      FUZZ_CHECK(!devices::describe(*f).empty());
    }
  }
  for (const auto& s : devices::parse_swaps(text)) FUZZ_CHECK(s.size() <= text.size());
  return 0;
}
