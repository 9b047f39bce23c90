// The purge decision and the Format NVM / Sanitize command encodings.
#include "devices/nvme_purge_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>

namespace diskvet::devices {

namespace {

std::string join(const std::vector<std::string>& parts) {
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : "; ") + p;
  return s;
}

std::string list_ids(const std::vector<uint32_t>& ids) {
  std::string s;
  for (size_t i = 0; i < ids.size() && i < 8; ++i) s += fmt::format("{}{}", i ? ", " : "", ids[i]);
  if (ids.size() > 8) s += ", ...";
  return s;
}

// Every namespace a command that reaches the whole NVM subsystem would erase, when Identify can
// say: the allocated list covers the subsystem (attached or not); the active list of this
// controller only when it is the subsystem's single controller and namespaces are not managed.
std::optional<std::vector<uint32_t>> subsystem_namespaces(const NvmePurgeInputs& in, std::string& why_unknown) {
  if (in.allocated_nsids) return in.allocated_nsids;
  if (in.controller.namespace_management()) {
    why_unknown = "the controller manages namespaces but did not list the allocated ones, so other namespaces cannot be ruled out";
    return std::nullopt;
  }
  if (in.controller.may_have_other_controllers()) {
    why_unknown = "the subsystem may have other controllers (CMIC bit 1) with namespaces this one does not list";
    return std::nullopt;
  }
  if (in.active_nsids) return in.active_nsids;
  why_unknown = "the controller did not list its active namespaces";
  return std::nullopt;
}

// Empty when namespace `in.nsid` is the only one in the subsystem; else why it cannot be said.
std::string why_not_alone(const NvmePurgeInputs& in) {
  std::string why;
  auto ids = subsystem_namespaces(in, why);
  if (!ids) return why;
  if (ids->size() == 1 && ids->front() == in.nsid) return "";
  return fmt::format("the subsystem has {} namespace{} ({}), not only namespace {}", ids->size(), ids->size() == 1 ? "" : "s",
                     list_ids(*ids), in.nsid);
}

}  // namespace

std::string_view to_string(NvmePurgeMethod m) {
  switch (m) {
    case NvmePurgeMethod::sanitize_crypto_erase: return "nvme-sanitize-crypto-erase";
    case NvmePurgeMethod::sanitize_block_erase: return "nvme-sanitize-block-erase";
    case NvmePurgeMethod::format_crypto_erase: return "nvme-format-crypto-erase";
    case NvmePurgeMethod::format_user_data_erase: return "nvme-format-user-data-erase";
  }
  return "?";
}

uint32_t format_nvm_cdw10(uint8_t lba_format, bool mset, uint8_t pi, bool pil, uint8_t ses) {
  return uint32_t{lba_format & 0x0fu} | (mset ? 1u << 4 : 0u) | uint32_t{pi & 0x7u} << 5 | (pil ? 1u << 8 : 0u) |
         uint32_t{ses & 0x7u} << 9 | uint32_t{(lba_format >> 4) & 0x3u} << 12;
}

uint32_t sanitize_cdw10(uint8_t sanact, bool allow_unrestricted_exit, bool no_deallocate) {
  return uint32_t{sanact & 0x7u} | (allow_unrestricted_exit ? 1u << 3 : 0u) | (no_deallocate ? 1u << 9 : 0u);
}

