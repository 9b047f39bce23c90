// Which self-test backend a device has: NVMe's Device Self-test, else smartctl for SATA/SAS.
#include "devices/nvme_self_test.hpp"
#include "devices/self_test.hpp"
#include "devices/smartctl_self_test.hpp"

namespace diskvet::devices {

std::unique_ptr<SelfTestDevice> open_self_test(const Device& d) {
  if (d.kind == DeviceKind::nvme) {
    auto admin = open_nvme_self_test_admin(d);
    return admin ? std::make_unique<NvmeSelfTest>(std::move(admin)) : nullptr;
  }
  if (d.kind == DeviceKind::scsi) return std::make_unique<SmartctlSelfTest>(d.path);
  return nullptr;
}

}  // namespace diskvet::devices
