// Write data: unique per write by default; fio's buffer_compress_percentage and dedupe_percentage
// reproduce an assumed data reduction.
#include "runner/io/write_data.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "runner/io/backend.hpp"
#include "runner/io/job_loop.hpp"
#include "tests/unit/support/run_job_harness.hpp"

using namespace diskvet::runner;

namespace {

// Hashes of the 512-byte chunks of n writes of bs bytes.
std::string block_of(WriteData& d, std::vector<uint64_t>& buf) {
  d.fill(reinterpret_cast<std::byte*>(buf.data()));
  return std::string(reinterpret_cast<const char*>(buf.data()), buf.size() * 8);
}

// A backend with buffers that keeps the data of every write it was given.
class KeepingBackend {
 public:
  explicit KeepingBackend(uint32_t depth, uint32_t bs) : bs_(bs) {
    auto pool = BufferPool::create(depth, bs, 9);
    buffers_ = std::move(*pool);
  }
  void stage(uint32_t slot, Direction d, uint64_t, uint32_t len) {
    if (d == Direction::write) written.emplace_back(reinterpret_cast<const char*>(buffers_.slot(slot)), bs_);
    done_.push_back({slot, static_cast<int32_t>(len)});
  }
  int submit_and_wait(unsigned) { return 0; }
  template <typename F>
  void reap(F&& f) {
    auto d = std::move(done_);
    done_.clear();
    for (auto c : d) f(c);
  }
  uint64_t syscalls() const { return 0; }
  std::byte* buffer(uint32_t slot) const { return buffers_.slot(slot); }
  std::vector<std::string> written;

 private:
  uint32_t bs_;
  BufferPool buffers_;
  std::vector<Completion> done_;
};

std::vector<std::string> job_writes(DataPattern data, uint64_t ios) {
  KeepingBackend b(8, 4096);
  JobPlan p;
  p.rw = Pattern::randwrite;
  p.read_pct = 0;
  p.depth = 8;
  p.region_blocks = 1 << 20;
  p.io_limit_bytes = ios * 4096;
  p.data = data;
  lab::run_to_limit(b, p);
  return std::move(b.written);
}

}  // namespace

TEST(WriteData, EveryWriteOfAJobIsUniqueByDefault) {
  // Before, each slot's buffer was filled once: 16384 writes at depth 8 carried 8 distinct blocks.
  auto w = job_writes({}, 16384);
  ASSERT_EQ(w.size(), 16384u);
  EXPECT_EQ(std::set<std::string>(w.begin(), w.end()).size(), 16384u);
  // Unique at a finer grain too: no 512-byte sector repeats anywhere in the pass.
  std::set<std::string> sectors;
  for (const auto& b : w)
    for (size_t o = 0; o < b.size(); o += 512) sectors.insert(b.substr(o, 512));
  EXPECT_EQ(sectors.size(), 16384u * 8);
}

TEST(WriteData, DedupePercentageRepeatsThatShareOfWrites) {
  auto w = job_writes({0, 50}, 20000);
  double distinct = static_cast<double>(std::set<std::string>(w.begin(), w.end()).size());
  EXPECT_NEAR(distinct / 20000, 0.5, 0.03);
}

TEST(WriteData, CompressPercentageLeavesThatShareOfEveryChunkZero) {
  WriteData d(4096, {50, 0}, 1);
  std::vector<uint64_t> buf(512);
  std::string a = block_of(d, buf), b = block_of(d, buf);
  EXPECT_NE(a, b);
  for (size_t c = 0; c < a.size(); c += 512) {
    size_t zeros = 0;
    for (size_t i = c; i < c + 512; ++i) zeros += a[i] == 0;
    EXPECT_GE(zeros, 256u);
    EXPECT_LE(zeros, 258u);  // the random half may hold a zero byte or two by chance
    EXPECT_EQ(a.substr(c + 256, 256), std::string(256, '\0'));
  }
  WriteData all(4096, {100, 0}, 1);
  EXPECT_EQ(block_of(all, buf), std::string(4096, '\0'));  // fio: 100% compressible is zeros
}

TEST(WriteData, JobsWithDifferentSeedsWriteDifferentData) {
  WriteData a(4096, {}, 1), b(4096, {}, 2);
  std::vector<uint64_t> buf(512);
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    seen.insert(block_of(a, buf));
    seen.insert(block_of(b, buf));
  }
  EXPECT_EQ(seen.size(), 2000u);
}
