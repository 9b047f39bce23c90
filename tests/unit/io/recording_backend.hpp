// A fake IoBackend for tests: completes every I/O at once and records what the job loop asked for.
#pragma once

#include <vector>

#include "runner/io/backend.hpp"

namespace diskvet::testing {

struct RecordedIo {
  runner::Direction dir;
  uint64_t offset;
  uint32_t len;
};

class RecordingBackend {
 public:
  explicit RecordingBackend(int32_t fail_at = -1) : fail_at_(fail_at) {}
  void stage(uint32_t slot, runner::Direction d, uint64_t offset, uint32_t len) {
    ios.push_back({d, offset, len});
    bool fail = fail_at_ >= 0 && ios.size() == static_cast<size_t>(fail_at_) + 1;
    staged_.push_back({slot, fail ? -5 : static_cast<int32_t>(len)});  // -EIO
    max_in_flight = std::max(max_in_flight, staged_.size() + in_flight_);
  }
  int submit_and_wait(unsigned) {
    ++calls;
    in_flight_ += staged_.size();
    ready_.insert(ready_.end(), staged_.begin(), staged_.end());
    staged_.clear();
    return 0;
  }
  template <typename F>
  void reap(F&& f) {
    for (auto c : ready_) f(c);
    in_flight_ -= ready_.size();
    ready_.clear();
  }
  uint64_t syscalls() const { return calls; }

  std::vector<RecordedIo> ios;
  uint64_t calls = 0;
  size_t max_in_flight = 0;

 private:
  int32_t fail_at_;
  size_t in_flight_ = 0;
  std::vector<runner::Completion> staged_, ready_;
};

}  // namespace diskvet::testing
