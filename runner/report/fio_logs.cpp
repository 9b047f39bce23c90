// fio's windowed log files from a Measurement's interval series.
#include "runner/report/fio_logs.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <filesystem>

#include "common/units.hpp"

namespace diskvet::runner {

namespace {

std::string log_path(const std::string& name, std::string_view suffix) { return fmt::format("{}_{}.1.log", name, suffix); }

// The value a line carries for one direction of one interval.
uint64_t value_of(const IntervalSample& s, Direction d, FioLogKind kind) {
  switch (kind) {
    case FioLogKind::bw: return static_cast<uint64_t>(std::llround(s.bw_bytes_per_s(d) / 1024));
    case FioLogKind::iops: return static_cast<uint64_t>(std::llround(s.iops(d)));
    case FioLogKind::lat:
    case FioLogKind::clat: return static_cast<uint64_t>(std::llround(s.mean_lat_ns(d)));
    case FioLogKind::slat: return 0;
  }
  return 0;
}

// Letters, digits, '.', '-' kept; anything else (a '/' of "mapper/x", a space of a serial) is '-'.
std::string file_safe(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') c = '-';
  return out;
}

}  // namespace

std::vector<NamedLog> run_fio_logs(const RunResult& r) {
  std::vector<NamedLog> logs;
  for (const DeviceResult& d : r.devices) {
    std::string device = file_safe(std::filesystem::path(d.device.path).filename().string());
    if (!d.device.serial.empty()) device += "-" + file_safe(d.device.serial);
    for (const TestRecord& t : d.tests) {
      for (size_t i = 0; i < t.workloads.size(); ++i) {
        const WorkloadRecord& w = t.workloads[i];
        if (!w.ran) continue;
        const std::string stem = fmt::format("{}_{}_{}-{}-{}", device, file_safe(t.id), i + 1, to_string(w.workload.rw),
                                             file_safe(format_bytes(w.workload.bs_bytes)));
        for (const FioLogFile& f : fio_log_files(FioLogNames{stem, stem, stem}))
          logs.push_back({f.path, render_fio_log(w.result, f.kind)});
      }
    }
  }
  return logs;
}

std::vector<FioLogFile> fio_log_files(const FioLogNames& names) {
  std::vector<FioLogFile> files;
  if (!names.bw.empty()) files.push_back({FioLogKind::bw, log_path(names.bw, "bw"), "--write_bw_log"});
  if (!names.iops.empty()) files.push_back({FioLogKind::iops, log_path(names.iops, "iops"), "--write_iops_log"});
  if (!names.lat.empty()) {
    files.push_back({FioLogKind::lat, log_path(names.lat, "lat"), "--write_lat_log"});
    files.push_back({FioLogKind::clat, log_path(names.lat, "clat"), "--write_lat_log"});
    files.push_back({FioLogKind::slat, log_path(names.lat, "slat"), "--write_lat_log"});
  }
  return files;
}

std::string render_fio_log(const Measurement& m, FioLogKind kind) {
  std::string out;
  if (kind == FioLogKind::slat) return out;
  for (const IntervalSample& s : m.intervals.samples()) {
    const auto t_ms = static_cast<uint64_t>(std::llround((s.t_s + s.dur_s) * 1000));
    for (auto d : {Direction::read, Direction::write})
      if (s.ios[size_t(d)]) fmt::format_to(std::back_inserter(out), "{}, {}, {}, 0, 0\n", t_ms, value_of(s, d, kind), static_cast<int>(d));
  }
  return out;
}

}  // namespace diskvet::runner
