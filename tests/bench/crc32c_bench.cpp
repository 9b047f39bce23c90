// crc32c throughput (ISA-L) at 4 KiB and 64 KiB, and filling and checking verification blocks:
// verification must keep up with NVMe speeds (GB/s per core). Prints; asserts nothing.
//   build/tests/bench/crc32c_bench [SECONDS_PER_FIGURE]   (default 0.2; each figure is the median
//   of 5 runs, contenders alternating so that a busy machine slows them alike)
// The race that chose ISA-L over our own SSE4.2 loop is in docs/benchmarks.md.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "runner/verify/crc32c.hpp"
#include "runner/verify/verify_block.hpp"

using namespace diskvet::runner;

namespace {

struct Contender {
  std::string name;
  std::function<void()> run_once;
  std::vector<double> gb_per_s;
};

// Runs each contender for `seconds`, `rounds` times, alternating; keeps every figure.
void race(std::vector<Contender>& cs, size_t bytes_per_call, double seconds, int rounds = 5) {
  using clock = std::chrono::steady_clock;
  for (int r = 0; r < rounds; ++r)
    for (auto& c : cs) {
      size_t calls = 0;
      auto t0 = clock::now();
      double s = 0;
      do {
        for (int i = 0; i < 64; ++i) c.run_once();
        calls += 64;
        s = std::chrono::duration<double>(clock::now() - t0).count();
      } while (s < seconds);
      c.gb_per_s.push_back(static_cast<double>(calls * bytes_per_call) / s / 1e9);
    }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 0.2;
  constexpr size_t kMax = 64 * 1024;
  alignas(64) static std::byte buf[kMax];
  for (size_t i = 0; i < kMax; ++i) buf[i] = static_cast<std::byte>(i * 131);

  fmt::print("crc32c(\"123456789\") = {:08x} (want e3069283)\n", crc32c(0, "123456789", 9));

  volatile uint32_t sink = 0;
  for (size_t bs : {size_t{4096}, kMax}) {
    std::vector<Contender> cs{{crc32c_name(best_crc32c()), [&] { sink = crc32c(sink, buf, bs); }, {}}};
    race(cs, bs, seconds);
    auto [lo, hi] = std::minmax_element(cs[0].gb_per_s.begin(), cs[0].gb_per_s.end());
    fmt::print("crc32c over {} KiB buffers ({}): {:.2f} GB/s, median of {} runs of {} s ({:.2f}..{:.2f})\n", bs / 1024,
               cs[0].name, median(cs[0].gb_per_s), cs[0].gb_per_s.size(), seconds, *lo, *hi);
  }

  for (uint32_t bs : {4096u, 65536u}) {
    BlockIdentity id{1, 8, 1, 2, bs};
    Crc32cFn crc = best_crc32c();
    std::vector<Contender> fill{{"fill", [&] { ++id.generation; fill_block(buf, id, crc); }, {}}};
    race(fill, bs, seconds, 3);
    fill_block(buf, id, crc);
    std::vector<Contender> check{{"check", [&] { sink = sink + block_matches(buf, id, crc); }, {}}};
    race(check, bs, seconds, 3);
    fmt::print("verification blocks of {} KiB ({})\n", bs / 1024, crc32c_name(crc));
    for (const auto* c : {&fill[0], &check[0]}) fmt::print("  {:7} {:6.2f} GB/s\n", c->name, median(c->gb_per_s));
  }
  return 0;
}
