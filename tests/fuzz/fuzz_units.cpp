// Sizes and durations in fio's units, as the CLI (--bs, --size, --runtime, --spin ...) and suite files
// give them: a value parses to a finite, non-negative number or is rejected, and prints back.
#include <cmath>
#include <cstdint>

#include "common/units.hpp"
#include "tests/fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace diskvet;
  std::string_view text = fuzz::as_text(data, size);
  if (auto bytes = parse_size(text)) FUZZ_CHECK(!format_bytes(*bytes).empty());
  if (auto seconds = parse_duration_s(text)) {
    FUZZ_CHECK(std::isfinite(*seconds));
    FUZZ_CHECK(*seconds >= 0);
    FUZZ_CHECK(!format_duration(*seconds).empty());
  }
  return 0;
}
