// crc32c throughput: ours (SSE4.2 instruction, slicing-by-8 table) against ISA-L's crc32_iscsi on
// the same buffers at 4 KiB and 64 KiB, and filling and checking verification blocks: verification
// must keep up with NVMe speeds (GB/s per core). Prints; asserts nothing.
//   build/tests/bench/crc32c_bench [SECONDS_PER_FIGURE]   (default 0.2; each figure is the median
//   of 5 runs, the contenders alternating so that a busy machine slows them alike)
#include <fmt/format.h>
#include <isa-l/crc.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "runner/crc32c.hpp"
#include "runner/verify_block.hpp"

using namespace diskvet::runner;

namespace {

// ISA-L neither inverts the seed nor the result (iSCSI convention: seed ~0, result not inverted);
// ours takes and returns the finalised CRC, so ours(crc, p, n) == ~crc32_iscsi(p, n, ~crc).
uint32_t crc32c_isal(uint32_t crc, const void* data, size_t len) {
  return ~crc32_iscsi(static_cast<unsigned char*>(const_cast<void*>(data)), static_cast<int>(len), ~crc);
}

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

  const char* vector = "123456789";
  fmt::print("crc32c(\"123456789\"): table {:08x}, sse4.2 {:08x}, isa-l {:08x} (want e3069283)\n", crc32c_table(0, vector, 9),
             cpu_has_sse42() ? crc32c_sse42(0, vector, 9) : 0u, crc32c_isal(0, vector, 9));
  if (crc32c_isal(crc32c_isal(0, buf, 1000), buf + 1000, kMax - 1000) != crc32c_table(0, buf, kMax)) {
    fmt::print("isa-l disagrees with the table path\n");
    return 1;
  }

  volatile uint32_t sink = 0;
  for (size_t bs : {size_t{4096}, kMax}) {
    std::vector<Contender> cs;
    cs.push_back({"table", [&] { sink = crc32c_table(sink, buf, bs); }, {}});
    if (cpu_has_sse42()) cs.push_back({"sse4.2", [&] { sink = crc32c_sse42(sink, buf, bs); }, {}});
    cs.push_back({"isa-l", [&] { sink = crc32c_isal(sink, buf, bs); }, {}});
    race(cs, bs, seconds);
    fmt::print("crc32c over {} KiB buffers, median of {} runs of {} s\n", bs / 1024, cs[0].gb_per_s.size(), seconds);
    for (const auto& c : cs) {
      auto [lo, hi] = std::minmax_element(c.gb_per_s.begin(), c.gb_per_s.end());
      fmt::print("  {:7} {:6.2f} GB/s  (runs {:.2f}..{:.2f})\n", c.name, median(c.gb_per_s), *lo, *hi);
    }
    if (cpu_has_sse42())
      fmt::print("  isa-l / sse4.2 = {:.2f}\n", median(cs.back().gb_per_s) / median(cs[1].gb_per_s));
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
