// A SATA or SAS drive's self-test through smartctl (smartmontools): `smartctl -t short|long` starts it
// (ATA SMART EXECUTE OFF-LINE IMMEDIATE; SCSI SEND DIAGNOSTIC, background short or extended),
// `smartctl --json -c -l selftest` polls it, `smartctl -X` aborts it.
#pragma once

#include <optional>
#include <string>

#include "devices/self_test.hpp"

namespace diskvet::devices {

class SmartctlSelfTest final : public SelfTestDevice {
 public:
  explicit SmartctlSelfTest(std::string node) : node_(std::move(node)) {}
  std::string source() const override { return "smartctl"; }
  // The estimate is the drive's recommended polling time for the test (ATA SMART READ DATA); on SAS
  // the Control mode page's extended self-test time, and SPC-4's two minutes for a short one.
  SelfTestSupport support(SelfTestType type) override;
  // Reads the log before `-t`: until the drive shows the new test running or its log changes, the
  // newest entry is an older test's, and the test counts as not yet started.
  Status start(SelfTestType type) override;
  Result<SelfTestPoll> poll() override;
  Status abort() override;

 private:
  std::string node_;
  std::optional<std::string> log_before_;
  bool seen_running_ = false;
};

}  // namespace diskvet::devices
