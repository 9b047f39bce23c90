// The NVMe Error Information log decoder (devices/nvme_error_log.hpp) over any bytes a controller
// might return: the first 8 bytes are the SMART log's entry count before a run, the rest the log
// page read after it. Properties: only whole non-empty entries come out, every entry and every
// judgement has words, and the review of a run accounts for every new entry: judged from the log,
// or counted as unseen and failing.
#include <array>
#include <cstdint>
#include <cstring>

#include "devices/nvme_error_log.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace diskvet::devices;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 8) return 0;
  uint64_t before = 0;
  std::memcpy(&before, data, 8);
  before %= 1u << 20;  // counts near 2^64 would wrap the after count below
  const std::span<const uint8_t> page(data + 8, size - 8);
  const auto entries = parse_error_log(page);
  FUZZ_CHECK(entries.size() <= page.size() / kErrorLogEntryBytes);
  uint64_t highest = before;
  for (const auto& e : entries) {
    FUZZ_CHECK(e.error_count != 0);
    FUZZ_CHECK(!describe_error_entry(e).empty());
    FUZZ_CHECK(!judge_error_entry(e).why.empty());
    FUZZ_CHECK(!nvme_error_status_words(e.sct(), e.sc()).empty());
    if (e.error_count > highest && e.error_count < (1ull << 21)) highest = e.error_count;
  }
  Health b, a;
  b.error_log_entries = before;
  a.error_log_entries = highest + 3;  // three more than the log holds: some must be unseen
  std::vector<std::array<uint8_t, kErrorLogEntryBytes>> raw;
  for (size_t off = 0; off + kErrorLogEntryBytes <= page.size(); off += kErrorLogEntryBytes) {
    raw.emplace_back();
    std::memcpy(raw.back().data(), page.data() + off, kErrorLogEntryBytes);
  }
  a.error_log = raw;
  auto r = review_error_log(b, a);
  FUZZ_CHECK(r);
  FUZZ_CHECK(r->new_entries == *a.error_log_entries - before);
  FUZZ_CHECK(r->unseen + r->entries.size() >= r->new_entries);
  FUZZ_CHECK(r->unseen >= 1 || r->entries.size() >= r->new_entries);
  FUZZ_CHECK(r->problems.size() + r->notes.size() >= r->entries.size());
  size_t failing = 0;
  for (const auto& f : r->entries) failing += f.judgement.fails;
  FUZZ_CHECK(r->problems.size() == failing + (r->unseen ? 1 : 0));
  a.error_log.reset();  // the log could not be read: the new entries FAIL
  auto unread = review_error_log(b, a);
  FUZZ_CHECK(unread && unread->unseen == unread->new_entries && unread->problems.size() == 1);
  return 0;
}
