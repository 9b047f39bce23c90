// Run seeds and their derivation (seed.hpp).
#include "runner/io/seed.hpp"

#include <sys/random.h>
#include <unistd.h>

#include <charconv>
#include <chrono>

#include "runner/io/write_data.hpp"

namespace diskvet::runner {

// 53 bits: reports carry the seed as a JSON number, which every JSON reader holds exactly up to 2^53.
constexpr uint64_t kSeedMask = (uint64_t{1} << 53) - 1;

uint64_t random_seed() {
  uint64_t s = 0;
  if (getrandom(&s, sizeof s, 0) == static_cast<ssize_t>(sizeof s)) return s & kSeedMask;
  // No random pool answered (a kernel before 3.17 or a seccomp filter): the clock and the process
  // still differ from one run to the next.
  const auto now = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                   static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
  return WriteData::mix(now ^ (static_cast<uint64_t>(getpid()) << 32)) & kSeedMask;
}

std::optional<uint64_t> parse_seed(std::string_view t) {
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t.remove_prefix(2), base = 16;
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v, base);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size()) return std::nullopt;
  return v;
}

uint64_t derive_seed(uint64_t parent, uint64_t index) {
  // mix is a bijection: for one parent, index -> mix(parent ^ mix(index)) is one too.
  return WriteData::mix(parent ^ WriteData::mix(index + 0x9e3779b97f4a7c15));
}

}  // namespace diskvet::runner
