// NVMe Device Self-test (NVM Express Base Specification 2.0: the Device Self-test admin command,
// opcode 14h, and the Device Self-test log page, 06h). The log page is decoded from raw bytes by a
// pure function (fuzzed); NvmeSelfTest drives a test through NvmeSelfTestAdmin, a small interface
// over the three admin commands it needs, so its logic is tested over recorded log pages.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "devices/nvme_layout.hpp"
#include "devices/self_test.hpp"

namespace diskvet::devices {

inline constexpr size_t kSelfTestLogBytes = 564;     // 4 bytes of status, 20 results of 28 bytes
inline constexpr size_t kSelfTestResultBytes = 28;
inline constexpr size_t kSelfTestResults = 20;

// Self-test Result Data Structure (Base Specification 2.0, Figure 211).
struct NvmeSelfTestResult {
  uint8_t code = 0;     // Device Self-test Code of the test: 1h short, 2h extended, Eh vendor specific
  uint8_t result = 0;   // Device Self-test Status: 0h no error ... Fh entry not used
  uint8_t segment = 0;  // the first segment that failed (result 7h)
  uint8_t valid = 0;    // Valid Diagnostic Information: bit 0 NSID, 1 FLBA, 2 SCT, 3 SC
  uint64_t power_on_hours = 0;
  uint32_t nsid = 0;
  uint64_t failing_lba = 0;
  uint8_t sct = 0, sc = 0;
};

struct NvmeSelfTestLog {
  uint8_t current_operation = 0;  // 0h none, 1h short, 2h extended, Eh vendor specific
  uint8_t completion_pct = 0;     // of the current operation
  std::vector<NvmeSelfTestResult> results;  // the used entries, newest first
};

// nullopt when the buffer is shorter than the log page.
std::optional<NvmeSelfTestLog> parse_self_test_log(std::span<const uint8_t> buf);

// The result in the specification's words with its code, segment, namespace, failing LBA and status.
std::string describe_self_test_result(const NvmeSelfTestResult& r);
// 0h passed; 1h, 2h, 3h, 4h, 8h, 9h aborted (by a command, a controller reset, a namespace removal,
// a format, an unknown reason, a sanitize); 5h, 6h, 7h and anything reserved failed.
SelfTestResult judge_self_test_result(const NvmeSelfTestResult& r);
SelfTestLogEntry self_test_log_entry(const NvmeSelfTestResult& r);

// The admin commands a self-test needs, on one controller.
class NvmeSelfTestAdmin {
 public:
  virtual ~NvmeSelfTestAdmin() = default;
  virtual std::optional<NvmeController> identify() = 0;
  // Device Self-test with Self-test Code stc for every namespace (NSID FFFFFFFFh): 1h short, 2h
  // extended, Fh abort. Returns 0, the NVMe status (> 0), or -errno.
  virtual int device_self_test(uint8_t stc) = 0;
  // The Device Self-test log page, kSelfTestLogBytes; nullopt when it could not be read.
  virtual std::optional<std::vector<uint8_t>> self_test_log() = 0;
  // Get Log Page `lid` for every namespace, `bytes` long, with UUID index `uuid_index` (0: none; the
  // OCP SMART log reads page C0h through it); nullopt when the controller refused it or it could not
  // be sent.
  virtual std::optional<std::vector<uint8_t>> log_page(uint8_t /*lid*/, size_t /*bytes*/, uint8_t /*uuid_index*/) { return std::nullopt; }
  // Identify with CNS 17h, the UUID List (4096 bytes); nullopt when it could not be read.
  virtual std::optional<std::vector<uint8_t>> uuid_list() { return std::nullopt; }
};

class NvmeSelfTest final : public SelfTestDevice {
 public:
  explicit NvmeSelfTest(std::unique_ptr<NvmeSelfTestAdmin> admin) : admin_(std::move(admin)) {}
  std::string source() const override { return "nvme"; }
  // OACS bit 4 says whether the controller has the command; EDSTT (Identify Controller bytes
  // 317:316) is the extended test's time in minutes; the short test is specified at 2 minutes.
  SelfTestSupport support(SelfTestType type) override;
  // Reads the log before the command: until the controller shows the new test running or its log
  // changes, the newest entry is an older test's, and the test counts as not yet started.
  Status start(SelfTestType type) override;
  Result<SelfTestPoll> poll() override;
  Status abort() override;

 private:
  std::unique_ptr<NvmeSelfTestAdmin> admin_;
  std::optional<std::vector<uint8_t>> results_before_;  // the log's result descriptors before the start
  bool seen_running_ = false;
};

// libnvme on the device's controller (nvme.cpp); nullptr when it cannot be opened.
std::unique_ptr<NvmeSelfTestAdmin> open_nvme_self_test_admin(const Device& d);

}  // namespace diskvet::devices
