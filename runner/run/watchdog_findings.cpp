// Stalls and kernel lines of a device: kept, told in words, turned into failing verdict lines.
#include "runner/run/watchdog_findings.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/units.hpp"

namespace diskvet::runner {

namespace json = boost::json;

void WatchdogRecord::add(const std::string& test_id, const Measurement& m, uint32_t lbs) {
  io_timeout_s = std::max(io_timeout_s, m.workload.io_timeout_s);
  io_grace_s = std::max(io_grace_s, m.workload.io_grace_s);
  stall_count += m.stall_count;
  if (m.stall_count) stalls_by_test[test_id] += m.stall_count;
  for (const auto& s : m.stalls)
    if (stalls.size() < kMaxListed) stalls.push_back({test_id, s, s.offset_bytes / (lbs ? lbs : 512)});
  if (m.abandoned && !abandoned) {
    abandoned = true;
    const Stall* oldest = m.stalls.empty() ? nullptr : &m.stalls.front();
    abandon_detail = fmt::format("abandoned in {}: {} past io_timeout {} s + io_grace {} s; the device's run stopped there", test_id,
                                 oldest ? fmt::format("an I/O ({} at LBA {}) still out after {:.1f} s", to_string(oldest->dir),
                                                      oldest->offset_bytes / (lbs ? lbs : 512), oldest->out_s)
                                        : std::string("an I/O still out"),
                                 m.workload.io_timeout_s, m.workload.io_grace_s);
  }
}

std::string describe_stall(const DeviceStall& s, double io_timeout_s) {
  return fmt::format("{} at LBA {} (offset {}) in {}: out {:.2f} s{} from {:.2f} s (io_timeout {} s)", to_string(s.stall.dir), s.lba,
                     format_bytes(s.stall.offset_bytes), s.test_id, s.stall.out_s, s.stall.completed ? "" : " and never completed",
                     s.stall.submit_s, io_timeout_s);
}

std::vector<std::string> watchdog_problems(const WatchdogRecord& w, std::optional<uint64_t> max_stalls, const KernelLog& kernel) {
  std::vector<std::string> out;
  const uint64_t allowed = max_stalls.value_or(0);
  if (w.stall_count > allowed) {
    std::string first = w.stalls.empty() ? "" : " (first: " + describe_stall(w.stalls.front(), w.io_timeout_s) + ")";
    out.push_back(fmt::format("stalled I/O: {} I/O{} out longer than io_timeout {} s{}{}", w.stall_count, w.stall_count == 1 ? "" : "s",
                              w.io_timeout_s, max_stalls ? fmt::format(", over the profile's max_stalls {}", allowed) : "", first));
  }
  if (w.abandoned) out.push_back(w.abandon_detail);
  for (const auto& l : kernel.lines)
    if (fails_device(l.kind)) {
      out.push_back(fmt::format("kernel: {} at {:.1f} s: {}", l.kind, l.t_s, l.text));
      break;  // the first is enough to fail; the report lists them all
    }
  return out;
}

json::object watchdog_json(const WatchdogRecord& w) {
  json::object o;
  o["io_timeout_s"] = w.io_timeout_s;
  o["io_grace_s"] = w.io_grace_s;
  o["stall_count"] = w.stall_count;
  json::array list;
  for (const auto& s : w.stalls) {
    json::object x;
    x["test"] = s.test_id;
    x["direction"] = to_string(s.stall.dir);
    x["offset_bytes"] = s.stall.offset_bytes;
    x["lba"] = s.lba;
    x["submit_s"] = s.stall.submit_s;
    x["out_s"] = s.stall.out_s;
    x["completed"] = s.stall.completed;
    list.push_back(std::move(x));
  }
  o["stalls"] = std::move(list);
  o["abandoned"] = w.abandoned;
  if (w.abandoned) o["abandon_detail"] = w.abandon_detail;
  return o;
}

json::object kernel_log_json(const KernelLog& k) {
  json::object o;
  o["read"] = k.read;
  if (!k.note.empty()) o["note"] = k.note;
  json::array lines;
  for (const auto& l : k.lines) {
    json::object x;
    x["kernel_s"] = l.kernel_s;
    x["t_s"] = l.t_s;
    x["level"] = l.level;
    x["kind"] = l.kind;
    x["device"] = l.device;
    x["text"] = l.text;
    lines.push_back(std::move(x));
  }
  o["lines"] = std::move(lines);
  o["dropped"] = k.dropped;
  return o;
}

}  // namespace diskvet::runner
