// NVMe parsing from byte buffers laid out per the spec, built here byte by byte (little endian).
#include "devices/nvme_layout.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace diskvet::devices {
namespace {

struct Buffer {
  std::vector<uint8_t> b;
  explicit Buffer(size_t n) : b(n, 0) {}
  void le(size_t off, uint64_t v, size_t n) {
    // Values are at most 64 bits; the upper bytes of a 128-bit field stay zero.
    for (size_t i = 0; i < n; ++i) b[off + i] = static_cast<uint8_t>(i < 8 ? v >> (8 * i) : 0);
  }
  void ascii(size_t off, const std::string& s, size_t n) {
    for (size_t i = 0; i < n; ++i) b[off + i] = i < s.size() ? static_cast<uint8_t>(s[i]) : ' ';
  }
};

// Identify Controller (Base Spec 2.0, Figure 275) as a QEMU controller might answer.
Buffer identify_controller() {
  Buffer c(kIdentifyBytes);
  c.le(0, 0x1b36, 2);             // VID: Red Hat (QEMU)
  c.ascii(4, "deadbeef", 20);     // SN
  c.ascii(24, "QEMU NVMe Ctrl", 40);  // MN
  c.ascii(64, "8.0.0", 8);        // FR
  c.b[76] = 0x02;                 // CMIC: the subsystem may have two or more controllers
  c.le(256, 0x000a, 2);           // OACS: Format NVM (bit 1) and Namespace Management (bit 3)
  c.le(266, 343, 2);              // WCTEMP 343 K = 69.85 C
  c.le(268, 373, 2);              // CCTEMP 373 K = 99.85 C
  c.le(328, 0x5, 4);              // SANICAP: crypto erase and overwrite
  c.le(516, 256, 4);              // NN
  c.b[524] = 0x04;                // FNA
  return c;
}

TEST(NvmeLayout, ParsesIdentifyController) {
  auto c = parse_identify_controller(identify_controller().b);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->vendor_id, 0x1b36);
  EXPECT_EQ(c->serial, "deadbeef");
  EXPECT_EQ(c->model, "QEMU NVMe Ctrl");
  EXPECT_EQ(c->firmware, "8.0.0");
  EXPECT_TRUE(c->format_supported());
  EXPECT_TRUE(c->namespace_management());
  EXPECT_FALSE(c->firmware_download_supported());
  EXPECT_TRUE(c->sanitize_crypto_erase());
  EXPECT_FALSE(c->sanitize_block_erase());
  EXPECT_TRUE(c->sanitize_overwrite());
  EXPECT_EQ(c->namespace_count, 256u);
  EXPECT_EQ(c->fna, 0x04);
  EXPECT_TRUE(c->format_crypto_erase_supported());
  EXPECT_FALSE(c->format_applies_to_all_namespaces());
  EXPECT_EQ(c->cmic, 0x02);
  EXPECT_TRUE(c->may_have_other_controllers());
  EXPECT_EQ(c->warning_temp_k, 343);
}

TEST(NvmeLayout, RejectsShortBuffers) {
  std::vector<uint8_t> small(100);
  EXPECT_FALSE(parse_identify_controller(small));
  EXPECT_FALSE(parse_identify_namespace(small));
  EXPECT_FALSE(parse_smart_log(small));
  EXPECT_FALSE(parse_firmware_slot_log(small));
  EXPECT_FALSE(parse_sanitize_log(small));
  EXPECT_FALSE(parse_namespace_list(small));
}

