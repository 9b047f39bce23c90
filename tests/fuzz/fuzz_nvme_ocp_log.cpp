// The OCP SMART / Health Information Extended log decoder (devices/nvme_ocp_log.hpp) over any bytes a
// controller might return for page C0h. Properties: a page is taken only when it is whole and carries
// the OCP GUID, and then its counter is the page's first eight bytes; anything else says why not;
// read through the admin interface (the same bytes answering the Supported Log Pages log), the
// snapshot has the counter or the reason, never both, and the counter only when page C0h is listed,
// whether the page is read with the OCP UUID's index or none; a UUID index found is 1-127 and in the list.
#include <cstdint>
#include <vector>

#include "devices/little_endian.hpp"
#include "devices/nvme_ocp_log.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace diskvet::devices;

namespace {

class PageAdmin final : public NvmeSelfTestAdmin {
 public:
  explicit PageAdmin(std::vector<uint8_t> page) : page_(std::move(page)) {}
  std::optional<NvmeController> identify() override { return NvmeController{}; }
  int device_self_test(uint8_t) override { return 0; }
  std::optional<std::vector<uint8_t>> self_test_log() override { return std::nullopt; }
  std::optional<std::vector<uint8_t>> log_page(uint8_t, size_t, uint8_t) override { return page_; }
  std::optional<std::vector<uint8_t>> uuid_list() override { return page_; }

 private:
  std::vector<uint8_t> page_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> buf(data, size);
  const OcpSmartLogReading r = parse_ocp_smart_log(buf);
  FUZZ_CHECK(r.log.has_value() != !r.absent.empty());
  if (size < kOcpSmartLogBytes) FUZZ_CHECK(!r.log);
  if (r.log) FUZZ_CHECK(r.log->physical_bytes_written == le<uint64_t>(buf, 0));
  PageAdmin admin(std::vector<uint8_t>(data, data + size));
  Health h;
  const bool listed = size >= kSupportedLogPagesBytes && (data[size_t{kOcpSmartLogId} * 4] & 1);
  for (bool uuid_list : {false, true}) {
    read_ocp_smart_log(admin, NvmeLogSupport{true, uuid_list}, h);
    FUZZ_CHECK(h.ocp_physical_bytes_written.has_value() == h.ocp_log_absent.empty());
    FUZZ_CHECK(h.ocp_physical_bytes_written.has_value() == (listed && r.log.has_value()));
  }
  if (const auto i = ocp_uuid_index(buf)) FUZZ_CHECK(*i >= 1 && *i <= 127 && size >= 32 + size_t{*i} * 32);
  read_ocp_smart_log(admin, NvmeLogSupport{false, true}, h);
  FUZZ_CHECK(!h.ocp_physical_bytes_written && !h.ocp_log_absent.empty());
  return 0;
}
