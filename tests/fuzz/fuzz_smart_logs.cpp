// The SATA/SAS log reader and review (devices/smart_logs.hpp) over any text smartctl --json might
// print. Properties: a document compared with itself adds nothing; compared with a drive whose logs
// were empty before the run, every entry it read is judged with words and lands in the problems or
// the notes, and every error counted but not read is unseen and fails.
#include <cstdint>

#include "devices/smart_logs.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace diskvet::devices;

namespace {

// The same logs, empty: the drive as it was before its first error, self-test and corrected error.
Health emptied(const Health& h) {
  Health e;
  if (h.ata_error_log_extended) e.ata_error_log_extended = AtaErrorLog{h.ata_error_log_extended->log, 0, {}};
  if (h.ata_error_log_summary) e.ata_error_log_summary = AtaErrorLog{h.ata_error_log_summary->log, 0, {}};
  if (h.ata_self_test_log) e.ata_self_test_log = std::vector<AtaSelfTestLogEntry>{};
  if (h.scsi_self_test_log) e.scsi_self_test_log = std::vector<ScsiSelfTestLogEntry>{};
  for (const auto& c : h.scsi_error_counters) e.scsi_error_counters.push_back({c.direction, 0, 0});
  return e;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto h = parse_smart_logs(diskvet::fuzz::as_text(data, size));
  if (!h) return 0;
  if (const auto same = review_smart_logs(*h, *h)) {
    FUZZ_CHECK(same->new_errors == 0 && same->findings.empty() && same->problems.empty() && same->notes.empty());
    FUZZ_CHECK(same->new_self_tests.value_or(0) == 0);
  }
  const auto r = review_smart_logs(emptied(*h), *h);
  const bool any_log =
      h->ata_error_log_extended || h->ata_error_log_summary || h->ata_self_test_log || h->scsi_self_test_log || !h->scsi_error_counters.empty();
  FUZZ_CHECK(r.has_value() == any_log);
  if (!r) return 0;
  for (const auto& f : r->findings) FUZZ_CHECK(!f.words.empty() && !f.why.empty() && !f.log.empty());
  FUZZ_CHECK(r->unseen <= r->new_errors);
  FUZZ_CHECK(r->problems.size() + r->notes.size() == r->findings.size() + (r->unseen ? 1 : 0));
  if (h->ata_self_test_log || h->scsi_self_test_log)
    FUZZ_CHECK(r->new_self_tests == h->ata_self_test_log.value_or(std::vector<AtaSelfTestLogEntry>{}).size() +
                                        h->scsi_self_test_log.value_or(std::vector<ScsiSelfTestLogEntry>{}).size());
  if (h->scsi_self_test_log)
    for (const auto& e : *h->scsi_self_test_log) FUZZ_CHECK(!describe_scsi_self_test(e).empty());
  return 0;
}