TEST(NvmeLayout, ParsesIdentifyNamespaceAndTheFormatInUse) {
  Buffer n(kIdentifyBytes);
  n.le(0, 2097152, 8);   // NSZE
  n.le(8, 2097152, 8);   // NCAP
  n.le(16, 1000, 8);     // NUSE
  n.b[25] = 1;           // NLBAF: two formats (0's based)
  n.b[26] = 1;           // FLBAS: format 1 in use
  n.le(120, 0x0102030405060708, 8);                 // EUI64
  n.le(128, (9u << 16) | (2u << 24), 4);            // LBAF0: 512 B, RP 2
  n.le(132, (12u << 16) | 8u, 4);                   // LBAF1: 4096 B, 8 B metadata
  auto ns = parse_identify_namespace(n.b);
  ASSERT_TRUE(ns);
  EXPECT_EQ(ns->size_blocks, 2097152u);
  EXPECT_EQ(ns->used_blocks, 1000u);
  ASSERT_EQ(ns->lba_formats.size(), 2u);
  EXPECT_EQ(ns->lba_formats[0].data_bytes, 512u);
  EXPECT_EQ(ns->lba_formats[0].relative_performance, 2);
  EXPECT_EQ(ns->lba_formats[1].data_bytes, 4096u);
  EXPECT_EQ(ns->lba_formats[1].metadata_bytes, 8);
  EXPECT_EQ(ns->lba_format_in_use, 1);
  EXPECT_EQ(ns->block_bytes(), 4096u);
  EXPECT_EQ(ns->eui64_hex, "0807060504030201");
  EXPECT_EQ(ns->nguid_hex, "");
}

TEST(NvmeLayout, ReadsMetadataPlacementAndProtectionOfTheFormatInUse) {
  Buffer n(kIdentifyBytes);
  n.b[26] = 0x10;  // FLBAS: format 0, metadata at the end of each block (bit 4)
  n.b[29] = 0x09;  // DPS: protection type 1, in the first bytes of the metadata (bit 3)
  auto ns = parse_identify_namespace(n.b);
  ASSERT_TRUE(ns);
  EXPECT_EQ(ns->lba_format_in_use, 0);
  EXPECT_TRUE(ns->metadata_extended);
  EXPECT_EQ(ns->dps, 0x09);
}

TEST(NvmeLayout, UsesTheUpperFlbasBitsBeyondSixteenFormats) {
  Buffer n(kIdentifyBytes);
  n.b[25] = 19;               // 20 formats
  n.b[26] = 0x02 | (1 << 5);  // index 0x12 = 18
  n.le(128 + 4 * 18, 12u << 16, 4);
  auto ns = parse_identify_namespace(n.b);
  ASSERT_TRUE(ns);
  EXPECT_EQ(ns->lba_format_in_use, 18);
  EXPECT_EQ(ns->block_bytes(), 4096u);
}

Buffer smart_log() {
  Buffer s(kLogPageBytes);
  s.b[0] = 0x00;            // Critical Warning
  s.le(1, 310, 2);          // Composite Temperature 310 K
  s.b[3] = 100;             // Available Spare
  s.b[4] = 10;              // Available Spare Threshold
  s.b[5] = 3;               // Percentage Used
  s.le(32, 123456, 16);     // Data Units Read
  s.le(48, 654321, 16);     // Data Units Written
  s.le(160, 0, 16);         // Media and Data Integrity Errors
  s.le(176, 7, 16);         // Number of Error Information Log Entries
  s.le(192, 11, 4);         // Warning Composite Temperature Time
  s.le(196, 2, 4);          // Critical Composite Temperature Time
  s.le(216, 5, 4);          // Thermal Management Temperature 1 Transition Count
  s.le(220, 1, 4);          // Thermal Management Temperature 2 Transition Count
  return s;
}

TEST(NvmeLayout, ParsesTheSmartHealthLog) {
  auto ctrl = parse_identify_controller(identify_controller().b);
  auto h = parse_smart_log(smart_log().b, &*ctrl);
  ASSERT_TRUE(h);
  EXPECT_TRUE(h->known);
  EXPECT_EQ(h->source, "nvme");
  EXPECT_EQ(h->critical_warning, 0);
  EXPECT_NEAR(*h->temperature_c, 36.85, 1e-9);
  EXPECT_NEAR(*h->warning_temp_c, 69.85, 1e-9);
  EXPECT_NEAR(*h->critical_temp_c, 99.85, 1e-9);
  EXPECT_EQ(h->available_spare_pct, 100);
  EXPECT_EQ(h->available_spare_threshold_pct, 10);
  EXPECT_EQ(h->percentage_used, 3);
  EXPECT_EQ(h->data_units_read, 123456u);
  EXPECT_EQ(h->data_units_written, 654321u);
  EXPECT_EQ(h->media_errors, 0u);
  EXPECT_EQ(h->error_log_entries, 7u);
  EXPECT_EQ(h->warning_temp_time_min, 11u);
  EXPECT_EQ(h->critical_temp_time_min, 2u);
  EXPECT_EQ(h->thermal_transitions, 6u);
}

