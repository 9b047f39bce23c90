// CPU lists in fio's cpus_allowed syntax (--cpus-allowed, the suite key cpus_allowed): a list parses
// to ascending, unique, valid CPU numbers that print and parse back to the same set, or is rejected.
#include <sched.h>

#include <algorithm>
#include <cstdint>

#include "runner/io/cpu_set.hpp"
#include "tests/fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using diskvet::runner::CpuSet;
  auto set = CpuSet::parse(diskvet::fuzz::as_text(data, size));
  if (!set) {
    FUZZ_CHECK(!set.error().what.empty());
    return 0;
  }
  FUZZ_CHECK(!set->cpus.empty());
  FUZZ_CHECK(std::adjacent_find(set->cpus.begin(), set->cpus.end(), std::greater_equal<>()) == set->cpus.end());
  FUZZ_CHECK(set->cpus.back() < CPU_SETSIZE);
  auto again = CpuSet::parse(set->to_string());
  FUZZ_CHECK(again && again->cpus == set->cpus);
  return 0;
}
