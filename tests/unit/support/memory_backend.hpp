// A fake IoBackend over memory for verification tests: data moves at completion time, completions
// come back oldest first and only a few per wake-up (so many I/Os stay in flight), and it counts
// any I/O staged to a block that already has one in flight.
#pragma once

#include <cstring>
#include <deque>
#include <map>
#include <vector>

#include "runner/io/backend.hpp"

namespace diskvet::testing {

class MemoryBackend {
 public:
  MemoryBackend(std::vector<std::byte>& disk, uint32_t depth, uint32_t bs_bytes) : disk_(disk), bs_(bs_bytes) {
    auto pool = runner::BufferPool::create(depth, bs_bytes, 7);
    buffers_ = std::move(*pool);
  }
  void stage(uint32_t slot, runner::Direction d, uint64_t offset, uint32_t len) {
    if (in_flight_[offset]++ > 0) ++overlaps;
    queue_.push_back({slot, d, offset, len});
  }
  int submit_and_wait(unsigned) {
    ++calls;
    // A slow spot on the "device": the wait that completes an I/O to it takes delay_ms, on the job
    // loop's synthetic clock (lab::StepClock's t), so no other I/O is ever slow by accident.
    size_t n = (queue_.size() + 1) / 2;
    for (size_t i = 0; i < n && delay_ms && clock_ns; ++i)
      if (queue_[i].offset == delay_offset) *clock_ns += uint64_t{delay_ms} * 1'000'000;
    return 0;
  }
  template <typename F>
  void reap(F&& f) {
    // The oldest half completes: the rest stays in flight across the next stage.
    size_t n = (queue_.size() + 1) / 2;
    for (size_t i = 0; i < n; ++i) {
      Io io = queue_.front();
      queue_.pop_front();
      if (io.dir == runner::Direction::write) std::memcpy(disk_.data() + io.offset, buffers_.slot(io.slot), io.len);
      else std::memcpy(buffers_.slot(io.slot), disk_.data() + io.offset, io.len);
      --in_flight_[io.offset];
      f(runner::Completion{io.slot, static_cast<int32_t>(io.len)});
    }
  }
  uint64_t syscalls() const { return calls; }
  std::byte* buffer(uint32_t slot) const { return buffers_.slot(slot); }

  uint64_t calls = 0;
  uint64_t overlaps = 0;
  uint64_t delay_offset = 0;
  unsigned delay_ms = 0;
  uint64_t* clock_ns = nullptr;  // the synthetic clock delay_ms advances (StepClock::t)

 private:
  struct Io {
    uint32_t slot;
    runner::Direction dir;
    uint64_t offset;
    uint32_t len;
  };
  std::vector<std::byte>& disk_;
  uint32_t bs_;
  runner::BufferPool buffers_;
  std::deque<Io> queue_;
  std::map<uint64_t, int> in_flight_;
};

}  // namespace diskvet::testing
