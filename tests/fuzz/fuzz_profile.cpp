// Profile files (--profile FILE, diskvet.profile= on the appliance): a file loads into limits that
// are positive and finite, or is rejected with an input error. (Model patterns are only matched for
// shipped profiles, by --profile auto, so a file's pattern is compiled here but never run.)
#include <cmath>
#include <cstdint>

#include "suites/profile.hpp"
#include "tests/fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace diskvet;
  auto profile = suites::parse_profile(fuzz::as_text(data, size), "fuzz-profile.json");
  if (!profile) {
    FUZZ_CHECK(profile.error().kind == ErrorKind::input);
    FUZZ_CHECK(!profile.error().what.empty());
    return 0;
  }
  FUZZ_CHECK(!profile->name.empty());
  for (const auto& t : profile->tests)
    for (const auto& l : t.limits) {
      FUZZ_CHECK(std::isfinite(l.limit.value) && l.limit.value > 0);
      FUZZ_CHECK(l.limit.tolerance_pct >= 0 && l.limit.tolerance_pct <= 100);
    }
  return 0;
}
