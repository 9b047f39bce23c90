// The NVMe Device Self-test log decoder (devices/nvme_self_test.hpp) over any bytes a controller might
// return. Properties: a buffer shorter than the page decodes to nothing; a page yields at most 20
// used results, each with words, and only result 0h is ever judged passed; a self-test driven over
// the page as a controller's answer ends, passed only when its newest result is 0h.
#include <cstdint>
#include <memory>

#include "devices/nvme_self_test.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace diskvet::devices;

namespace {

// A controller with Device Self-test whose log page is the fuzzer's bytes.
class PageAdmin final : public NvmeSelfTestAdmin {
 public:
  explicit PageAdmin(std::vector<uint8_t> page) : page_(std::move(page)) {}
  static std::vector<uint8_t> empty_page() {
    std::vector<uint8_t> p(kSelfTestLogBytes, 0);
    for (size_t i = 0; i < kSelfTestResults; ++i) p[4 + i * kSelfTestResultBytes] = 0x0f;  // entry not used
    return p;
  }
  std::optional<NvmeController> identify() override {
    NvmeController c;
    c.oacs = 0x10;
    c.edstt_min = 10;
    return c;
  }
  int device_self_test(uint8_t) override { return 0; }
  // The log before the test started is empty; the fuzzer's page afterwards.
  std::optional<std::vector<uint8_t>> self_test_log() override { return reads_++ == 0 ? empty_page() : page_; }

 private:
  std::vector<uint8_t> page_;
  size_t reads_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> buf(data, size);
  auto log = parse_self_test_log(buf);
  FUZZ_CHECK(log.has_value() == (size >= kSelfTestLogBytes));
  if (!log) return 0;
  FUZZ_CHECK(log->results.size() <= kSelfTestResults);
  FUZZ_CHECK(log->current_operation <= 0xf && log->completion_pct <= 0x7f);
  for (const auto& r : log->results) {
    FUZZ_CHECK(r.result != 0xf);
    FUZZ_CHECK(!describe_self_test_result(r).empty());
    FUZZ_CHECK((judge_self_test_result(r) == SelfTestResult::passed) == (r.result == 0));
  }
  NvmeSelfTest dev(std::make_unique<PageAdmin>(std::vector<uint8_t>(data, data + size)));
  double now = 0;
  const SelfTestClock clock{[&] { return now; }, [&](double s) {
                              now += s;
                              return true;
                            }};
  const SelfTestOutcome o = run_self_test(dev, SelfTestType::extended, clock);
  FUZZ_CHECK(!o.words.empty());
  // Running forever, or an unchanged log that never shows the test: a time-out, never a pass.
  if (log->current_operation != 0) FUZZ_CHECK(o.result == SelfTestResult::timed_out);
  else if (log->results.empty()) FUZZ_CHECK(o.result == SelfTestResult::error || o.result == SelfTestResult::timed_out);
  else FUZZ_CHECK(o.passed() == (log->results.front().result == 0));
  return 0;
}
