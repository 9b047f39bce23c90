// Seeds (DESIGN.md "Engine": write data unique across workloads, rounds, passes and runs). A run
// draws one seed at random unless the user asks for one (`--randseed`, fio's name); every engine run
// of it takes the next seed of a sequence derived from it, and every job of an engine run its own.
// The same run seed and the same plan give the same seeds again: repeating a run is a choice.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace diskvet::runner {

// 53 random bits from the kernel's pool (getrandom): never the same twice in practice, and exact as
// a JSON number in any reader.
uint64_t random_seed();

// A seed as the user gives it (--randseed): decimal, or hex with 0x as a report prints it.
std::optional<uint64_t> parse_seed(std::string_view text);

// The index-th seed derived from parent: distinct indices give distinct seeds for one parent (a
// bijection of the index), and unrelated parents give unrelated sequences.
uint64_t derive_seed(uint64_t parent, uint64_t index);

// A run's (or a device's) seeds in order: one per engine run, so no two runs of the sequence share a
// data stream or an offset sequence.
class SeedSequence {
 public:
  explicit SeedSequence(uint64_t base) : base_(base) {}
  uint64_t next() { return derive_seed(base_, used_++); }
  uint64_t base() const { return base_; }
  uint64_t used() const { return used_; }

 private:
  uint64_t base_;
  uint64_t used_ = 0;
};

}  // namespace diskvet::runner