TEST(NvmeLayout, LeavesAnUnreportedTemperatureUnknown) {
  Buffer s = smart_log();
  s.le(1, 0, 2);
  auto h = parse_smart_log(s.b);
  ASSERT_TRUE(h);
  EXPECT_FALSE(h->temperature_c);
  EXPECT_FALSE(h->warning_temp_c);  // no controller given
}

TEST(NvmeLayout, SaturatesHugeCountersInsteadOfWrapping) {
  Buffer s = smart_log();
  s.le(160 + 8, 1, 8);  // bit 64 of Media Errors
  EXPECT_EQ(parse_smart_log(s.b)->media_errors, UINT64_MAX);
}

TEST(NvmeLayout, ParsesTheFirmwareSlotLog) {
  Buffer f(kLogPageBytes);
  f.b[0] = 0x02 | (0x03 << 4);  // active slot 2, slot 3 next reset
  f.ascii(8, "1.0", 8);
  f.ascii(16, "1.1", 8);
  auto s = parse_firmware_slot_log(f.b);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->active_slot, 2);
  EXPECT_EQ(s->next_reset_slot, 3);
  ASSERT_EQ(s->revisions.size(), 7u);
  EXPECT_EQ(s->revisions[0], "1.0");
  EXPECT_EQ(s->revisions[1], "1.1");
  EXPECT_EQ(s->revisions[2], "");
}

TEST(NvmeLayout, NamesEveryCriticalWarningBit) {
  auto words = critical_warning_words(0x05);
  ASSERT_EQ(words.size(), 2u);
  EXPECT_EQ(words[0], "available spare below threshold");
  EXPECT_EQ(words[1], "reliability degraded by media or internal errors");
  EXPECT_TRUE(critical_warning_words(0).empty());
}

TEST(NvmeLayout, ParsesTheSanitizeStatusLog) {
  Buffer s(kLogPageBytes);
  s.le(0, 0x8000, 2);       // SPROG: half done
  s.le(2, 0x0102, 2);       // SSTAT: in progress (2), global data erased (bit 8)
  s.le(4, 0x0000000a, 4);   // SCDW10: block erase with unrestricted exit
  s.le(8, 0xffffffff, 4);   // ETO: no estimate
  s.le(12, 120, 4);         // ETBE
  s.le(16, 5, 4);           // ETCE
  auto st = parse_sanitize_log(s.b);
  ASSERT_TRUE(st);
  EXPECT_EQ(st->progress, 0x8000);
  EXPECT_EQ(st->state, 2);
  EXPECT_TRUE(st->global_data_erased);
  EXPECT_EQ(st->cdw10, 0x0au);
  EXPECT_EQ(st->overwrite_s, kNoEstimate);
  EXPECT_EQ(st->block_erase_s, 120u);
  EXPECT_EQ(st->crypto_erase_s, 5u);
}

TEST(NvmeLayout, ParsesANamespaceListUpToTheFirstZero) {
  Buffer l(kIdentifyBytes);
  l.le(0, 1, 4);
  l.le(4, 3, 4);
  l.le(12, 9, 4);  // after the terminating zero: not a namespace
  auto ids = parse_namespace_list(l.b);
  ASSERT_TRUE(ids);
  EXPECT_EQ(*ids, (std::vector<uint32_t>{1, 3}));
}

TEST(NvmeLayout, ReadsEveryByteOfTheLowHalfOfA128BitCounter) {
  Buffer s = smart_log();
  s.le(32, 0x0123456789abcdefull, 16);  // Data Units Read: all eight low bytes in use
  s.le(48, 0xff00000000000001ull, 16);  // Data Units Written: the top byte of the low half
  auto h = parse_smart_log(s.b);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->data_units_read, 0x0123456789abcdefull);
  EXPECT_EQ(h->data_units_written, 0xff00000000000001ull);
}

TEST(NvmeLayout, KeepsTheCriticalWarningBitsAsTheControllerSetThem) {
  Buffer s = smart_log();
  s.b[0] = 0x0c;  // bits 2 and 3: reliability degraded, media read-only
  auto h = parse_smart_log(s.b);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->critical_warning, 0x0c);
  EXPECT_EQ(critical_warning_words(h->critical_warning.value_or(0)),
            (std::vector<std::string>{"reliability degraded by media or internal errors", "media placed in read-only mode"}));
}

