// Which NVMe purge a namespace gets, decided from Identify data alone (no I/O), and the command
// dwords that carry it: SNIA PTS (purge before preconditioning), NVMe Base Spec 2.0 (Format NVM
// and Sanitize commands). Pure functions: unit tests feed capabilities and read back the decision.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "devices/nvme_layout.hpp"

namespace diskvet::devices {

enum class NvmePurgeMethod { sanitize_crypto_erase, sanitize_block_erase, format_crypto_erase, format_user_data_erase };
// The report's names: "nvme-sanitize-crypto-erase", "nvme-sanitize-block-erase",
// "nvme-format-crypto-erase", "nvme-format-user-data-erase".
std::string_view to_string(NvmePurgeMethod m);

inline constexpr uint8_t kAdminFormatNvm = 0x80;
inline constexpr uint8_t kAdminSanitize = 0x84;

// One admin command as the controller receives it (the dwords this module sets; the rest are zero).
struct NvmeAdminCommand {
  uint8_t opcode = 0;
  uint32_t nsid = 0;
  uint32_t cdw10 = 0;
};

// Format NVM Command Dword 10 (Base Spec 2.0, Format NVM command): LBAF bits 3:0, MSET bit 4, PI bits 7:5,
// PIL bit 8, SES bits 11:9 (1 user data erase, 2 cryptographic erase), LBAFU bits 13:12.
uint32_t format_nvm_cdw10(uint8_t lba_format, bool mset, uint8_t pi, bool pil, uint8_t ses);
// Sanitize Command Dword 10 (Base Spec 2.0, Sanitize command): SANACT bits 2:0 (2 block erase,
// 4 crypto erase), AUSE bit 3, OWPASS 7:4, OIPBP bit 8, NDAS bit 9.
inline constexpr uint8_t kSanitizeBlockErase = 2;
inline constexpr uint8_t kSanitizeCryptoErase = 4;
uint32_t sanitize_cdw10(uint8_t sanact, bool allow_unrestricted_exit, bool no_deallocate);

// What the decision looks at, read through the descriptor the protection gate opened.
struct NvmePurgeInputs {
  NvmeController controller;
  std::optional<NvmeNamespace> ns;  // Identify Namespace of `nsid`
  uint32_t nsid = 0;
  std::optional<std::vector<uint32_t>> active_nsids;     // this controller's (Identify CNS 02h)
  std::optional<std::vector<uint32_t>> allocated_nsids;  // the subsystem's (CNS 10h), with namespace management
};

struct NvmePurgePlan {
  NvmePurgeMethod method = NvmePurgeMethod::format_user_data_erase;
  NvmeAdminCommand command;
  std::string why;  // what the capabilities allowed, in words
};

struct NvmePurgeDecision {
  std::optional<NvmePurgePlan> plan;  // nullopt: no NVMe purge here (the chain falls to discard)
  std::string reason;                 // why this command, or why none
};

// Sanitize (crypto erase when SANICAP offers it, else block erase), else Format NVM on the LBA
// format in use with crypto erase when FNA offers it, else user data erase. A command whose reach
// is the whole NVM subsystem (Sanitize always; Format when FNA bit 0 is set, or bit 1 for a secure
// erase) is refused unless this namespace is provably the only one: other namespaces were never
// checked by the protection gate, so they must not be erased with it.
NvmePurgeDecision decide_nvme_purge(const NvmePurgeInputs& in);

// Whether a purge command that did not succeed may still have reached the media, from
// send_nvme_admin's answer: an errno the kernel gives before submitting (no permission, not an
// NVMe device, bad argument) or a status the controller returns (generic or command specific:
// it refused) mean no; a path status (SCT 3: the host aborted it, as after a timeout) or any
// other errno leave the namespace in an unknown state.
bool purge_command_may_have_run(int rc);

// Where a sanitize operation stands, from the Sanitize Status log after our command.
struct SanitizeProgress {
  enum class State { running, done, failed } state = State::running;
  double fraction = 0;  // 0..1 while running
  std::string detail;   // failure in words
};
SanitizeProgress judge_sanitize(const NvmeSanitizeStatus& s, uint32_t issued_cdw10);

// How long to wait for a sanitize to finish: three times the controller's estimate for the action,
// at least 10 minutes; 12 hours when it gives none.
double sanitize_timeout_s(const NvmeSanitizeStatus& before, NvmePurgeMethod m);

}  // namespace diskvet::devices
