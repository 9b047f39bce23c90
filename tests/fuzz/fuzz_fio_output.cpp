// fio's client output as the controller reads it back (json+, banners, lost hosts) and fio's
// interval logs: parsed or rejected with an input error; what parses merges into percentiles that
// never decrease with the percentile and lie among the bins' values, and counts that add up.
#include <cstdint>

#include "runner/hosts/hosts_merge.hpp"
#include "tests/fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace diskvet;
  const auto text = fuzz::as_text(data, size);
  auto log = runner::parse_fio_interval_log(text, "fuzz-log");
  if (!log) FUZZ_CHECK(log.error().kind == ErrorKind::input);
  auto out = runner::parse_fio_client_output(text);
  if (!out) {
    FUZZ_CHECK(out.error().kind == ErrorKind::input);
    return 0;
  }
  std::vector<const runner::FioHostResult*> hosts;
  for (const auto& h : out->hosts) hosts.push_back(&h);
  const std::vector<double> pcts{0, 1, 50, 99, 99.99, 100};
  runner::HostsMerge m = runner::merge_hosts(hosts, {}, {}, pcts, 1000);
  for (const auto& d : m.dir) {
    uint64_t prev = 0;
    for (double p : pcts) {
      if (d.bins.empty()) break;
      const uint64_t v = d.percentiles_ns.at(p);
      FUZZ_CHECK(v >= prev);
      FUZZ_CHECK(d.bins.count(v) == 1);
      prev = v;
    }
    uint64_t count = 0;
    for (const auto* h : hosts) count += h->dir[&d - m.dir.data()].lat.count;
    FUZZ_CHECK(d.lat_count == count);
  }
  return 0;
}
