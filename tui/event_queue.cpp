// The bounded event queue between runner threads and the UI thread.
#include "tui/event_queue.hpp"

namespace diskvet::tui {

void TuiEvents::push(RunEvent e, bool must_keep) {
  std::lock_guard l(m_);
  if (q_.size() >= kMaxQueued && !must_keep) {
    ++dropped_;  // a live number the next sample replaces; phases, verdicts and logs are always kept
    return;
  }
  q_.push_back(std::move(e));
}

std::deque<RunEvent> TuiEvents::drain() {
  std::deque<RunEvent> out;
  std::lock_guard l(m_);
  out.swap(q_);
  return out;
}

size_t TuiEvents::dropped() const {
  std::lock_guard l(m_);
  return dropped_;
}

}  // namespace diskvet::tui