NvmePurgeDecision decide_nvme_purge(const NvmePurgeInputs& in) {
  const NvmeController& c = in.controller;
  std::vector<std::string> notes;
  const std::string alone = why_not_alone(in);

  if (c.sanitize_crypto_erase() || c.sanitize_block_erase()) {
    const bool crypto = c.sanitize_crypto_erase();
    if (alone.empty()) {
      NvmePurgePlan p;
      p.method = crypto ? NvmePurgeMethod::sanitize_crypto_erase : NvmePurgeMethod::sanitize_block_erase;
      // Unrestricted exit (AUSE) so a failed sanitize can be cleared; deallocate afterwards (NDAS 0)
      // so the drive is back in its fresh-out-of-box state, as SNIA PTS purge intends.
      p.command = {kAdminSanitize, 0, sanitize_cdw10(crypto ? kSanitizeCryptoErase : kSanitizeBlockErase, true, false)};
      p.why = fmt::format("SANICAP 0x{:08x} offers sanitize {} erase; namespace {} is the only one it reaches", c.sanicap,
                          crypto ? "crypto" : "block", in.nsid);
      return {p, p.why};
    }
    notes.push_back("no sanitize: it erases every namespace of the NVM subsystem and " + alone);
  } else {
    notes.push_back(fmt::format("no sanitize (SANICAP 0x{:08x} offers neither block nor crypto erase)", c.sanicap));
  }

  if (!c.format_supported()) {
    notes.push_back("no Format NVM (OACS bit 1 clear)");
    return {std::nullopt, join(notes)};
  }
  if (!in.ns || in.ns->block_bytes() == 0) {
    notes.push_back(fmt::format("no Format NVM: Identify Namespace {} did not say which LBA format is in use", in.nsid));
    return {std::nullopt, join(notes)};
  }
  // Bit 1 makes any secure erase reach every namespace, bit 0 every format: both apply to ours.
  if ((c.format_applies_to_all_namespaces() || c.secure_erase_applies_to_all_namespaces()) && !alone.empty()) {
    notes.push_back(fmt::format("no Format NVM: FNA 0x{:02x} makes a secure-erase format reach every namespace and {}", c.fna, alone));
    return {std::nullopt, join(notes)};
  }
  const NvmeNamespace& ns = *in.ns;
  const bool crypto = c.format_crypto_erase_supported();
  NvmePurgePlan p;
  p.method = crypto ? NvmePurgeMethod::format_crypto_erase : NvmePurgeMethod::format_user_data_erase;
  // The LBA format, metadata placement and protection information stay as they are: the block
  // size, and so the device size, must not change under the run.
  p.command = {kAdminFormatNvm, in.nsid,
               format_nvm_cdw10(ns.lba_format_in_use, ns.metadata_extended, static_cast<uint8_t>(ns.dps & 0x7), (ns.dps & 0x8) != 0,
                                static_cast<uint8_t>(crypto ? 2 : 1))};
  notes.push_back(fmt::format("Format NVM of namespace {} with {} (SES {}{}), LBA format {} ({}-byte blocks) kept", in.nsid,
                              crypto ? "cryptographic erase" : "user data erase", crypto ? 2 : 1,
                              crypto ? ", FNA bit 2" : "", ns.lba_format_in_use, ns.block_bytes()));
  p.why = notes.back();
  return {p, join(notes)};
}

bool purge_command_may_have_run(int rc) {
  if (rc > 0) return ((rc >> 8) & 0x7) == 3;  // Status Code Type 3: path related
  switch (-rc) {
    case EPERM:
    case EACCES:
    case ENOTTY:
    case EINVAL:
    case EFAULT:
    case EBADF:
    case ENOMEM:
      return false;
    default:
      return true;
  }
}

SanitizeProgress judge_sanitize(const NvmeSanitizeStatus& s, uint32_t issued_cdw10) {
  SanitizeProgress r;
  switch (s.state) {
    case 2:  // in progress
      r.fraction = s.progress / 65536.0;
      return r;
    case 1:  // completed successfully
    case 4:  // completed successfully, media not deallocated
      if ((s.cdw10 & 0x7) != (issued_cdw10 & 0x7)) {
        r.state = SanitizeProgress::State::failed;
        r.detail = fmt::format("the Sanitize Status log reports a finished sanitize action {}, not the {} that was issued", s.cdw10 & 0x7,
                               issued_cdw10 & 0x7);
        return r;
      }
      r.state = SanitizeProgress::State::done;
      r.fraction = 1;
      return r;
    case 3:
      r.state = SanitizeProgress::State::failed;
      r.detail = "the controller reports the sanitize operation failed (the drive stays in sanitize failure mode until a sanitize succeeds)";
      return r;
    case 0:
      r.state = SanitizeProgress::State::failed;
      r.detail = "the Sanitize Status log says the subsystem was never sanitized, although the command was accepted";
      return r;
    default:
      r.state = SanitizeProgress::State::failed;
      r.detail = fmt::format("the Sanitize Status log reports an unknown status {}", s.state);
      return r;
  }
}

double sanitize_timeout_s(const NvmeSanitizeStatus& before, NvmePurgeMethod m) {
  const uint32_t est = m == NvmePurgeMethod::sanitize_crypto_erase ? before.crypto_erase_s : before.block_erase_s;
  if (est == kNoEstimate) return 12 * 3600.0;
  return std::max(600.0, 3.0 * est);
}

}  // namespace diskvet::devices
