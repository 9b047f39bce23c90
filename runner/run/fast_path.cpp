// Deciding a device's fast path at plan time, and the workload each device runs with it.
#include "runner/run/fast_path.hpp"

#include <fmt/format.h>

#include <array>
#include <optional>
#include <utility>

#include "runner/io/engine.hpp"
#include "runner/io/nvme_passthrough.hpp"
#include "runner/io/passthrough_size.hpp"
#include "runner/io/poll_queues.hpp"

namespace diskvet::runner {

namespace {

// The reason in an Error, as one phrase for the report: "not an NVMe namespace; use ...".
std::string reason_of(const Error& e) { return e.subject.empty() ? e.what : e.subject + " " + e.what; }

}  // namespace

bool suite_uses_passthrough(const suites::Suite& suite) {
  if (suite.fast_path.enabled) return true;
  for (const auto& t : suite.tests)
    for (const auto& w : t.workloads)
      if (w.engine == BackendKind::io_uring_cmd) return true;
  return false;
}

FastPath prepare_fast_path(Target& target, const suites::Suite& suite) {
  FastPath fp;
  fp.asked = suite.fast_path.enabled;
  if (target.is_null() || !suite_uses_passthrough(suite)) return fp;
  const TargetInfo& info = target.info();
  // One read of the first block through the node (polled: through a polled ring), now rather than
  // in the middle of the first test; the reason when the kernel or device refuses it.
  auto refusal = [&](bool hipri) -> std::optional<std::string> {
    Workload probe;
    probe.engine = BackendKind::io_uring_cmd;
    probe.bs_bytes = info.logical_block_size;
    probe.hipri = hipri;
    if (auto answered = check_passthrough(probe, target); !answered) return reason_of(answered.error());
    return std::nullopt;
  };
  if (auto attached = target.attach_passthrough(); !attached) {
    fp.no_passthrough = reason_of(attached.error());
  } else if (fp.asked) {
    if (auto why = refusal(false)) fp.no_passthrough = *why;
    else fp.passthrough = true;
    fp.node = info.passthrough_path;
  }
  if (!fp.asked) return fp;
  if (auto polls = check_poll_queues(info); !polls) fp.no_poll = reason_of(polls.error());
  else fp.polls = true;
  // A kernel with passthrough may still refuse to poll it (5.19, 6.0).
  if (fp.passthrough && fp.polls) {
    if (auto why = refusal(true)) fp.no_polled_passthrough = *why;
    else fp.polled_passthrough = true;
  }
  return fp;
}

Workload apply_fast_path(const Workload& w, const FastPath& fp, const TargetInfo& info) {
  if (!fp.asked || w.engine != BackendKind::io_uring || w.hipri) return w;
  auto candidate = [&](bool passthrough, bool poll) -> std::optional<Workload> {
    if ((passthrough && !fp.passthrough) || (poll && !fp.polls) || (passthrough && poll && !fp.polled_passthrough)) return std::nullopt;
    // A spinning workload without polling stays on the block path, where it spins.
    if (passthrough && !poll && w.spin_us) return std::nullopt;
    Workload c = w;
    if (passthrough) c.engine = BackendKind::io_uring_cmd;
    if (poll) {
      c.hipri = true;
      c.spin_us = 0;
    }
    if (passthrough && !check_passthrough_size(c.bs_bytes, info)) return std::nullopt;
    if (!validate(c, info.size_bytes, info.logical_block_size)) return std::nullopt;
    return c;
  };
  for (auto [passthrough, poll] : std::array{std::pair{true, true}, std::pair{true, false}, std::pair{false, true}})
    if (auto c = candidate(passthrough, poll)) return *c;
  return w;
}

std::string describe(const FastPath& fp) {
  if (!fp.asked) return "";
  std::string path = fp.passthrough ? "NVMe passthrough " + fp.node : "block path";
  std::string poll = fp.polls ? "polled completions" : "completions by interrupt";
  std::string why;
  if (!fp.passthrough && !fp.no_passthrough.empty()) why = "no passthrough: " + fp.no_passthrough;
  if (!fp.polls && !fp.no_poll.empty()) why += (why.empty() ? "" : "; ") + std::string("no polling: ") + fp.no_poll;
  if (fp.passthrough && fp.polls && !fp.polled_passthrough)
    why += (why.empty() ? "" : "; ") + std::string("passthrough not polled: ") + fp.no_polled_passthrough;
  return why.empty() ? fmt::format("{}, {}", path, poll) : fmt::format("{}, {} ({})", path, poll, why);
}

}  // namespace diskvet::runner
