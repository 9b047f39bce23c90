// Suite files (--suite FILE, diskvet.run= on the appliance): a file loads into a suite whose every
// workload is within the bounds the engine is built for, or is rejected with an input error.
#include <cmath>
#include <cstdint>

#include "suites/suite.hpp"
#include "tests/fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace diskvet;
  auto suite = suites::parse_suite(fuzz::as_text(data, size), "fuzz-suite.json");
  if (!suite) {
    FUZZ_CHECK(suite.error().kind == ErrorKind::input);
    FUZZ_CHECK(!suite.error().what.empty());
    return 0;
  }
  FUZZ_CHECK(!suite->name.empty());
  FUZZ_CHECK(suite->placeholder || !suite->tests.empty() || suite->self_test.before != diskvet::devices::SelfTestType::none ||
             suite->self_test.after != diskvet::devices::SelfTestType::none);
  for (const auto& t : suite->tests) {
    FUZZ_CHECK(!t.id.empty());
    FUZZ_CHECK(!t.workloads.empty());
    if (t.sweep) FUZZ_CHECK(t.sweep->steps.size() >= 2);
    for (const auto& w : t.workloads) {
      FUZZ_CHECK(w.bs_bytes >= 512 && w.bs_bytes % 512 == 0 && w.bs_bytes <= (64u << 20));
      FUZZ_CHECK(w.iodepth >= 1 && w.iodepth <= 4096);
      FUZZ_CHECK(w.numjobs >= 1 && w.numjobs <= 256);
      FUZZ_CHECK(w.rwmixread_pct <= 100);
      FUZZ_CHECK(std::isfinite(w.runtime_s) && w.runtime_s > 0);
      FUZZ_CHECK(std::isfinite(w.ramp_s) && w.ramp_s >= 0);
      FUZZ_CHECK(w.interval_s >= 0.01);
      FUZZ_CHECK(w.spin_us <= 1'000'000);
    }
  }
  return 0;
}
