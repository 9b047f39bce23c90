// A call that may block in the kernel (an ioctl or stat on a stalled FUSE, network or dying disk)
// run on a thread of its own, waited for until a deadline: the caller goes on without its answer
// and treats that one object as unknown (fail closed), instead of hanging with it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

namespace diskvet {

// Runs fn() and returns its value, or nullopt when it has not returned within `deadline` (it is
// left to finish on its own thread, which owns everything fn captured) or no thread could be
// started. fn must own what it uses (capture by value, move descriptors in).
template <class Fn>
auto call_with_deadline(std::chrono::milliseconds deadline, Fn fn) -> std::optional<decltype(fn())> {
  using T = decltype(fn());
  struct Shared {
    std::mutex m;
    std::condition_variable cv;
    std::optional<T> value;
  };
  auto shared = std::make_shared<Shared>();
  try {
    std::thread([shared, fn = std::move(fn)]() mutable {
      T v = fn();
      std::lock_guard lock(shared->m);
      shared->value = std::move(v);
      shared->cv.notify_all();
    }).detach();
  } catch (const std::system_error&) {
    return std::nullopt;
  }
  std::unique_lock lock(shared->m);
  if (!shared->cv.wait_for(lock, deadline, [&] { return shared->value.has_value(); })) return std::nullopt;
  return std::move(shared->value);
}

}  // namespace diskvet
