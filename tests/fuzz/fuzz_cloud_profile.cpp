// --profile FAMILY:KEY=VALUE,... and --host-cap iops=N,mbps=M | PROVIDER:SIZE as a user types them: a parsed cloud
// spec has finite, positive limits, and a host cap only ever lowers a floor.
#include <cmath>
#include <cstdint>
#include <string>

#include "suites/cloud_profile.hpp"
#include "tests/fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace diskvet::suites;
  std::string text(diskvet::fuzz::as_text(data, size));
  if (auto args = parse_profile_args(text); args && is_cloud_family(args->name)) {
    // The volume's size from the input's length: 0 (unknown) and odd sizes are both tried.
    const uint64_t size_bytes = static_cast<uint64_t>(size) * 977 * 1024 * 1024;
    if (auto spec = cloud_spec(*args, size_bytes)) {
      FUZZ_CHECK(std::isfinite(spec->iops) && spec->iops > 0);
      FUZZ_CHECK(std::isfinite(spec->mbps) && spec->mbps >= 0);
      Profile p = cloud_profile(*spec);
      if (auto cap = parse_host_cap("iops=500,mbps=20")) {
        std::string bound;
        Profile capped = p;
        apply_host_cap(capped, *cap, bound);
        for (size_t t = 0; t < p.tests.size(); ++t)
          for (size_t l = 0; l < p.tests[t].limits.size(); ++l)
            if (p.tests[t].limits[l].limit.bound == diskvet::runner::Limit::Bound::min)
              FUZZ_CHECK(capped.tests[t].limits[l].limit.value <= p.tests[t].limits[l].limit.value);
      }
    }
  }
  if (auto cap = parse_host_cap(text)) {
    FUZZ_CHECK(cap->iops || cap->mbps);
    if (cap->iops) FUZZ_CHECK(std::isfinite(*cap->iops) && *cap->iops > 0);
    if (cap->mbps) FUZZ_CHECK(std::isfinite(*cap->mbps) && *cap->mbps > 0);
    FUZZ_CHECK(cap->vm_size.empty() == cap->source.empty());  // a VM size always names its document
  }
  return 0;
}
