// Words and JSON for verification mismatches.
#include "runner/verify/verify_report.hpp"

#include <fmt/format.h>

namespace diskvet::runner {

namespace json = boost::json;

std::string describe_mismatch(const BlockMismatch& m) {
  std::string what;
  const BlockHeader& f = m.found;
  switch (m.kind) {
    case MismatchKind::unwritten: what = "the block reads all zeros"; break;
    case MismatchKind::corrupt: what = m.crc_ok ? fmt::format("found generation {} beyond the {} written", f.generation, m.expected.generation)
                                                : "the checksum does not match: the data changed on the device"; break;
    case MismatchKind::torn: what = "the first sectors hold the new write, the rest do not: a torn write"; break;
    case MismatchKind::misdirected: what = fmt::format("found the block written for LBA {}: a misdirected write", f.lba); break;
    case MismatchKind::stale:
      what = m.expected_min_generation < m.expected.generation
                 ? fmt::format("found generation {} where at least {} was written (the region's last full pass): a lost write", f.generation,
                               m.expected_min_generation)
                 : fmt::format("found generation {} where {} was written: a lost write", f.generation, m.expected.generation);
      break;
    case MismatchKind::foreign: what = "found a valid block of another device or run"; break;
  }
  return fmt::format("{}; bytes {}..{} differ ({} bytes)", what, m.first_bad_byte, m.last_bad_byte, m.bad_bytes);
}

json::object mismatch_json(const BlockMismatch& m) {
  const BlockIdentity& e = m.expected;
  const BlockHeader& f = m.found;
  json::object expected{{"magic", fmt::format("{:#018x}", kVerifyMagic)}, {"device_hash", fmt::format("{:#018x}", e.device_hash)},
                        {"lba", e.lba}, {"generation", e.generation}, {"seed", fmt::format("{:#018x}", e.seed)}};
  // Regional state: the oldest generation the block may hold beside the newest.
  if (m.expected_min_generation && m.expected_min_generation < e.generation) expected["generation_min"] = m.expected_min_generation;
  return json::object{
      {"lba", e.lba},
      {"offset_bytes", m.offset_bytes},
      {"kind", to_string(m.kind)},
      {"t_s", m.t_s},
      {"expected", std::move(expected)},
      {"found", json::object{{"magic", fmt::format("{:#018x}", f.magic)}, {"device_hash", fmt::format("{:#018x}", f.device_hash)},
                             {"lba", f.lba}, {"generation", f.generation}, {"seed", fmt::format("{:#018x}", f.seed)}}},
      {"crc_ok", m.crc_ok},
      {"first_bad_byte", m.first_bad_byte},
      {"last_bad_byte", m.last_bad_byte},
      {"bad_bytes", m.bad_bytes},
      {"detail", describe_mismatch(m)},
  };
}

json::object verify_json(const VerifySummary& s) {
  json::array first;
  for (const auto& m : s.first) first.push_back(mismatch_json(m));
  json::array slow;
  for (const auto& x : s.first_slow)
    slow.push_back(json::object{{"t_s", x.t_s}, {"lba", x.lba}, {"lat_ms", static_cast<double>(x.lat_ns) / 1e6}, {"dir", x.write ? "write" : "read"}});
  json::object o{{"enabled", s.enabled},
                      {"latency_outliers", json::object{{"limit_ms", static_cast<double>(s.slow_limit_ns) / 1e6}, {"count", s.slow_ios}, {"first", std::move(slow)}}},
                      {"crc32c", s.crc_impl},
                      {"blocks_written", s.blocks_written},
                      {"blocks_verified", s.blocks_verified},
                      {"blocks_unchecked", s.blocks_unchecked},
                      {"bad_blocks", s.bad_blocks},
                      {"mismatches", s.mismatches},
                      {"first_mismatches", std::move(first)}};
  if (!s.bad_blocks_exact) o["bad_blocks_exact"] = false;
  // Only a device whose run verified holds a state (a plain suite run plans none: 0 bytes).
  if (s.layout.blocks && s.layout.state_bytes) o["state"] = verify_state_json(s.layout);
  return o;
}

json::object verify_state_json(const VerifyLayout& l) {
  return json::object{{"mode", to_string(l.mode)},
                      {"bs_bytes", l.bs_bytes},
                      {"blocks", l.blocks},
                      {"region_blocks", l.region_blocks},
                      {"region_bytes", l.region_blocks * l.bs_bytes},
                      {"memory_bytes", l.state_bytes},
                      {"budget_bytes", l.budget_bytes},
                      {"guarantee", describe_guarantee(l)}};
}

}  // namespace diskvet::runner