TEST(NvmeLayout, NamesTheDefinedCriticalWarningBitsAndCallsTheRestReserved) {
  auto words = critical_warning_words(0xff);
  EXPECT_EQ(words, (std::vector<std::string>{"available spare below threshold", "temperature beyond a threshold",
                                             "reliability degraded by media or internal errors", "media placed in read-only mode",
                                             "volatile memory backup device failed",
                                             "persistent memory region read-only or unreliable", "reserved warning bit 6",
                                             "reserved warning bit 7"}));
}

TEST(NvmeLayout, ReadsTheSanitizeStateWithoutTheCompletedPassesBits) {
  Buffer s(kLogPageBytes);
  s.le(2, 0x00fb, 2);  // SSTAT: failed (3), 31 completed overwrite passes (bits 7:3), global data not erased
  auto st = parse_sanitize_log(s.b);
  ASSERT_TRUE(st);
  EXPECT_EQ(st->state, 3);
  EXPECT_FALSE(st->global_data_erased);
  EXPECT_EQ(st->progress, 0);
}

TEST(NvmeLayout, ReadsEveryCapabilityBitOfTheController) {
  Buffer c = identify_controller();
  c.le(256, 0x000e, 2);  // OACS: format, firmware download, namespace management
  c.le(328, 0x7, 4);     // SANICAP: crypto erase, block erase, overwrite
  c.b[524] = 0x07;       // FNA: format and secure erase apply to all namespaces, crypto erase supported
  c.b[76] = 0x00;        // CMIC: a single controller
  auto ctrl = parse_identify_controller(c.b);
  ASSERT_TRUE(ctrl);
  EXPECT_TRUE(ctrl->firmware_download_supported());
  EXPECT_TRUE(ctrl->sanitize_block_erase());
  EXPECT_TRUE(ctrl->format_applies_to_all_namespaces());
  EXPECT_TRUE(ctrl->secure_erase_applies_to_all_namespaces());
  EXPECT_FALSE(ctrl->may_have_other_controllers());
  EXPECT_EQ(ctrl->critical_temp_k, 373);
}

TEST(NvmeLayout, ParsesABufferThatStartsAtAnOddAddress) {
  Buffer c = identify_controller();
  std::vector<uint8_t> shifted(1 + c.b.size());
  std::memcpy(shifted.data() + 1, c.b.data(), c.b.size());
  auto ctrl = parse_identify_controller(std::span<const uint8_t>(shifted).subspan(1));
  ASSERT_TRUE(ctrl);
  EXPECT_EQ(ctrl->vendor_id, 0x1b36);
  EXPECT_EQ(ctrl->namespace_count, 256u);
}

TEST(NvmeLayout, ReadsTheNguidInByteOrderAndCapsTheFormatCountAtSixtyFour) {
  Buffer n(kIdentifyBytes);
  for (size_t i = 0; i < 16; ++i) n.b[104 + i] = static_cast<uint8_t>(0xa0 + i);  // NGUID
  n.le(8, 4096, 8);  // NCAP
  n.b[25] = 255;     // NLBAF beyond the 64 the structure holds
  n.le(128, 8u << 16, 4);  // LBAF0: LBADS 8, below the 512-byte minimum
  auto ns = parse_identify_namespace(n.b);
  ASSERT_TRUE(ns);
  EXPECT_EQ(ns->nguid_hex, "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf");
  EXPECT_EQ(ns->capacity_blocks, 4096u);
  EXPECT_EQ(ns->lba_formats.size(), 64u);
  EXPECT_EQ(ns->lba_formats[0].data_bytes, 0u);
  EXPECT_EQ(ns->block_bytes(), 0u);
}

TEST(NvmeLayout, ReadsAFullNamespaceList) {
  Buffer l(kIdentifyBytes);
  for (size_t i = 0; i < 1024; ++i) l.le(4 * i, i + 1, 4);
  auto ids = parse_namespace_list(l.b);
  ASSERT_TRUE(ids);
  ASSERT_EQ(ids->size(), 1024u);
  EXPECT_EQ(ids->back(), 1024u);
}

}  // namespace
}  // namespace diskvet::devices
