// Verification results in words and in JSON: each mismatch with its LBA, expected and found
// header fields and the bytes that differ; the counts beside them.
#pragma once

#include <boost/json.hpp>

#include <string>

#include "runner/verify/verify_state.hpp"

namespace diskvet::runner {

// "found generation 1 where 2 was written; bytes 0..4095 differ (4090 bytes)"
std::string describe_mismatch(const BlockMismatch& m);

boost::json::object mismatch_json(const BlockMismatch& m);
// {"enabled", "crc32c", "blocks_written", "blocks_verified", "blocks_unchecked", "mismatches", "first_mismatches": [...],
//  "state": verify_state_json}
boost::json::object verify_json(const VerifySummary& s);
// What the state was and guarantees: {"mode", "bs_bytes", "blocks", "region_blocks", "region_bytes",
// "memory_bytes", "budget_bytes", "guarantee"}.
boost::json::object verify_state_json(const VerifyLayout& l);

}  // namespace diskvet::runner
