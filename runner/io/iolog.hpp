// fio's write_iolog for `diskvet io`: every I/O each job issued (when, which direction, where, how
// long), rendered after the run in fio's iolog version 3 format, so fio can replay a diskvet run and
// a test can hold diskvet's offsets against fio's own log. A checking aid, not for measured runs:
// a job keeps 16 bytes per I/O in memory (at most kMaxIoLogRecords, then counts what it dropped) and
// reads the clock once more per I/O. Records are taken when an I/O is staged, so they are what the
// job issued (ramp included), in issue order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runner/io/backend.hpp"
#include "runner/io/clock.hpp"

namespace diskvet::runner {

inline constexpr size_t kMaxIoLogRecords = size_t{1} << 24;  // 256 MiB per job

class JobIoLog {
 public:
  void record(Direction d, uint64_t offset_bytes) {
    if (records_.size() == kMaxIoLogRecords) [[unlikely]] {
      ++dropped_;
      return;
    }
    records_.push_back({now_ns(), offset_bytes, d});
  }
  struct Record {
    uint64_t t_ns;
    uint64_t offset_bytes;
    Direction dir;
  };
  const std::vector<Record>& records() const { return records_; }
  uint64_t dropped() const { return dropped_; }

 private:
  std::vector<Record> records_;
  uint64_t dropped_ = 0;
};

// Every job's log of one run, in job order; a job left behind on a hung device has none.
struct IoLog {
  std::vector<JobIoLog> jobs;
  uint64_t start_ns = 0;  // the jobs' common start (the run's timeline)
  uint32_t bs_bytes = 0;
};

// fio's iolog v3 text: one section per job, in job order, each opening with fio's header line (as
// fio's clones of one job append theirs to one file), then "<us> FILE add|open", one
// "<us> FILE read|write OFFSET LENGTH" per I/O and "<us> FILE close"; times in microseconds since the
// jobs' start, as fio writes them.
std::string render_iolog(const IoLog& log, std::string_view filename);

// An IoBackend that records each staged I/O in a job's log, then hands everything to the backend.
template <IoBackend B>
class LoggingBackend {
 public:
  LoggingBackend(B& backend, JobIoLog& log) : b_(backend), log_(log) {}
  void stage(uint32_t slot, Direction d, uint64_t offset, uint32_t len) {
    log_.record(d, offset);
    b_.stage(slot, d, offset, len);
  }
  void submit()
    requires requires(B& b) { b.submit(); }
  {
    b_.submit();
  }
  int submit_and_wait(unsigned wait_nr) { return b_.submit_and_wait(wait_nr); }
  template <typename F>
  void reap(F&& f) {
    b_.reap(std::forward<F>(f));
  }
  uint64_t syscalls() const { return b_.syscalls(); }
  std::byte* buffer(uint32_t slot) const
    requires requires(const B& b) { b.buffer(0u); }
  {
    return b_.buffer(slot);
  }

 private:
  B& b_;
  JobIoLog& log_;
};

}  // namespace diskvet::runner
