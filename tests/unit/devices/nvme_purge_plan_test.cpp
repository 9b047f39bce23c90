// Which NVMe purge a namespace gets for which Identify capabilities, when it is refused because
// other namespaces would be erased with it, and how the commands are encoded. No device needed.
#include "devices/nvme_purge_plan.hpp"

#include <gtest/gtest.h>

#include <cerrno>

namespace diskvet::devices {
namespace {

constexpr uint16_t kOacsFormat = 0x2;
constexpr uint16_t kOacsNamespaceManagement = 0x8;

// One controller with one namespace (NSID 1), 4 KiB blocks in LBA format 1: as QEMU's emulated
// controller answers, before each test changes what it is about.
NvmePurgeInputs single_namespace() {
  NvmePurgeInputs in;
  in.controller.oacs = kOacsFormat;
  in.nsid = 1;
  NvmeNamespace ns;
  ns.lba_formats = {{512, 0, 0}, {4096, 0, 0}};
  ns.lba_format_in_use = 1;
  in.ns = ns;
  in.active_nsids = std::vector<uint32_t>{1};
  return in;
}

TEST(NvmePurgePlan, SanitizesWithCryptoEraseWhenTheControllerOffersIt) {
  auto in = single_namespace();
  in.controller.sanicap = 0x3;  // crypto and block erase
  auto d = decide_nvme_purge(in);
  ASSERT_TRUE(d.plan) << d.reason;
  EXPECT_EQ(d.plan->method, NvmePurgeMethod::sanitize_crypto_erase);
  EXPECT_EQ(d.plan->command.opcode, kAdminSanitize);
  EXPECT_EQ(d.plan->command.cdw10 & 0x7, kSanitizeCryptoErase);
}

TEST(NvmePurgePlan, SanitizesWithBlockEraseWhenCryptoEraseIsMissing) {
  auto in = single_namespace();
  in.controller.sanicap = 0x2;
  auto d = decide_nvme_purge(in);
  ASSERT_TRUE(d.plan) << d.reason;
  EXPECT_EQ(d.plan->method, NvmePurgeMethod::sanitize_block_erase);
  EXPECT_EQ(d.plan->command.cdw10, sanitize_cdw10(kSanitizeBlockErase, true, false));
}

TEST(NvmePurgePlan, SanitizeOverwriteAloneIsNotUsed) {
  auto in = single_namespace();
  in.controller.sanicap = 0x4;  // overwrite only: slow and wears the media; format instead
  auto d = decide_nvme_purge(in);
  ASSERT_TRUE(d.plan) << d.reason;
  EXPECT_EQ(d.plan->method, NvmePurgeMethod::format_user_data_erase);
}

TEST(NvmePurgePlan, FormatsWithUserDataEraseOnTheFormatInUseWithoutSanitize) {
  auto d = decide_nvme_purge(single_namespace());
  ASSERT_TRUE(d.plan) << d.reason;
  EXPECT_EQ(d.plan->method, NvmePurgeMethod::format_user_data_erase);
  EXPECT_EQ(d.plan->command.opcode, kAdminFormatNvm);
  EXPECT_EQ(d.plan->command.nsid, 1u);
  EXPECT_EQ(d.plan->command.cdw10, format_nvm_cdw10(1, false, 0, false, 1));
  EXPECT_NE(d.reason.find("LBA format 1 (4096-byte blocks) kept"), std::string::npos) << d.reason;
}

TEST(NvmePurgePlan, FormatsWithCryptoEraseWhenFnaSaysItIsSupported) {
  auto in = single_namespace();
  in.controller.fna = 0x4;
  auto d = decide_nvme_purge(in);
  ASSERT_TRUE(d.plan) << d.reason;
  EXPECT_EQ(d.plan->method, NvmePurgeMethod::format_crypto_erase);
  EXPECT_EQ((d.plan->command.cdw10 >> 9) & 0x7, 2u);
}

TEST(NvmePurgePlan, KeepsMetadataPlacementAndProtectionInformation) {
  auto in = single_namespace();
  in.ns->lba_formats.resize(20, {4096, 8, 0});
  in.ns->lba_format_in_use = 18;
  in.ns->metadata_extended = true;
  in.ns->dps = 0x0a;  // type 2, in the first bytes
  auto d = decide_nvme_purge(in);
  ASSERT_TRUE(d.plan) << d.reason;
  EXPECT_EQ(d.plan->command.cdw10, format_nvm_cdw10(18, true, 2, true, 1));
}

TEST(NvmePurgePlan, SanitizeIsRefusedBesideOtherNamespacesAndTheNamespaceIsFormattedAlone) {
  auto in = single_namespace();
  in.controller.sanicap = 0x3;
  in.active_nsids = std::vector<uint32_t>{1, 2};
  auto d = decide_nvme_purge(in);
  ASSERT_TRUE(d.plan) << d.reason;
  EXPECT_EQ(d.plan->method, NvmePurgeMethod::format_user_data_erase);
  EXPECT_EQ(d.plan->command.nsid, 1u);
  EXPECT_NE(d.reason.find("no sanitize: it erases every namespace"), std::string::npos) << d.reason;
  EXPECT_NE(d.reason.find("2 namespaces (1, 2)"), std::string::npos) << d.reason;
}

TEST(NvmePurgePlan, FormatReachingAllNamespacesIsRefusedWhenThereAreOthers) {
  auto in = single_namespace();
  in.controller.fna = 0x1;  // a format of any namespace formats them all
  in.active_nsids = std::vector<uint32_t>{1, 2};
  auto d = decide_nvme_purge(in);
  EXPECT_FALSE(d.plan);
  EXPECT_NE(d.reason.find("FNA 0x01"), std::string::npos) << d.reason;
  EXPECT_NE(d.reason.find("not only namespace 1"), std::string::npos) << d.reason;
}

TEST(NvmePurgePlan, SecureEraseReachingAllNamespacesIsRefusedWhenThereAreOthers) {
  auto in = single_namespace();
  in.controller.fna = 0x2;  // only the secure erase part reaches every namespace: we always erase
  in.active_nsids = std::vector<uint32_t>{1, 2};
  EXPECT_FALSE(decide_nvme_purge(in).plan);
}

TEST(NvmePurgePlan, FormatReachingAllNamespacesIsAllowedWhenThisIsTheOnlyOne) {
  auto in = single_namespace();
  in.controller.fna = 0x3;
  auto d = decide_nvme_purge(in);
  ASSERT_TRUE(d.plan) << d.reason;
  EXPECT_EQ(d.plan->method, NvmePurgeMethod::format_user_data_erase);
}

TEST(NvmePurgePlan, ManagedNamespacesAreCountedFromTheAllocatedList) {
  auto in = single_namespace();
  in.controller.oacs = kOacsFormat | kOacsNamespaceManagement;
  in.controller.sanicap = 0x2;
  in.allocated_nsids = std::vector<uint32_t>{1, 5};  // namespace 5 exists but is attached elsewhere
  auto d = decide_nvme_purge(in);
  ASSERT_TRUE(d.plan) << d.reason;
  EXPECT_EQ(d.plan->method, NvmePurgeMethod::format_user_data_erase);
  EXPECT_NE(d.reason.find("(1, 5)"), std::string::npos) << d.reason;
}

TEST(NvmePurgePlan, ManagedNamespacesWithoutTheAllocatedListAreNotAssumedAlone) {
  auto in = single_namespace();
  in.controller.oacs = kOacsFormat | kOacsNamespaceManagement;
  in.controller.sanicap = 0x2;
  in.controller.fna = 0x1;
  auto d = decide_nvme_purge(in);
  EXPECT_FALSE(d.plan);
  EXPECT_NE(d.reason.find("did not list the allocated ones"), std::string::npos) << d.reason;
}

TEST(NvmePurgePlan, OtherControllersMayHideNamespacesSoSanitizeIsRefused) {
  auto in = single_namespace();
  in.controller.cmic = 0x2;
  in.controller.sanicap = 0x1;
  auto d = decide_nvme_purge(in);
  ASSERT_TRUE(d.plan) << d.reason;  // FNA 0: the format reaches this namespace only
  EXPECT_EQ(d.plan->method, NvmePurgeMethod::format_user_data_erase);
  EXPECT_NE(d.reason.find("other controllers"), std::string::npos) << d.reason;
}

TEST(NvmePurgePlan, AnUnknownNamespaceListIsNotTakenForASingleNamespace) {
  auto in = single_namespace();
  in.active_nsids.reset();
  in.controller.sanicap = 0x2;
  in.controller.fna = 0x1;
  EXPECT_FALSE(decide_nvme_purge(in).plan);
}

TEST(NvmePurgePlan, NothingIsChosenWithoutFormatOrSanitize) {
  auto in = single_namespace();
  in.controller.oacs = 0;
  auto d = decide_nvme_purge(in);
  EXPECT_FALSE(d.plan);
  EXPECT_NE(d.reason.find("OACS bit 1 clear"), std::string::npos) << d.reason;
}

TEST(NvmePurgePlan, FormatNeedsTheLbaFormatInUse) {
  auto in = single_namespace();
  in.ns.reset();
  EXPECT_FALSE(decide_nvme_purge(in).plan);
}

TEST(NvmePurgePlan, FormatDword10PutsEachFieldWhereTheSpecSaysIt) {
  EXPECT_EQ(format_nvm_cdw10(0, false, 0, false, 1), 0x200u);        // SES 1: bits 11:9
  EXPECT_EQ(format_nvm_cdw10(0, false, 0, false, 2), 0x400u);        // SES 2
  EXPECT_EQ(format_nvm_cdw10(5, false, 0, false, 0), 0x5u);          // LBAF bits 3:0
  EXPECT_EQ(format_nvm_cdw10(0, true, 0, false, 0), 0x10u);          // MSET bit 4
  EXPECT_EQ(format_nvm_cdw10(0, false, 3, false, 0), 0x60u);         // PI bits 7:5
  EXPECT_EQ(format_nvm_cdw10(0, false, 0, true, 0), 0x100u);         // PIL bit 8
  EXPECT_EQ(format_nvm_cdw10(0x23, false, 0, false, 0), 0x2003u);    // LBAFU bits 13:12 carry the upper index bits
}

TEST(NvmePurgePlan, SanitizeDword10PutsEachFieldWhereTheSpecSaysIt) {
  EXPECT_EQ(sanitize_cdw10(kSanitizeBlockErase, false, false), 0x2u);  // SANACT bits 2:0
  EXPECT_EQ(sanitize_cdw10(kSanitizeCryptoErase, true, false), 0xcu);  // AUSE bit 3
  EXPECT_EQ(sanitize_cdw10(kSanitizeBlockErase, false, true), 0x202u); // NDAS bit 9
}

TEST(NvmePurgePlan, MethodNamesAreTheReportVocabulary) {
  EXPECT_EQ(to_string(NvmePurgeMethod::sanitize_crypto_erase), "nvme-sanitize-crypto-erase");
  EXPECT_EQ(to_string(NvmePurgeMethod::sanitize_block_erase), "nvme-sanitize-block-erase");
  EXPECT_EQ(to_string(NvmePurgeMethod::format_crypto_erase), "nvme-format-crypto-erase");
  EXPECT_EQ(to_string(NvmePurgeMethod::format_user_data_erase), "nvme-format-user-data-erase");
}

TEST(NvmePurgePlan, ASanitizeInProgressReportsItsFraction) {
  NvmeSanitizeStatus s;
  s.state = 2;
  s.progress = 0x4000;
  auto p = judge_sanitize(s, sanitize_cdw10(kSanitizeBlockErase, true, false));
  EXPECT_EQ(p.state, SanitizeProgress::State::running);
  EXPECT_DOUBLE_EQ(p.fraction, 0.25);
}

TEST(NvmePurgePlan, ASanitizeIsDoneOnlyWhenTheLogShowsTheIssuedAction) {
  const uint32_t issued = sanitize_cdw10(kSanitizeCryptoErase, true, false);
  NvmeSanitizeStatus s;
  s.state = 1;
  s.cdw10 = issued;
  EXPECT_EQ(judge_sanitize(s, issued).state, SanitizeProgress::State::done);
  s.state = 4;  // done without deallocation: the data is still gone
  EXPECT_EQ(judge_sanitize(s, issued).state, SanitizeProgress::State::done);
  s.cdw10 = sanitize_cdw10(kSanitizeBlockErase, true, false);  // an older operation's record
  EXPECT_EQ(judge_sanitize(s, issued).state, SanitizeProgress::State::failed);
}

TEST(NvmePurgePlan, AFailedOrNeverStartedSanitizeSaysSo) {
  NvmeSanitizeStatus s;
  s.state = 3;
  auto p = judge_sanitize(s, sanitize_cdw10(kSanitizeBlockErase, true, false));
  EXPECT_EQ(p.state, SanitizeProgress::State::failed);
  EXPECT_NE(p.detail.find("failed"), std::string::npos);
  s.state = 0;
  EXPECT_EQ(judge_sanitize(s, 2).state, SanitizeProgress::State::failed);
}

TEST(NvmePurgePlan, SanitizeWaitsThreeTimesTheEstimateAtLeastTenMinutes) {
  NvmeSanitizeStatus s;
  s.block_erase_s = 1000;
  s.crypto_erase_s = 10;
  EXPECT_DOUBLE_EQ(sanitize_timeout_s(s, NvmePurgeMethod::sanitize_block_erase), 3000);
  EXPECT_DOUBLE_EQ(sanitize_timeout_s(s, NvmePurgeMethod::sanitize_crypto_erase), 600);
  s.block_erase_s = kNoEstimate;
  EXPECT_DOUBLE_EQ(sanitize_timeout_s(s, NvmePurgeMethod::sanitize_block_erase), 12 * 3600);
}

TEST(NvmePurgePlan, OnlyARefusalBeforeTheMediaLetsTheChainFallToDiscard) {
  EXPECT_FALSE(purge_command_may_have_run(-EACCES));  // not root: never submitted
  EXPECT_FALSE(purge_command_may_have_run(-ENOTTY));  // not an NVMe device
  EXPECT_FALSE(purge_command_may_have_run(0x4002));   // Invalid Field in Command, DNR: the controller refused
  EXPECT_FALSE(purge_command_may_have_run(0x10a));    // Invalid Format (command specific)
  EXPECT_TRUE(purge_command_may_have_run(0x371));     // Host Aborted Command (path related): after a timeout
  EXPECT_TRUE(purge_command_may_have_run(-EINTR));
  EXPECT_TRUE(purge_command_may_have_run(-EIO));
}

}  // namespace
}  // namespace diskvet::devices
