// Rendering the live progress of a multi-host run.
#include "runner/hosts/hosts_progress.hpp"

#include <fmt/format.h>

#include <array>

#include "common/units.hpp"

namespace diskvet::runner {

std::string_view to_string(HostState s) {
  switch (s) {
    case HostState::preparing: return "preparing";
    case HostState::running: return "running";
    case HostState::done: return "done";
    case HostState::lost: return "lost";
  }
  return "?";
}

namespace {

std::string cut(std::string s, size_t width) {
  if (width && s.size() > width) s.resize(width);
  return s;
}

std::string times(const HostsProgress& p) {
  std::string t = format_duration(p.elapsed_s);
  if (p.planned_s) {
    const double left = *p.planned_s > p.elapsed_s ? *p.planned_s - p.elapsed_s : 0;
    t += fmt::format("/{} ({} left)", format_duration(*p.planned_s), format_duration(left));
  }
  return t;
}

std::string state_counts(const HostsProgress& p, size_t from = 0) {
  std::array<size_t, 4> n{};
  for (size_t i = from; i < p.hosts.size(); ++i) ++n[static_cast<size_t>(p.hosts[i].state)];
  std::string s;
  for (HostState st : {HostState::running, HostState::preparing, HostState::done, HostState::lost})
    if (n[static_cast<size_t>(st)]) s += fmt::format("{}{} {}", s.empty() ? "" : ", ", n[static_cast<size_t>(st)], to_string(st));
  return s;
}

std::string iops_text(const std::optional<double>& v) { return v ? format_count(*v) : std::string("-"); }

std::string header(const HostsProgress& p) {
  return fmt::format("{} {} | {} host{}: {}", p.what, p.finished ? "finished after " + format_duration(p.elapsed_s) : times(p), p.hosts.size(),
                     p.hosts.size() == 1 ? "" : "s", state_counts(p));
}

}  // namespace

std::string render_progress_line(const HostsProgress& p, size_t width) {
  std::string s = header(p);
  if (p.merged_iops) {
    s += fmt::format(" | {} {} IOPS (", p.finished ? "this run" : "last run", format_count(*p.merged_iops));
    bool first = true;
    for (const HostProgress& h : p.hosts) {
      s += fmt::format("{}{} {}", first ? "" : ", ", h.name, h.state == HostState::lost ? "lost" : iops_text(h.iops));
      first = false;
    }
    s += ")";
  }
  return cut(std::move(s), width);
}

std::vector<std::string> render_progress_block(const HostsProgress& p, size_t max_hosts, size_t width) {
  std::vector<std::string> lines{cut(header(p) + (p.merged_iops ? fmt::format(" | {} {} IOPS merged", p.finished ? "this run" : "last run",
                                                                              format_count(*p.merged_iops))
                                                                : std::string()),
                                     width)};
  const size_t shown = p.hosts.size() > max_hosts && max_hosts > 0 ? max_hosts - 1 : p.hosts.size();
  for (size_t i = 0; i < shown; ++i) {
    const HostProgress& h = p.hosts[i];
    lines.push_back(cut(fmt::format("  {:<16} {:<9} {:>10} IOPS{}", h.name, to_string(h.state), iops_text(h.iops),
                                    h.iops ? (p.finished ? " this run" : " last run") : ""),
                        width));
  }
  if (shown < p.hosts.size()) lines.push_back(cut(fmt::format("  ... {} more: {}", p.hosts.size() - shown, state_counts(p, shown)), width));
  return lines;
}

bool ProgressPacer::due(double now_s, bool finished) {
  if (finished || !last_s_ || now_s - *last_s_ >= interval_s_) {
    last_s_ = now_s;
    return true;
  }
  return false;
}

}  // namespace diskvet::runner
