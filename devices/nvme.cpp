// libnvme at the boundary: the only file that includes libnvme.h.
#include "devices/nvme.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <libnvme.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <span>

#include "common/fd.hpp"
#include "devices/nvme_error_log.hpp"
#include "devices/nvme_ocp_log.hpp"
#include "devices/nvme_self_test.hpp"

namespace diskvet::devices {

namespace {

template <typename T>
std::span<const uint8_t> bytes(const T& s) {
  return {reinterpret_cast<const uint8_t*>(&s), sizeof(T)};
}

// The Error Information log (01h), every entry the controller keeps (at most 256: 16 KiB).
std::optional<std::vector<std::array<uint8_t, kErrorLogEntryBytes>>> read_error_log(int fd, uint16_t entries) {
  static_assert(sizeof(nvme_error_log_page) == kErrorLogEntryBytes);
  std::vector<nvme_error_log_page> log(std::clamp<uint16_t>(entries, 1, 256));
  if (nvme_get_log_error(fd, static_cast<unsigned>(log.size()), false, log.data()) != 0) return std::nullopt;
  std::vector<std::array<uint8_t, kErrorLogEntryBytes>> out(log.size());
  for (size_t i = 0; i < log.size(); ++i) std::memcpy(out[i].data(), &log[i], kErrorLogEntryBytes);
  return out;
}

// Opens the device's controller (d.nvme_controller), else the namespace node itself.
UniqueFd open_controller(const Device& d) {
  UniqueFd fd;
  if (!d.nvme_controller.empty()) fd.reset(::open(("/dev/" + d.nvme_controller).c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) fd.reset(::open(d.path.c_str(), O_RDONLY | O_CLOEXEC));
  return fd;
}

// How long one self-test admin command may take: it starts the test and returns, it does not run it.
constexpr uint32_t kSelfTestCommandTimeoutMs = 30000;

class LibnvmeSelfTestAdmin final : public NvmeSelfTestAdmin {
 public:
  explicit LibnvmeSelfTestAdmin(UniqueFd fd) : fd_(std::move(fd)) {}
  std::optional<NvmeController> identify() override {
    struct nvme_id_ctrl id{};
    if (nvme_identify_ctrl(fd_.get(), &id) != 0) return std::nullopt;
    return parse_identify_controller(bytes(id));
  }
  int device_self_test(uint8_t stc) override {
    __u32 result = 0;
    nvme_dev_self_test_args args{};
    args.result = &result;
    args.args_size = sizeof(args);
    args.fd = fd_.get();
    args.timeout = kSelfTestCommandTimeoutMs;
    args.nsid = NVME_NSID_ALL;
    args.stc = static_cast<nvme_dst_stc>(stc);
    const int rc = nvme_dev_self_test(&args);
    return rc < 0 ? -errno : rc;
  }
  std::optional<std::vector<uint8_t>> log_page(uint8_t lid, size_t bytes, uint8_t uuid_index) override {
    std::vector<uint8_t> page(bytes);
    nvme_get_log_args args{};
    args.args_size = sizeof(args);
    args.fd = fd_.get();
    args.timeout = NVME_DEFAULT_IOCTL_TIMEOUT;
    args.lid = static_cast<nvme_cmd_get_log_lid>(lid);
    args.len = static_cast<__u32>(bytes);
    args.log = page.data();
    args.nsid = NVME_NSID_ALL;
    args.csi = NVME_CSI_NVM;
    args.lsi = NVME_LOG_LSI_NONE;
    args.lsp = NVME_LOG_LSP_NONE;
    args.uuidx = uuid_index;
    if (nvme_get_log_page(fd_.get(), NVME_LOG_PAGE_PDU_SIZE, &args) != 0) return std::nullopt;
    return page;
  }
  std::optional<std::vector<uint8_t>> uuid_list() override {
    struct nvme_id_uuid_list list{};
    static_assert(sizeof(list) == kUuidListBytes);
    if (nvme_identify_uuid(fd_.get(), &list) != 0) return std::nullopt;
    auto b = bytes(list);
    return std::vector<uint8_t>(b.begin(), b.end());
  }
  std::optional<std::vector<uint8_t>> self_test_log() override {
    struct nvme_self_test_log log{};
    static_assert(sizeof(log) == kSelfTestLogBytes);
    if (nvme_get_log_device_self_test(fd_.get(), &log) != 0) return std::nullopt;
    auto b = bytes(log);
    return std::vector<uint8_t>(b.begin(), b.end());
  }

 private:
  UniqueFd fd_;
};

struct TreeFree {
  void operator()(nvme_root* r) const { nvme_free_tree(r); }
};

}  // namespace

std::optional<NvmeReading> read_nvme(const Device& d) {
  UniqueFd fd = open_controller(d);
  if (!fd.valid()) return std::nullopt;

  // libnvme returns 0, a positive NVMe status, or -1 with errno.
  struct nvme_id_ctrl id{};
  static_assert(sizeof(id) == kIdentifyBytes);
  if (nvme_identify_ctrl(fd.get(), &id) != 0) return std::nullopt;
  auto ctrl = parse_identify_controller(bytes(id));
  if (!ctrl) return std::nullopt;
  NvmeReading r;
  r.controller = *ctrl;

  uint32_t nsid = d.nvme_nsid;
  if (nsid == 0) {
    UniqueFd nsfd(::open(d.path.c_str(), O_RDONLY | O_CLOEXEC));
    __u32 got = 0;
    if (nsfd.valid() && nvme_get_nsid(nsfd.get(), &got) == 0) nsid = got;
  }
  struct nvme_id_ns ns{};
  static_assert(sizeof(ns) == kIdentifyBytes);
  if (nsid && nvme_identify_ns(fd.get(), nsid, &ns) == 0) r.ns = parse_identify_namespace(bytes(ns));

  // The SMART log for the whole controller (NSID FFFFFFFFh): per-namespace logs are optional.
  struct nvme_smart_log smart{};
  static_assert(sizeof(smart) == kLogPageBytes);
  if (nvme_get_log_smart(fd.get(), NVME_NSID_ALL, false, &smart) == 0)
    if (auto h = parse_smart_log(bytes(smart), &r.controller)) r.health = *h;
  if (r.health.known) {
    r.health.error_log = read_error_log(fd.get(), r.controller.error_log_entries);
    // Write amplification's evidence, where the drive follows the OCP datacenter specification.
    LibnvmeSelfTestAdmin admin(UniqueFd(::dup(fd.get())));
    read_ocp_smart_log(admin, NvmeLogSupport{(id.lpa & 0x20) != 0, (le32toh(id.ctratt) & NVME_CTRL_CTRATT_UUID_LIST) != 0}, r.health);
  }

  struct nvme_firmware_slot fw{};
  static_assert(sizeof(fw) == kLogPageBytes);
  if (nvme_get_log_fw_slot(fd.get(), false, &fw) == 0) r.firmware = parse_firmware_slot_log(bytes(fw));
  return r;
}

std::unique_ptr<NvmeSelfTestAdmin> open_nvme_self_test_admin(const Device& d) {
  UniqueFd fd = open_controller(d);
  if (!fd.valid()) return nullptr;
  return std::make_unique<LibnvmeSelfTestAdmin>(std::move(fd));
}

void apply(Device& d, const NvmeReading& r) {
  const NvmeController& c = r.controller;
  if (!c.model.empty()) d.model = c.model;
  if (!c.serial.empty()) d.serial = c.serial;
  if (!c.firmware.empty()) d.firmware = c.firmware;
  d.vendor = fmt::format("0x{:04x}", c.vendor_id);
  NvmeFacts f;
  f.vendor_id = c.vendor_id;
  f.oacs = c.oacs;
  f.format_supported = c.format_supported();
  f.sanitize_crypto_erase = c.sanitize_crypto_erase();
  f.sanitize_block_erase = c.sanitize_block_erase();
  f.sanitize_overwrite = c.sanitize_overwrite();
  f.namespace_count = c.namespace_count;
  if (r.ns) {
    for (const auto& lf : r.ns->lba_formats) f.lba_format_bytes.push_back(lf.data_bytes);
    f.lba_format_in_use = r.ns->lba_format_in_use;
    f.capacity_blocks = r.ns->capacity_blocks;
    if (d.wwn.empty() && !r.ns->nguid_hex.empty()) d.wwn = "eui." + r.ns->nguid_hex;
    else if (d.wwn.empty() && !r.ns->eui64_hex.empty()) d.wwn = "eui." + r.ns->eui64_hex;
  }
  if (r.firmware) {
    f.active_firmware_slot = r.firmware->active_slot;
    f.firmware_slots = r.firmware->revisions;
  }
  d.nvme = std::move(f);
  if (r.health.known) d.health = r.health;
}

std::optional<NvmePurgeInputs> read_nvme_purge_inputs(int fd) {
  __u32 nsid = 0;
  if (nvme_get_nsid(fd, &nsid) != 0 || nsid == 0) return std::nullopt;
  struct nvme_id_ctrl id{};
  if (nvme_identify_ctrl(fd, &id) != 0) return std::nullopt;
  auto ctrl = parse_identify_controller(bytes(id));
  if (!ctrl) return std::nullopt;
  NvmePurgeInputs in;
  in.controller = *ctrl;
  in.nsid = nsid;
  struct nvme_id_ns ns{};
  if (nvme_identify_ns(fd, nsid, &ns) == 0) in.ns = parse_identify_namespace(bytes(ns));
  struct nvme_ns_list list{};
  static_assert(sizeof(list) == kIdentifyBytes);
  if (nvme_identify_active_ns_list(fd, 0, &list) == 0) in.active_nsids = parse_namespace_list(bytes(list));
  if (ctrl->namespace_management()) {
    list = {};
    if (nvme_identify_allocated_ns_list(fd, 0, &list) == 0) in.allocated_nsids = parse_namespace_list(bytes(list));
  }
  return in;
}

int send_nvme_admin(int fd, const NvmeAdminCommand& c, uint32_t timeout_ms) {
  __u32 result = 0;
  int rc = nvme_admin_passthru(fd, c.opcode, 0, 0, c.nsid, 0, 0, c.cdw10, 0, 0, 0, 0, 0, 0, nullptr, 0, nullptr, timeout_ms, &result);
  return rc < 0 ? -errno : rc;
}

std::optional<NvmeSanitizeStatus> read_sanitize_status(int fd) {
  struct nvme_sanitize_log_page log{};
  static_assert(sizeof(log) == kLogPageBytes);
  if (nvme_get_log_sanitize(fd, false, &log) != 0) return std::nullopt;
  return parse_sanitize_log(bytes(log));
}

std::string nvme_status_words(int status) {
  const char* s = nvme_status_to_string(status, false);
  return fmt::format("NVMe status 0x{:x} ({})", status, s ? s : "unknown");
}

std::map<std::string, std::string> nvme_namespace_controllers() {
  std::map<std::string, std::string> out;
  std::unique_ptr<nvme_root, TreeFree> root(nvme_scan(nullptr));
  if (!root) return out;
  nvme_host_t h;
  nvme_subsystem_t s;
  nvme_ctrl_t c;
  nvme_ns_t n;
  nvme_for_each_host(root.get(), h) {
    nvme_for_each_subsystem(h, s) {
      std::string first_live;
      nvme_subsystem_for_each_ctrl(s, c) {
        const char* state = nvme_ctrl_get_state(c);
        if (first_live.empty() && (!state || std::strcmp(state, "live") == 0)) first_live = nvme_ctrl_get_name(c);
        nvme_ctrl_for_each_ns(c, n) out[nvme_ns_get_name(n)] = nvme_ctrl_get_name(c);
      }
      // Multipath heads (nvme0n1 over nvme0c0n1, nvme0c1n1) belong to the subsystem.
      if (!first_live.empty()) nvme_subsystem_for_each_ns(s, n) out.emplace(nvme_ns_get_name(n), first_live);
    }
  }
  return out;
}

}  // namespace diskvet::devices
