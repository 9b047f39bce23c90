// Sizing the verification state to its budget, allocating it without aborting, and the regional
// layout's records (see verify_state.hpp for what each layout detects).
#include "runner/verify/verify_state.hpp"

#include <fmt/format.h>
#include <sys/mman.h>

#include <bit>
#include <new>
#include <stdexcept>

#include "common/units.hpp"

namespace diskvet::runner {

namespace {

constexpr uint64_t kHiMask = 0xffffffff;
constexpr unsigned kLoShift = 32, kPassShift = 42, kCursorShift = 52;
constexpr uint64_t kDeltaMax = 1023;  // VerifyState::kDeltaMax

uint64_t regional_bytes(uint64_t blocks, uint64_t region_blocks) {
  return (blocks + region_blocks - 1) / region_blocks * sizeof(uint64_t) + VerifyState::kBadTableSlots * sizeof(uint64_t);
}

uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

}  // namespace

std::string_view to_string(VerifyMode m) { return m == VerifyMode::exact ? "exact" : "regional"; }

Result<VerifyLayout> plan_verify_layout(uint64_t region_bytes, uint32_t bs_bytes, uint64_t budget_bytes, uint64_t jobs_bytes) {
  VerifyLayout l;
  l.bs_bytes = bs_bytes;
  l.blocks = bs_bytes ? region_bytes / bs_bytes : 0;
  l.budget_bytes = budget_bytes;
  const uint64_t state_budget = budget_bytes > jobs_bytes ? budget_bytes - jobs_bytes : 0;
  if (l.blocks * sizeof(uint32_t) <= state_budget) {
    l.state_bytes = l.blocks * sizeof(uint32_t);
    return l;
  }
  l.mode = VerifyMode::regional;
  for (uint64_t n = 2; n <= VerifyState::kMaxRegionBlocks; n *= 2) {
    if (regional_bytes(l.blocks, n) > state_budget) continue;
    l.region_blocks = n;
    l.state_bytes = regional_bytes(l.blocks, n);
    return l;
  }
  const uint64_t least = regional_bytes(l.blocks, VerifyState::kMaxRegionBlocks);
  return input_error("--verify-memory",
                     fmt::format("verifying {} in {} blocks needs at least {} of state (one 8-byte record per {} blocks){}, more than "
                                 "this device's share of the verification memory budget, {}",
                                 format_bytes(region_bytes), format_bytes(bs_bytes), format_bytes(least), VerifyState::kMaxRegionBlocks,
                                 jobs_bytes ? fmt::format(" and {} for the verifying jobs", format_bytes(jobs_bytes)) : "",
                                 format_bytes(budget_bytes)),
                     "raise --verify-memory, verify with a larger bs, or test a smaller region");
}

std::string describe_guarantee(const VerifyLayout& l) {
  if (l.mode == VerifyMode::exact)
    return fmt::format("exact: each of the {} blocks' last generation is kept ({} B per block); every corrupt, torn, misdirected, foreign, "
                       "unwritten or stale (lost write of any age) block that is read is found",
                       l.blocks, sizeof(uint32_t));
  return fmt::format(
      "regional: one record per {} blocks ({}) to fit the budget; corrupt, misdirected and foreign blocks are found exactly, and so is a "
      "lost write that a verify-behind read comes to; a block read later is checked against its region's window of generations: one older "
      "than the region's last full pass (a lost write of that pass) is stale, zeros are unwritten once a pass covered the region; a lost "
      "random write whose block still holds a generation inside the window is not detected; torn writes are reported as corrupt",
      l.region_blocks, format_bytes(l.region_blocks * l.bs_bytes));
}

VerifyState::VerifyState(uint64_t base_offset_bytes, uint64_t region_bytes, uint32_t bs_bytes, uint32_t lbs_bytes, uint64_t device_hash,
                         uint64_t seed, uint64_t slow_ns)
    : VerifyState(VerifyLayout{VerifyMode::exact, region_bytes / bs_bytes, bs_bytes, 1, region_bytes / bs_bytes * sizeof(uint32_t), 0},
                  base_offset_bytes, lbs_bytes, device_hash, seed, slow_ns) {}

VerifyState::VerifyState(const VerifyLayout& layout, uint64_t base_offset_bytes, uint32_t lbs_bytes, uint64_t device_hash, uint64_t seed,
                         uint64_t slow_ns)
    : slow_limit_ns(slow_ns), layout_(layout), base_(base_offset_bytes), lbs_(lbs_bytes), device_hash_(device_hash), seed_(seed),
      regions_(layout.mode == VerifyMode::regional ? (layout.blocks + layout.region_blocks - 1) / layout.region_blocks : 0),
      region_shift_(static_cast<uint32_t>(std::countr_zero(layout.region_blocks))),
      bad_(layout.mode == VerifyMode::regional ? kBadTableSlots : 0) {
  if (layout.mode == VerifyMode::exact) gen_.assign(layout.blocks, 0);
}

ZeroedWords::ZeroedWords(uint64_t count) : count_(count) {
  if (count == 0) return;
  static_assert(sizeof(std::atomic<uint64_t>) == sizeof(uint64_t) && std::atomic<uint64_t>::is_always_lock_free);
  void* p = ::mmap(nullptr, count * sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  words_ = static_cast<std::atomic<uint64_t>*>(p);  // zero bytes are a zero atomic<uint64_t> (lock-free, same size)
}

ZeroedWords::~ZeroedWords() {
  if (words_) ::munmap(words_, count_ * sizeof(uint64_t));
}

Result<std::unique_ptr<VerifyState>> VerifyState::create(const VerifyLayout& layout, uint64_t base_offset_bytes, uint32_t lbs_bytes,
                                                         uint64_t device_hash, uint64_t seed, uint64_t slow_ns) {
  try {
    return std::make_unique<VerifyState>(layout, base_offset_bytes, lbs_bytes, device_hash, seed, slow_ns);
  } catch (const std::exception&) {  // bad_alloc, or length_error for a count no vector can hold
    return runtime_error("verification", fmt::format("could not allocate {} of verification state for {} blocks", format_bytes(layout.state_bytes),
                                                     layout.blocks),
                         "free memory, or lower --verify-memory so the state is coarser");
  }
}

uint64_t VerifyState::allocated_bytes() const {
  if (exact()) return gen_.capacity() * sizeof(uint32_t);
  return regional_bytes(layout_.blocks, layout_.region_blocks);
}

uint64_t VerifyState::begin_regional_write(uint64_t block) {
  static_assert(VerifyState::kDeltaMax == kDeltaMax);
  const uint64_t n = layout_.region_blocks;
  const uint64_t k = block & (n - 1);
  std::atomic<uint64_t>& rec = regions_[block >> region_shift_];
  uint64_t r = rec.load(std::memory_order_relaxed);
  for (;;) {
    uint64_t hi = r & kHiMask;
    uint64_t lo_d = (r >> kLoShift) & kDeltaMax, pass_d = (r >> kPassShift) & kDeltaMax, cursor = r >> kCursorShift;
    uint64_t g = hi + 1;
    if (hi == kHiMask) {
      g = hi;  // 4 billion writes to one region: numbers would repeat, so the window opens fully
      lo_d = pass_d = kDeltaMax;
    } else {
      lo_d = std::min(lo_d + 1, kDeltaMax);
      pass_d = std::min(pass_d + 1, kDeltaMax);
    }
    // The pass: blocks written in order from the region's first; a write to the first block starts one.
    if (k == 0) cursor = 0;
    if (k == cursor) {
      if (cursor == 0) pass_d = 0;
      if (++cursor == n) {
        if (pass_d < kDeltaMax) lo_d = pass_d;  // every block now holds the pass's first generation or newer
        cursor = 0;
      }
    }
    uint64_t next = g | lo_d << kLoShift | pass_d << kPassShift | cursor << kCursorShift;
    if (rec.compare_exchange_weak(r, next, std::memory_order_relaxed)) return g;
  }
}

void VerifyState::drop_floor(uint64_t block) {
  std::atomic<uint64_t>& rec = regions_[block >> region_shift_];
  uint64_t r = rec.load(std::memory_order_relaxed);
  constexpr uint64_t kVoid = kDeltaMax << kLoShift | kDeltaMax << kPassShift;
  while (!rec.compare_exchange_weak(r, r | kVoid, std::memory_order_relaxed)) {
  }
}

bool VerifyState::mark_bad(uint64_t block) {
  if (exact()) {
    if (gen_[block] & kFoundBad) return false;
    gen_[block] |= kFoundBad;
    return true;
  }
  // A mismatch is the slow path: probe a small open-addressed set of block + 1 (0: empty).
  constexpr uint64_t kMask = kBadTableSlots - 1;
  constexpr int kMaxProbes = 64;
  const uint64_t key = block + 1;
  uint64_t h = mix(key) & kMask;
  for (int i = 0; i < kMaxProbes; ++i, h = (h + 1) & kMask) {
    uint64_t v = bad_[h].load(std::memory_order_relaxed);
    if (v == 0 && bad_[h].compare_exchange_strong(v, key, std::memory_order_relaxed)) return true;
    if (v == key) return false;
  }
  bad_table_full_.store(true, std::memory_order_relaxed);
  return true;
}

}  // namespace diskvet::runner
