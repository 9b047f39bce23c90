// The NVMe Device Self-test log decoded and judged, and a test driven through the admin interface.
#include "devices/nvme_self_test.hpp"

#include <fmt/format.h>

#include "devices/little_endian.hpp"
#include "devices/nvme_error_log.hpp"

namespace diskvet::devices {

namespace {

constexpr uint8_t kEntryNotUsed = 0xf;
constexpr uint8_t kStcShort = 0x1, kStcExtended = 0x2, kStcAbort = 0xf;

// Base Specification 2.0, Figure 211, Device Self-test Status bits 3:0.
const char* result_words(uint8_t result) {
  switch (result) {
    case 0x0: return "Operation completed without error";
    case 0x1: return "Operation was aborted by a Device Self-test command";
    case 0x2: return "Operation was aborted by a Controller Level Reset";
    case 0x3: return "Operation was aborted due to a removal of a namespace from the namespace inventory";
    case 0x4: return "Operation was aborted due to the processing of a Format NVM command";
    case 0x5: return "A fatal error or unknown test error occurred while the controller was executing the device self-test operation and the operation did not complete";
    case 0x6: return "Operation completed with a segment that failed and the segment that failed is not known";
    case 0x7: return "Operation completed with one or more failed segments";
    case 0x8: return "Operation was aborted for unknown reason";
    case 0x9: return "Operation was aborted due to a sanitize operation";
    default: return "Reserved result";
  }
}

const char* code_words(uint8_t code) {
  switch (code) {
    case kStcShort: return "short";
    case kStcExtended: return "extended";
    case 0xe: return "vendor specific";
    default: return "reserved";
  }
}

}  // namespace

std::optional<NvmeSelfTestLog> parse_self_test_log(std::span<const uint8_t> buf) {
  if (buf.size() < kSelfTestLogBytes) return std::nullopt;
  NvmeSelfTestLog log;
  log.current_operation = buf[0] & 0xf;
  log.completion_pct = buf[1] & 0x7f;
  for (size_t i = 0; i < kSelfTestResults; ++i) {
    auto b = buf.subspan(4 + i * kSelfTestResultBytes, kSelfTestResultBytes);
    NvmeSelfTestResult r;
    r.result = b[0] & 0xf;
    if (r.result == kEntryNotUsed) continue;
    r.code = static_cast<uint8_t>(b[0] >> 4);
    r.segment = b[1];
    r.valid = b[2] & 0xf;
    r.power_on_hours = le<uint64_t>(b, 4);
    r.nsid = le<uint32_t>(b, 12);
    r.failing_lba = le<uint64_t>(b, 16);
    r.sct = b[24] & 0x7;
    r.sc = b[25];
    log.results.push_back(r);
  }
  return log;
}

std::string describe_self_test_result(const NvmeSelfTestResult& r) {
  std::string s = fmt::format("{} self-test: {} (result {:x}h)", code_words(r.code), result_words(r.result), r.result);
  if (r.result == 0x7) s += fmt::format(", first failing segment {}", r.segment);
  if (r.valid & 0x1) s += fmt::format(", namespace {}", r.nsid);
  if (r.valid & 0x2) s += fmt::format(", failing LBA {}", r.failing_lba);
  if ((r.valid & 0x4) && (r.valid & 0x8)) s += ", status " + nvme_error_status_words(r.sct, r.sc);
  s += fmt::format(", at {} power-on hours", r.power_on_hours);
  return s;
}

SelfTestResult judge_self_test_result(const NvmeSelfTestResult& r) {
  switch (r.result) {
    case 0x0: return SelfTestResult::passed;
    case 0x1:
    case 0x2:
    case 0x3:
    case 0x4:
    case 0x8:
    case 0x9: return SelfTestResult::aborted;
    default: return SelfTestResult::failed;  // 5h, 6h, 7h, and reserved codes (fail closed)
  }
}

SelfTestLogEntry self_test_log_entry(const NvmeSelfTestResult& r) {
  SelfTestLogEntry e;
  e.result = judge_self_test_result(r);
  e.words = describe_self_test_result(r);
  if (r.result == 0x7) e.failed_segment = r.segment;
  if (r.valid & 0x2) e.failing_lba = r.failing_lba;
  e.power_on_hours = r.power_on_hours;
  return e;
}

SelfTestSupport NvmeSelfTest::support(SelfTestType type) {
  SelfTestSupport s;
  auto c = admin_->identify();
  if (!c) {
    s.why = "Identify Controller failed: whether the controller has Device Self-test cannot be told";
    return s;
  }
  if (!c->self_test_supported()) {
    s.why = "not supported: the controller does not have the Device Self-test command (Identify Controller OACS bit 4 clear)";
    return s;
  }
  s.supported = true;
  if (type == SelfTestType::short_test) {
    s.estimate_min = kShortSelfTestMin;
    s.estimate_source = "NVMe short device self-test, 2 minutes by specification";
  } else if (c->edstt_min) {
    s.estimate_min = c->edstt_min;
    s.estimate_source = "NVMe EDSTT";
  }
  return s;
}

namespace {

std::optional<std::vector<uint8_t>> result_bytes(const std::optional<std::vector<uint8_t>>& raw) {
  if (!raw || raw->size() < kSelfTestLogBytes) return std::nullopt;
  return std::vector<uint8_t>(raw->begin() + 4, raw->begin() + kSelfTestLogBytes);
}

}  // namespace

Status NvmeSelfTest::start(SelfTestType type) {
  results_before_ = result_bytes(admin_->self_test_log());
  seen_running_ = false;
  const int rc = admin_->device_self_test(type == SelfTestType::short_test ? kStcShort : kStcExtended);
  if (rc == 0) return ok_status();
  if (rc > 0) return runtime_error("Device Self-test", fmt::format("the controller refused it: NVMe status {:#x}", rc));
  return system_error("Device Self-test", "the command could not be sent", -rc);
}

Result<SelfTestPoll> NvmeSelfTest::poll() {
  auto raw = admin_->self_test_log();
  if (!raw) return runtime_error("Device Self-test log (06h)", "could not be read");
  auto log = parse_self_test_log(*raw);
  if (!log) return runtime_error("Device Self-test log (06h)", fmt::format("{} bytes, shorter than the log page", raw->size()));
  SelfTestPoll p;
  p.running = log->current_operation != 0;
  seen_running_ = seen_running_ || p.running;
  if (p.running) p.percent_done = log->completion_pct;
  else if (!seen_running_ && results_before_ && result_bytes(raw) == results_before_) {
    p.running = true;  // not started yet: the log still ends with an older test
    p.percent_done = 0;
  } else if (!log->results.empty()) {
    p.newest = self_test_log_entry(log->results.front());
  }
  return p;
}

Status NvmeSelfTest::abort() {
  const int rc = admin_->device_self_test(kStcAbort);
  if (rc == 0) return ok_status();
  return runtime_error("Device Self-test abort", rc > 0 ? fmt::format("NVMe status {:#x}", rc) : fmt::format("errno {}", -rc));
}

}  // namespace diskvet::devices
