// crc32c throughput of the SSE4.2 and table paths, and of filling and checking verification
// blocks: verification must keep up with NVMe speeds (GB/s per core). Prints; asserts nothing.
#include <fmt/format.h>

#include <chrono>
#include <vector>

#include "runner/verify/crc32c.hpp"
#include "runner/verify/verify_block.hpp"

using namespace diskvet::runner;

namespace {

template <typename F>
double gb_per_s(size_t bytes_per_call, F&& f) {
  using clock = std::chrono::steady_clock;
  size_t calls = 0;
  auto t0 = clock::now();
  double s = 0;
  do {
    for (int i = 0; i < 256; ++i) f();
    calls += 256;
    s = std::chrono::duration<double>(clock::now() - t0).count();
  } while (s < 0.5);
  return static_cast<double>(calls * bytes_per_call) / s / 1e9;
}

}  // namespace

int main() {
  constexpr size_t kBs = 64 * 1024;
  alignas(64) static std::byte buf[kBs];
  for (size_t i = 0; i < kBs; ++i) buf[i] = static_cast<std::byte>(i * 131);
  volatile uint32_t sink = 0;
  fmt::print("crc32c over {} KiB buffers\n", kBs / 1024);
  fmt::print("  table   {:6.2f} GB/s\n", gb_per_s(kBs, [&] { sink = crc32c_table(sink, buf, kBs); }));
  if (cpu_has_sse42()) fmt::print("  sse4.2  {:6.2f} GB/s\n", gb_per_s(kBs, [&] { sink = crc32c_sse42(sink, buf, kBs); }));
  else fmt::print("  sse4.2  not on this CPU\n");
  for (uint32_t bs : {4096u, 65536u}) {
    BlockIdentity id{1, 8, 1, 2, bs};
    Crc32cFn crc = best_crc32c();
    fmt::print("verification blocks of {} KiB ({})\n", bs / 1024, crc32c_name(crc));
    fmt::print("  fill    {:6.2f} GB/s\n", gb_per_s(bs, [&] { ++id.generation; fill_block(buf, id, crc); }));
    fill_block(buf, id, crc);
    fmt::print("  check   {:6.2f} GB/s\n", gb_per_s(bs, [&] { sink = sink + block_matches(buf, id, crc); }));
  }
  return 0;
}
